#include "DesignSaveDialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>

namespace cs::app {
namespace {
// What the topology file's reader takes for a string: a name or description read from a file
// is offered whole, never cut.
constexpr int kMaxTextLength = 4096;

// A file name from a design name: "meta-roce-24k · oversubscription 3" → meta-roce-24k-
// oversubscription-3.json, characters a file system may refuse left out.
QString fileNameFor(const QString& name) {
    QString out;
    for (const QChar c : name) {
        if (c.isLetterOrNumber() || c == '-' || c == '_' || c == '.')
            out += c;
        else if (!out.isEmpty() && !out.endsWith('-'))
            out += '-';
    }
    while (out.endsWith('-'))
        out.chop(1);
    return (out.isEmpty() ? QStringLiteral("design") : out) + ".json";
}
} // namespace

DesignSaveDialog::DesignSaveDialog(const DesignIdentity& current, QWidget* parent)
    : QDialog(parent), name_(new QLineEdit(current.name)),
      description_(new QLineEdit(current.description)),
      path_(new QLineEdit(QDir::home().filePath(fileNameFor(current.name)))), problem_(new QLabel) {
    setWindowTitle(tr("Save Design As"));
    name_->setObjectName("designName");
    name_->setMaxLength(kMaxTextLength);
    description_->setObjectName("designDescription");
    description_->setMaxLength(kMaxTextLength);
    description_->setPlaceholderText(tr("what this design is for, in a sentence"));
    path_->setObjectName("designPath");
    problem_->setObjectName("designSaveProblem");
    problem_->setStyleSheet("color: #b00020");
    problem_->setWordWrap(true);
    auto* browse = new QPushButton(tr("Browse..."));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Save Design As"), path_->text(),
                                                       tr("ClusterScope topology (*.json)"));
        if (!p.isEmpty()) path_->setText(p);
    });
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(path_, 1);
    fileRow->addWidget(browse);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Name"), name_);
    form->addRow(tr("Description"), description_);
    form->addRow(tr("File"), fileRow);
    form->addRow(problem_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (!identity()) return;
        // A file typed in (not chosen in Browse, which asks) is not replaced unasked.
        if (QFileInfo::exists(path()) &&
            QMessageBox::question(this, tr("Save Design As"),
                                  tr("%1 exists. Replace it?").arg(path())) != QMessageBox::Yes)
            return;
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    setMinimumWidth(480);
}

std::optional<DesignIdentity> DesignSaveDialog::identity() {
    const QString name = name_->text().simplified();
    if (name.isEmpty()) {
        problem_->setText(tr("Name: expected the design's name, e.g. meta-roce-24k 1:3"));
        return std::nullopt;
    }
    if (path_->text().trimmed().isEmpty()) {
        problem_->setText(tr("File: expected where to save the design (a .json file)"));
        return std::nullopt;
    }
    problem_->clear();
    return DesignIdentity{name, description_->text().simplified()};
}

QString DesignSaveDialog::path() const {
    const QString p = path_->text().trimmed();
    return QFileInfo(p).suffix().isEmpty() ? p + ".json" : p;
}

} // namespace cs::app
