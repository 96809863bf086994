#pragma once
// A bill of materials as people and scripts read it: text, one JSON object, CSV (one row per
// line item). With a run's power (RunPower.h) beside it when one was given.
#include "BillOfMaterials.h"
#include "RunPower.h"

#include <QJsonObject>

#include <string>

namespace cs {

// {"gpus", "hosts", "racks", "switches": {"total", "backend", "byRole", ...}, "links":
// {"total", "backendInterSwitch", "byMedium", ...}, "transceivers", "cables", "ports",
// "powerW", "rackKw", "cost", "items", "prices"} and, with a run, "runPower".
QJsonObject bomToJson(const BillOfMaterials& b, const RunPower* run = nullptr);
std::string bomToText(const BillOfMaterials& b, const RunPower* run = nullptr);
// item,count,unit_price_usd,cost_usd,power_w
std::string bomToCsv(const BillOfMaterials& b);

QJsonObject runPowerToJson(const RunPower& r);

} // namespace cs
