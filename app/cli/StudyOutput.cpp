#include "StudyOutput.h"

#include "SummaryFigures.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>
#include <map>

namespace cs::app {

QJsonObject studyResultsJson(const StudyStore& store, const StudySpec& s) {
    const std::vector<QJsonObject> variants = studyVariants(s);
    std::map<int, VariantResult> byIndex;
    for (VariantResult& r : store.results())
        byIndex.emplace(r.index, std::move(r));
    QJsonArray list;
    for (int i = 0; i < int(variants.size()); ++i) {
        QJsonObject v{{"index", i}, {"params", variants[size_t(i)]}};
        const auto it = byIndex.find(i);
        if (it == byIndex.end()) {
            v.insert("status", "pending");
        } else {
            v.insert("status", it->second.ok ? "ok" : "failed");
            v.insert("message", QString::fromStdString(it->second.message));
            v.insert("figures", it->second.figures);
            if (!it->second.runPath.isEmpty()) v.insert("runPath", it->second.runPath);
        }
        list.append(v);
    }
    return QJsonObject{{"variants", list}};
}

void printStudy(const StudyStore& store, const StudySpec& s, bool json) {
    const QJsonObject all = studyResultsJson(store, s);
    if (json) {
        std::printf("%s\n", QJsonDocument(all).toJson(QJsonDocument::Compact).constData());
        return;
    }
    int ok = 0, failed = 0, pending = 0;
    for (const QJsonValue& v : all.value("variants").toArray()) {
        const QJsonObject o = v.toObject();
        const QString status = o.value("status").toString();
        std::string line = std::to_string(o.value("index").toInt()) + "  " +
                           variantText(o.value("params").toObject()) + "\n    ";
        if (status == "ok") {
            ++ok;
            const QJsonObject f = o.value("figures").toObject();
            // In the units the rest of the program reads them in: MFU "41.2 %", not 0.412.
            for (const std::string& name : s.record) {
                const QJsonValue v = f.value(QString::fromStdString(name));
                line += name + " " + (v.isDouble() ? summaryFigureText(name, v.toDouble()) : "-") +
                        "  ";
            }
        } else if (status == "failed") {
            ++failed;
            line += "failed: " + o.value("message").toString().toStdString();
        } else {
            ++pending;
            line += "not run yet";
        }
        std::printf("%s\n", line.c_str());
    }
    std::printf("%d variants: %d ok, %d failed, %d not run yet; results in %s\n",
                ok + failed + pending, ok, failed, pending, qPrintable(store.path()));
}

} // namespace cs::app
