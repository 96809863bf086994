#pragma once
// Design dock → Save Design As...: the design's name, a short description and the file, in one
// form. The name and description go into the parameters file, and from there into stats, run
// stores, comparisons and renders.
#include <QDialog>

#include <optional>

class QLabel;
class QLineEdit;

namespace cs::app {

struct DesignIdentity {
    QString name, description;
};

class DesignSaveDialog : public QDialog {
    Q_OBJECT
public:
    DesignSaveDialog(const DesignIdentity& current, QWidget* parent = nullptr);
    // The form's answer; empty (and the reason shown under the form) while it is not valid.
    std::optional<DesignIdentity> identity();
    QString path() const; // the file, ".json" added where it has no suffix

    QLineEdit* nameEdit() const { return name_; }
    QLineEdit* descriptionEdit() const { return description_; }
    QLineEdit* pathEdit() const { return path_; }
    QLabel* problemLabel() const { return problem_; }

private:
    QLineEdit *name_, *description_, *path_;
    QLabel* problem_;
};

} // namespace cs::app
