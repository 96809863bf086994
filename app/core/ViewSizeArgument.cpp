#include "ViewSizeArgument.h"

#include "CommandArgs.h"

#include <QRegularExpression>

namespace cs::app {

QSize parseViewSize(const QString& text, const char* flag) {
    static const QRegularExpression pattern("^(\\d{2,5})x(\\d{2,5})$");
    const auto m = pattern.match(text);
    if (!m.hasMatch() || m.captured(1).toInt() > 8192 || m.captured(2).toInt() > 8192)
        throw UsageError(std::string(flag) + ": expected WxH from 10x10 to 8192x8192, got \"" +
                         text.toStdString() + "\"");
    return {m.captured(1).toInt(), m.captured(2).toInt()};
}

} // namespace cs::app
