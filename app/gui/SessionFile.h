#pragma once
// A session (`.clusterscope`, JSON): what the window shows, to reopen it as it was — the
// topology, the run and the time in it, the camera and its bookmarks, layout and colouring,
// the selection and the dock layout. Paths are stored relative to the session file, so a
// folder holding the session, its topology and its run can move as one.
#include "ViewState.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace cs::app {

constexpr const char* kSessionFormat = "clusterscope-session";
constexpr const char* kSessionSuffix = "clusterscope";

struct Session {
    QString topology; // "preset:NAME" or a file path (absolute once read)
    // An edited design (the Design dock): its parameters file, inline; topology then names it.
    QJsonObject design;
    QString nodeNameMap, structure;
    QString run; // empty: none
    int64_t timeNs = 0;
    views::ViewState view; // layout, colouring, aggregate, labels, camera (no selection)
    QString selection;     // an entity id; empty: none
    std::vector<views::CameraBookmark> bookmarks;
    // View > Compare: the second run, its topology when the store does not keep it (a preset
    // or a file; empty: from the store), whether the cameras move together and whether the
    // second run is the baseline A (after Simulate on This Design) rather than B.
    QString compareRun, compareTopology;
    bool camerasLinked = true;
    bool compareIsBaseline = false;
    QByteArray docks; // QMainWindow::saveState()
};

// Paths in `s` are absolute; the text holds them relative to `sessionPath`'s folder.
QByteArray sessionDocument(const Session& s, const QString& sessionPath);
// Throws InputException (file, line, field); relative paths become absolute.
Session parseSession(const QByteArray& text, const QString& sessionPath);
// Whether the text is a session (by content: the format field).
bool looksLikeSession(const QByteArray& head);

} // namespace cs::app
