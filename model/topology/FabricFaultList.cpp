#include "FabricFaultList.h"

#include "InputError.h"
#include "JsonObjectReader.h"

#include <QJsonArray>

#include <algorithm>
#include <cstdlib>

namespace cs {

FabricFaults fabricFaultsOfJson(JsonObjectReader r) {
    FabricFaults f;
    if (r.has("failed")) {
        const QJsonArray list = r.array("failed", qsizetype(kMaxFaults));
        for (qsizetype i = 0; i < list.size(); ++i) {
            const std::string id = list[i].toString().toStdString();
            if (!list[i].isString() || id.empty() || id.size() > 512)
                throw JsonFieldError(r.pathOf("failed").child(int(i)),
                                     "expected the id of a link, switch or NIC as a string");
            f.failed.push_back(id);
        }
    }
    if (r.has("degraded")) {
        JsonObjectReader d = r.object("degraded");
        const QJsonObject o = r.value("degraded").toObject();
        if (size_t(o.size()) > kMaxFaults)
            r.fail("degraded", "expected at most " + std::to_string(kMaxFaults) + " parts");
        for (auto it = o.begin(); it != o.end(); ++it) {
            const std::string id = it.key().toStdString();
            const double fraction = d.number(id.c_str(), 0, 1);
            if (!(fraction > 0))
                d.fail(id.c_str(), "expected a fraction of capacity above 0 and at most 1 (a "
                                   "part with none left belongs in \"failed\")");
            f.degraded.emplace_back(id, fraction);
        }
        d.finish();
    }
    r.finish();
    return f;
}

QJsonObject fabricFaultsToJson(const FabricFaults& faults) {
    QJsonObject o;
    if (!faults.failed.empty()) {
        QJsonArray list;
        for (const std::string& id : faults.failed)
            list.append(QString::fromStdString(id));
        o.insert("failed", list);
    }
    if (!faults.degraded.empty()) {
        QJsonObject d;
        for (const auto& [id, fraction] : faults.degraded)
            d.insert(QString::fromStdString(id), fraction);
        o.insert("degraded", d);
    }
    return o;
}

std::pair<std::string, double> parseDegradeFlag(const std::string& text) {
    const size_t eq = text.rfind('=');
    const std::string field = "--degrade " + text;
    if (eq == std::string::npos || eq == 0)
        throw InputException({{}, 0, 0, field, "expected ID=FRACTION, such as \"a -- b=0.5\""});
    const std::string value = text.substr(eq + 1);
    char* end = nullptr;
    const double fraction = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !(fraction > 0) || fraction > 1)
        throw InputException(
            {{},
             0,
             0,
             field,
             "expected a fraction of capacity above 0 and at most 1, got \"" + value + "\""});
    return {text.substr(0, eq), fraction};
}

FabricFaults mergedFaults(const FabricFaults& design, const FabricFaults& run) {
    FabricFaults out = design;
    for (const std::string& id : run.failed)
        if (std::find(out.failed.begin(), out.failed.end(), id) == out.failed.end())
            out.failed.push_back(id);
    for (const std::pair<std::string, double>& part : run.degraded) {
        auto same = [&](const auto& x) { return x.first == part.first; };
        out.degraded.erase(std::remove_if(out.degraded.begin(), out.degraded.end(), same),
                           out.degraded.end());
        out.degraded.push_back(part);
    }
    return out;
}

} // namespace cs
