#pragma once
// File → Save Screenshot and File → Export Movie: the picture's size and, for a movie, its
// frame rate, speed and the stretch of the run (offsets from its start, as --from/--to).
#include <QDialog>
#include <QSize>

class QSpinBox;
class QDoubleSpinBox;
class QLineEdit;
class QLabel;

namespace cs::app {

class MediaExportDialog : public QDialog {
    Q_OBJECT
public:
    // runEndNs < 0: a screenshot (no time fields).
    MediaExportDialog(QSize viewSize, int64_t runEndNs, QWidget* parent = nullptr);

    QSize pictureSize() const;
    int fps() const;
    double speed() const;
    // The offsets typed, or nullopt with what is wrong (shown in the dialog).
    std::optional<std::pair<int64_t, int64_t>> range(QString* problem) const;

private:
    void updateSummary();

    QSpinBox *width_, *height_, *fps_ = nullptr;
    QDoubleSpinBox* speed_ = nullptr;
    QLineEdit *from_ = nullptr, *to_ = nullptr;
    QLabel* summary_ = nullptr;
    int64_t runEndNs_;
};

} // namespace cs::app
