#include "CommandArgs.h"

namespace cs::app {

CommandArgs::CommandArgs(const QStringList& args, const std::set<QString>& valued,
                         const std::set<QString>& flags, int maxPositionals)
    : valued_(valued), switches_(flags) {
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

void CommandArgs::requireValued(const QString& name) const {
    if (!valued_.count(name))
        throw UndeclaredOption("option " + name.toStdString() +
                               (switches_.count(name) ? " takes no value" : " is not declared") +
                               " by this command");
}

bool CommandArgs::flag(const QString& name) const {
    if (!switches_.count(name))
        throw UndeclaredOption("switch " + name.toStdString() +
                               (valued_.count(name) ? " takes a value" : " is not declared") +
                               " by this command");
    return flags_.count(name) > 0;
}

bool CommandArgs::has(const QString& name) const {
    requireValued(name);
    return values_.count(name) > 0;
}

QString CommandArgs::value(const QString& name) const {
    requireValued(name);
    const auto it = values_.find(name);
    return it == values_.end() ? QString() : it->second.back();
}

QStringList CommandArgs::values(const QString& name) const {
    requireValued(name);
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
    // Commands that open a topology without variants or foreign formats (import) leave these out.
    if (a.declares("--node-name-map"))
        s.read.nodeNameMap = a.value("--node-name-map").toStdString();
    if (a.declares("--structure")) s.read.structureFile = a.value("--structure").toStdString();
    if (a.declares("--set"))
        for (const QString& set : a.values("--set"))
            s.read.sets.push_back(set.toStdString());
    if (s.preset.empty() == s.file.empty())
        throw UsageError("expected either --preset NAME or a topology FILE");
    return s;
}

} // namespace cs::app
