#include "CommandArgs.h"

namespace cs::app {

CommandArgs::CommandArgs(const QStringList& args, const std::set<QString>& valued,
                         const std::set<QString>& flags, int maxPositionals) {
    for (qsizetype i = 1; i < args.size(); ++i) {
        const QString& a = args[i];
        if (a.startsWith("--") || (a.startsWith('-') && a.size() == 2)) {
            if (valued.count(a)) {
                if (i + 1 >= args.size()) throw UsageError(a.toStdString() + ": expected a value");
                values_[a] << args[++i];
            } else if (flags.count(a)) {
                flags_.insert(a);
            } else {
                throw UsageError("unknown option " + a.toStdString());
            }
        } else {
            if (positionals_.size() >= maxPositionals)
                throw UsageError("unexpected argument \"" + a.toStdString() + "\"");
            positionals_ << a;
        }
    }
}

QString CommandArgs::value(const QString& name) const {
    const auto it = values_.find(name);
    return it == values_.end() ? QString() : it->second.back();
}

QStringList CommandArgs::values(const QString& name) const {
    const auto it = values_.find(name);
    return it == values_.end() ? QStringList() : it->second;
}

int positiveInt(const CommandArgs& a, const char* flag, int max) {
    bool ok = false;
    const int n = a.value(flag).toInt(&ok);
    if (!ok || n < 1 || n > max)
        throw UsageError(std::string(flag) + ": expected an integer from 1 to " +
                         std::to_string(max) + ", got \"" + a.value(flag).toStdString() + "\"");
    return n;
}

TopologySourceArgs topologySource(const CommandArgs& a) {
    TopologySourceArgs s;
    s.preset = a.value("--preset").toStdString();
    if (!a.positionals().isEmpty()) s.file = a.positionals().front().toStdString();
    s.read.nodeNameMap = a.value("--node-name-map").toStdString();
    s.read.structureFile = a.value("--structure").toStdString();
    for (const QString& set : a.values("--set"))
        s.read.sets.push_back(set.toStdString());
    if (s.preset.empty() == s.file.empty())
        throw UsageError("expected either --preset NAME or a topology FILE");
    return s;
}

} // namespace cs::app
