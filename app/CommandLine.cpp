#include "CommandLine.h"

#include "CommandArgs.h"
#include "InputError.h"
#include "Presets.h"

#include <QCoreApplication>

#include <cstdio>

namespace cs::app {
namespace {

void printUsage(FILE* out) {
    std::fprintf(
        out,
        "Usage:\n"
        "  clusterscope [--preset NAME | FILE] [--run RUN.sqlite [--at T] | --no-run]\n"
        "        open the GUI (default preset: %s, playing a simulated Llama 3 405B run)\n"
        "  clusterscope stats (--preset NAME | FILE) [--json]\n"
        "  clusterscope export (--preset NAME | FILE) -o OUT [--params |\n"
        "        --format graphml|dot|netbox|ibnetdiscover|infragraph|networkx|ns3]\n"
        "  clusterscope render (--preset NAME | FILE) [--layout floor|fabric]\n"
        "        [--camera overview|pod:N|rack:R|ID] [--size WxH] -o OUT.png|OUT.gltf\n"
        "        [--values none|test|speed] [--color kind|value] [--aggregate mean|max|min]\n"
        "        [--select ID] [--time S] [--run run.sqlite --at T]\n"
        "  clusterscope movie (--preset NAME | FILE) --run RUN.sqlite -o OUT.mp4|OUT.webm\n"
        "        [--from T] [--to T] [--speed X] [--fps 30] [--size WxH] [--layout floor|fabric]\n"
        "        [--camera SPEC] [--aggregate mean|max|min]   a stored run as a movie (ffmpeg)\n"
        "  clusterscope simulate (--preset NAME | FILE) [--run RUN.json] --model llama3-405b\n"
        "        --gpus N --tp 8 --cp 1 --pp 16 --dp 128 --seq 8192 --batch-tokens 16777216\n"
        "        [--steps N | --span 54d] [--gpu h100|h200|a100] [--placement topology|linear]\n"
        "        [--failures on|off] [--seed S] [--checkpoint-interval 15m] [--virtual-stages V]\n"
        "        [--flows-per-pair 16] [--out run.sqlite] [--trace step.json] [--json]\n"
        "        (clusterscope simulate --help lists every run option)\n"
        "  clusterscope import (--preset NAME | FILE) FILES... --out run.sqlite [--map MAP.json]\n"
        "        [--format auto|prometheus|openmetrics|prom-json|csv|nvidia-smi] [--tick 15s]\n"
        "        [--at T] [--json]               recorded telemetry into a run store\n"
        "        (--at: the time of scrapes without times; else each file's modification time)\n"
        "  clusterscope import (--preset NAME | FILE) --prometheus URL --start T --end T\n"
        "        [--step 15s] --out run.sqlite   the same from a Prometheus-compatible server\n"
        "        (T: Unix seconds or RFC 3339, such as 2024-06-01T12:00:00Z)\n"
        "  clusterscope generate-telemetry (--preset NAME | FILE) -o OUT [--duration 5m]\n"
        "        [--interval 15s] [--hosts N] [--seed S] [--format prometheus|openmetrics]\n"
        "  clusterscope frame (--preset NAME | FILE) RUN.sqlite --at T [--metric NAME]\n"
        "        [--select ID]... [--json]      one frame of a stored run (T: 0s, 100ms, 1h30m)\n"
        "  clusterscope presets\n"
        "  clusterscope --version | --help\n"
        "Presets: %s\n"
        "Exit codes: 0 success, 1 cannot write output, 2 bad input.\n",
        kDefaultPreset, presetNamesJoined().c_str());
}

} // namespace

bool isCommand(const QString& a) {
    return a == "stats" || a == "export" || a == "render" || a == "movie" || a == "simulate" ||
           a == "import" || a == "generate-telemetry" || a == "frame" || a == "presets" ||
           a == "help" || a == "--help" || a == "-h" || a == "--version";
}

int presetsCommand(const QStringList& args) {
    CommandArgs(args, {}, {}, 0);
    for (const PresetInfo& p : presets())
        std::printf("%-14s %s\n", p.name.c_str(), p.description.c_str());
    return kExitOk;
}

int runCommand(const QStringList& args) {
    const QString cmd = args.value(0);
    try {
        if (cmd == "stats") return statsCommand(args);
        if (cmd == "export") return exportCommand(args);
        if (cmd == "render") return renderCommand(args);
        if (cmd == "movie") return movieCommand(args);
        if (cmd == "simulate") return simulateCommand(args);
        if (cmd == "import") return importCommand(args);
        if (cmd == "frame") return frameCommand(args);
        if (cmd == "generate-telemetry") return generateTelemetryCommand(args);
        if (cmd == "presets") return presetsCommand(args);
        if (cmd == "--version") {
            std::printf("clusterscope %s\n", qPrintable(QCoreApplication::applicationVersion()));
            return kExitOk;
        }
        printUsage(stdout);
        return kExitOk;
    } catch (const UsageError& e) {
        std::fprintf(stderr, "clusterscope %s: %s\n", qPrintable(cmd), e.what());
        printUsage(stderr);
        return kExitBadInput;
    } catch (const InputException& e) {
        std::fprintf(stderr, "clusterscope %s: %s\n", qPrintable(cmd), e.what());
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "clusterscope %s: %s\n", qPrintable(cmd), e.what());
        return kExitIoError;
    }
}

} // namespace cs::app
