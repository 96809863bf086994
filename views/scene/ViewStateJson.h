#pragma once
// A ViewState in JSON, as session files and camera bookmarks keep it: "layout", "colour",
// "aggregate", "labels" and "camera" ({"position", "focalPoint", "viewUp"}). The selection is
// kept by entity id beside it (it needs the topology to read back); marks come from the run.
#include "JsonObjectReader.h"
#include "ViewState.h"

#include <QJsonObject>

namespace cs::views {

// Adds the state's members to `o`.
void writeViewState(const ViewState& s, QJsonObject& o);
// Reads the state's members of `r` (each optional, defaults as ViewState has them); the
// caller finishes `r`. Throws JsonFieldError.
ViewState readViewState(JsonObjectReader& r);

QJsonObject cameraPoseToJson(const CameraPose& p);
CameraPose readCameraPose(JsonObjectReader r); // finite numbers, |x| <= 1e12

// {"name", "layout", "camera"}.
QJsonObject bookmarkToJson(const CameraBookmark& b);
CameraBookmark readBookmark(JsonObjectReader r);

} // namespace cs::views
