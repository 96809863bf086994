#pragma once
// Options of the GUI invocation: `clusterscope [--preset NAME | FILE] [--set F=V] [--select ID]
// [--screenshot OUT.png] [--run RUN.sqlite [--at T]] [--no-run] [--node-name-map F]
// [--structure F] [--study RESULTS.sqlite]`, or `clusterscope SESSION.clusterscope`. --screenshot
// saves the window (with --study, the chart's window) once shown, then quits.
#include "CommandSpec.h"

#include <QStringList>

namespace cs::app {

struct GuiOptions {
    QString source;                 // "preset:NAME" or a file path
    QString selectId;               // entity to select at start; "job:NAME": a job of the run
    QString screenshot;             // where to save a picture of the window, then exit
    QString run;                    // a run store to replay
    QString at;                     // replay position: an offset (90s, 2h) or an RFC 3339 time
    bool noRun = false;             // without a run: no default run on the default preset
    QString nodeNameMap, structure; // foreign fabric formats: a node-name map, the sidecar
    QStringList sets;               // --set FIELD=VALUE: generator parameters changed
    QString session;                // a .clusterscope session, reopened as it was saved
    QString compare;                // a second run store, compared with --run
    QStringList docks;              // the docks to show in front: design, summary, ...
    QString study;                  // a design study's result file, charted in its window
    // The 3D view at start, as the View toolbar sets it (empty: as it comes): floor|fabric,
    // kind|value|job|difference, mean|max|min, overview|pod:N|rack:R|ID.
    QString layout, color, aggregate, camera;
    // The study chart at start (with --study; empty: its default): the x axis or figure, the
    // y figure, the axis that splits the series ("none": one series).
    QString studyX, studyY, studySeries;
};

// The GUI's arguments, described as a command's are (CommandSpec.h), and the form that
// reopens a session.
const CommandSpec& guiSpec();
const CommandSpec& guiSessionSpec();
// Throws UsageError on unknown options.
GuiOptions parseGuiOptions(const QStringList& args);

int runGui(const GuiOptions& options);

class MainWindow;
// Opens the options' topology, selection and run in a window; the error, as the command line
// prints it, when one is refused (empty: all opened).
QString openFromOptions(MainWindow& w, const GuiOptions& options);

} // namespace cs::app
