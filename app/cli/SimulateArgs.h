#pragma once
// The arguments of `clusterscope simulate`: one flag per run option of the RunOptions table,
// each parsed by setRunOption; `--run RUN.json` is read first and flags override it.
#include "CommandSpec.h"
#include "InputError.h"
#include "SimulationRun.h"

#include <QStringList>

#include <string>

namespace cs::app {

// args[0] is the subcommand; throws UsageError on unknown options.
CommandArgs simulateCommandArgs(const QStringList& args);
// The run the arguments describe. Throws UsageError naming the flag for a bad value (and for
// --gpus not being TP x CP x PP x DP), InputException for a bad --run file.
RunSpec runSpecOfArgs(const CommandArgs& a);
// Both of the above: what `clusterscope simulate ARGS...` would run.
RunSpec parseSimulateArgs(const QStringList& args);

// An error from model/ naming a run option by its key ("parallel.tp") says where the value
// came from: its flag ("--tp") when given, else the run file and the key, else the flag (the
// default); others (located in a file, unknown fields) as they are.
InputException withFlag(const InputException& e, const CommandArgs& a);

} // namespace cs::app
