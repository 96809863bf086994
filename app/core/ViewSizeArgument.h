#pragma once
// `--size WxH` of render and movie: 10x10 to 8192x8192. Throws UsageError naming the flag.
#include <QSize>
#include <QString>

namespace cs::app {

QSize parseViewSize(const QString& text, const char* flag = "--size");

} // namespace cs::app
