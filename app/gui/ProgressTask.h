#pragma once
// Long work (a simulation, an import) run off the GUI thread behind a modal progress dialog
// with Cancel. The work reports its progress through the function it is given; after Cancel
// that function throws, which ends the work.
#include <QString>

#include <functional>

class QWidget;

namespace cs::app {

struct ProgressOutcome {
    bool done = false; // the work ran to its end
    bool cancelled = false;
    QString error; // the work's exception, as a dialog says it
};

ProgressOutcome runWithProgressDialog(QWidget* parent, const QString& label,
                                      const std::function<void(std::function<void(double)>)>& work);

} // namespace cs::app
