#pragma once
// A widget's tooltip from what lies under the pointer: shown, or hidden where nothing does.
// Call from event(); true when it was the tooltip event (handled).
#include <QHelpEvent>
#include <QString>
#include <QToolTip>
#include <QWidget>

namespace cs::views {

template <class TextAt> bool showHoverTip(QWidget* widget, QEvent* e, const TextAt& textAt) {
    if (e->type() != QEvent::ToolTip) return false;
    auto* help = static_cast<QHelpEvent*>(e);
    const QString text = textAt(help->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, widget);
    return true;
}

} // namespace cs::views
