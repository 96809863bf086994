#pragma once
// Sets up a cluster workload (Run -> Simulate Cluster Workload): a workload file, a generated
// job mix, or a file with a mix added; the scheduler, its pod-crossing rule, backfill and seed;
// and how long to simulate. The fields are the workload file's own and are checked by its
// reader (Workload.h, WorkloadMix.h): a field that does not read is marked and named under the
// form, a bad file by its file, line and field.
#include "Workload.h"

#include <QDialog>
#include <QJsonObject>

#include <optional>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace cs::app {

class WorkloadDialog : public QDialog {
    Q_OBJECT
public:
    explicit WorkloadDialog(QWidget* parent = nullptr);
    // The workload and span as last accepted by check() (the Run button).
    const Workload& workload() const { return workload_; }
    double spanS() const { return spanS_; }
    // The name a stored run of it takes: the file's, or "generated mix".
    QString workloadName() const;
    // Reads a workload file into the form: its scheduler settings and its mix, if it has one;
    // its listed jobs and failures are run as they are. `error` says where a bad file is wrong.
    bool loadFile(const QString& path, QString* error);
    // Reads the form; on problems marks the fields, lists them under the form, returns false.
    bool check();
    QStringList markedFields() const; // objectNames of the fields marked now
    // The form as a workload file (the file's jobs and failures with the form's settings),
    // written atomically.
    bool saveFile(const QString& path, QString* error);

private:
    QJsonObject mixJson() const; // throws JsonFieldError naming the mix field
    QJsonObject workloadJson() const;
    void markField(QWidget* w, const QString& message);
    void clearMarks();
    void browse();
    void saveAs();

    QLineEdit* file_;
    QJsonObject fileJson_; // the file's object, as read from filePath_
    QString filePath_;
    std::optional<Workload> readFile(const QString& path, QString* error); // keeps its object
    QComboBox* scheduler_;
    QComboBox* podCrossing_;
    QCheckBox* backfill_;
    QLineEdit* seed_;
    QLineEdit* span_;
    QGroupBox* mix_;
    QSpinBox* mixJobs_;
    QLineEdit* mixSeed_;
    QLineEdit* arrivalSpan_;
    QLineEdit* minDuration_;
    QLineEdit* maxDuration_;
    QLineEdit* sizes_;
    QLabel* problem_;
    Workload workload_;
    double spanS_ = 0;
};

} // namespace cs::app
