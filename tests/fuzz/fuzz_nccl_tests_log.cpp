// nccl-tests logs (`collective --log`, File > Import nccl-tests Log): the fuzzed text parsed as
// a log and, where it reads, simulated at its sizes on small-256 and compared row by row, as
// the command does.
#include "CollectiveBench.h"
#include "CollectiveRun.h"
#include "FuzzSupport.h"
#include "InputError.h"
#include "NcclTestsLog.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const cs::NcclTestsLog log = cs::parseNcclTestsLog(text, "log.txt");
        const auto op = cs::benchOpOfLog(log.op);
        if (!op || log.rows.empty()) return 0;
        cs::CollectiveRequest r;
        r.op = *op;
        r.gpus = log.ranks > 1 ? log.ranks : 16;
        r.perHost = log.gpusPerHost();
        r.sizes = cs::logSizes(log);
        const cs::TopologyDocument& doc = fuzz::smallTopology();
        const cs::BenchResult b = cs::runCollective(doc.topology(), doc.index(), r);
        (void)cs::compareWithLog(log, b);
    } catch (const cs::InputException&) {
    }
    return 0;
}
