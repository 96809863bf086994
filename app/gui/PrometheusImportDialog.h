#pragma once
// File → Import from Prometheus...: a Prometheus-compatible server's URL, a time range (UTC)
// and a step; the import runs off the GUI thread with progress and cancel, into a run store.
// Live: the range runs from From to now, and the recording goes on, polled every step.
#include "PrometheusLive.h"

#include <QDialog>

#include <memory>
#include <optional>

class QCheckBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;

namespace cs::app {

class PrometheusImportDialog : public QDialog {
    Q_OBJECT
public:
    explicit PrometheusImportDialog(QWidget* parent = nullptr);
    // What the form asks for; empty (and the reason shown) while it is not valid.
    std::optional<PrometheusQuery> query();
    QString storePath() const;

    QLineEdit* urlEdit() const { return url_; }
    QDateTimeEdit* startEdit() const { return start_; }
    QDateTimeEdit* endEdit() const { return end_; }
    QLineEdit* stepEdit() const { return step_; }
    QLineEdit* storeEdit() const { return store_; }
    QCheckBox* liveCheck() const { return live_; }
    bool live() const;
    QLabel* problemLabel() const { return problem_; }

private:
    QLineEdit *url_, *step_, *store_;
    QDateTimeEdit *start_, *end_;
    QCheckBox* live_;
    QLabel* problem_;
};

// Imports off the GUI thread with a progress dialog; false when cancelled or failed (the
// error shown). A cancelled or failed import leaves no new store behind.
bool importPrometheusWithProgress(QWidget* parent, const TopologyDocument& doc,
                                  const PrometheusQuery& query, const QString& storePath);
// The first import of a live recording, the same way; null when cancelled or failed.
std::shared_ptr<PrometheusLive> startLiveWithProgress(QWidget* parent, const TopologyDocument& doc,
                                                      const PrometheusQuery& query,
                                                      const QString& storePath);

} // namespace cs::app
