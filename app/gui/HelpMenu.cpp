#include "HelpMenu.h"

#include <QAction>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QShortcut>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace cs::app {

QList<QPair<QString, QString>> windowShortcuts(const QWidget* window) {
    QList<QPair<QString, QString>> out;
    auto add = [&](const QKeySequence& keys, QString what) {
        if (keys.isEmpty() || what.isEmpty()) return;
        what.remove('&');
        if (what.endsWith("...")) what.chop(3);
        const QString text = keys.toString(QKeySequence::NativeText);
        if (!out.contains({text, what})) out.append({text, what});
    };
    for (const QAction* a : window->findChildren<QAction*>())
        add(a->shortcut(), a->text());
    for (const QShortcut* s : window->findChildren<QShortcut*>())
        add(s->key(), s->whatsThis());
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.second.localeAwareCompare(b.second) < 0;
    });
    return out;
}

void showShortcutsDialog(QWidget* window) {
    const auto keys = windowShortcuts(window);
    QDialog dialog(window);
    dialog.setWindowTitle(QCoreApplication::translate("Help", "Keyboard Shortcuts"));
    auto* table = new QTableWidget(int(keys.size()), 2, &dialog);
    table->setObjectName("shortcutsTable");
    table->setHorizontalHeaderLabels(
        {QCoreApplication::translate("Help", "Keys"), QCoreApplication::translate("Help", "Does")});
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int r = 0; r < int(keys.size()); ++r) {
        table->setItem(r, 0, new QTableWidgetItem(keys[r].first));
        table->setItem(r, 1, new QTableWidgetItem(keys[r].second));
    }
    table->resizeColumnToContents(0);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog.resize(520, 480);
    dialog.exec();
}

QString userGuidePath() {
    const QString installed =
        QCoreApplication::applicationDirPath() + "/../share/doc/clusterscope/docs/user/README.md";
    if (QFileInfo::exists(installed)) return QFileInfo(installed).canonicalFilePath();
#ifdef CS_SOURCE_DIR
    const QString source = QStringLiteral(CS_SOURCE_DIR "/docs/user/README.md");
    if (QFileInfo::exists(source)) return source;
#endif
    return {};
}

} // namespace cs::app
