#pragma once
// Small option scanner shared by the subcommands: `--name value`, `--flag`, positionals.
// Anything it does not know is an error that names the argument. Code that asks for an option
// the command never declared is a programming error (a typo would otherwise read as "not
// given"): the lookup throws UndeclaredOption.
#include "TopologyFile.h"

#include <QStringList>

#include <map>
#include <set>
#include <stdexcept>
#include <string>

namespace cs::app {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct UndeclaredOption : std::logic_error {
    using std::logic_error::logic_error;
};

class CommandArgs {
public:
    // valued: options taking a value ("--preset"); flags: options without one ("--json").
    CommandArgs(const QStringList& args, const std::set<QString>& valued,
                const std::set<QString>& flags, int maxPositionals);
    // Each lookup throws UndeclaredOption for a name outside the command's options, or a
    // switch asked for a value (and the reverse).
    bool flag(const QString& name) const;
    QString value(const QString& name) const;      // the last one given
    QStringList values(const QString& name) const; // every one, for repeatable options
    bool has(const QString& name) const;
    // Whether the command declares the option (shared helpers read an option only where so).
    bool declares(const QString& name) const {
        return valued_.count(name) || switches_.count(name);
    }
    const QStringList& positionals() const { return positionals_; }

private:
    void requireValued(const QString& name) const;

    std::set<QString> valued_, switches_; // as declared
    std::map<QString, QStringList> values_;
    std::set<QString> flags_;
    QStringList positionals_;
};

// An option's value as a whole number from 1 to max; throws UsageError naming the flag.
int positiveInt(const CommandArgs& a, const char* flag, int max);

// Opens `--preset NAME | FILE` as given to stats, export, render...; throws on bad input.
struct TopologySourceArgs {
    std::string preset;
    std::string file;
    TopologyReadOptions read; // --set; --node-name-map, --structure (foreign fabric formats)
};

TopologySourceArgs topologySource(const CommandArgs& a);

} // namespace cs::app
