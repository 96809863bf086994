#include "MediaExportDialog.h"

#include "Duration.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <cmath>
#include <optional>

namespace cs::app {

MediaExportDialog::MediaExportDialog(QSize viewSize, int64_t runEndNs, QWidget* parent)
    : QDialog(parent), runEndNs_(runEndNs) {
    const bool movie = runEndNs >= 0;
    setWindowTitle(movie ? tr("Export Movie") : tr("Save Screenshot"));
    auto* form = new QFormLayout;
    auto* sizeRow = new QHBoxLayout;
    width_ = new QSpinBox;
    height_ = new QSpinBox;
    for (QSpinBox* s : {width_, height_}) {
        s->setRange(16, 8192);
        s->setSingleStep(movie ? 2 : 1);
        s->setSuffix(tr(" px"));
    }
    // A movie's planes are halved: even sizes only.
    width_->setValue(movie ? viewSize.width() & ~1 : viewSize.width());
    height_->setValue(movie ? viewSize.height() & ~1 : viewSize.height());
    sizeRow->addWidget(width_);
    sizeRow->addWidget(new QLabel(QStringLiteral("×")));
    sizeRow->addWidget(height_);
    form->addRow(tr("Size"), sizeRow);
    if (movie) {
        fps_ = new QSpinBox;
        fps_->setRange(1, 120);
        fps_->setValue(30);
        fps_->setSuffix(tr(" frames/s"));
        form->addRow(tr("Frame rate"), fps_);
        speed_ = new QDoubleSpinBox;
        speed_->setRange(0.001, 1e6);
        speed_->setDecimals(3);
        speed_->setValue(1);
        speed_->setSuffix(tr(" × (run seconds per movie second)"));
        form->addRow(tr("Speed"), speed_);
        from_ = new QLineEdit(QStringLiteral("0s"));
        // The end to the millisecond, rounded down: the field offers a time the run has.
        to_ =
            new QLineEdit(QString::fromStdString(formatDuration(runEndNs / 1'000'000 * 1'000'000)));
        form->addRow(tr("From"), from_);
        form->addRow(tr("To"), to_);
        summary_ = new QLabel;
        form->addRow(summary_);
        for (QLineEdit* e : {from_, to_})
            connect(e, &QLineEdit::textChanged, this, [this] { updateSummary(); });
        connect(fps_, &QSpinBox::valueChanged, this, [this] { updateSummary(); });
        connect(speed_, &QDoubleSpinBox::valueChanged, this, [this] { updateSummary(); });
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
    setLayout(form);
    if (movie) updateSummary();
}

QSize MediaExportDialog::pictureSize() const {
    return {width_->value(), height_->value()};
}
int MediaExportDialog::fps() const {
    return fps_ ? fps_->value() : 0;
}
double MediaExportDialog::speed() const {
    return speed_ ? speed_->value() : 1;
}

std::optional<std::pair<int64_t, int64_t>> MediaExportDialog::range(QString* problem) const {
    if (!from_) return std::nullopt;
    const auto from = parseDurationNs(from_->text().toStdString());
    const auto to = parseDurationNs(to_->text().toStdString());
    QString p;
    if (!from || !to)
        p = tr("From and To take offsets such as 0s, 1.5s, 2m");
    else if (*to <= *from)
        p = tr("To must come after From");
    else if (*to > runEndNs_)
        p = tr("The run lasts %1")
                .arg(QString::fromStdString(formatDuration(runEndNs_ / 1'000'000 * 1'000'000)));
    if (problem) *problem = p;
    if (!p.isEmpty()) return std::nullopt;
    return std::pair{*from, *to};
}

void MediaExportDialog::updateSummary() {
    QString problem;
    const auto r = range(&problem);
    if (!r) {
        summary_->setText(problem);
    } else {
        const double seconds = double(r->second - r->first) * 1e-9 / speed();
        summary_->setText(tr("%1 s of movie, %2 frames")
                              .arg(seconds, 0, 'f', 1)
                              .arg(std::max(1LL, (long long)std::llround(seconds * fps()))));
    }
    if (auto* box = findChild<QDialogButtonBox*>())
        box->button(QDialogButtonBox::Ok)->setEnabled(r.has_value());
}

} // namespace cs::app
