#include "NcclTestsLog.h"

#include "BoundedFileRead.h"
#include "InputError.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>

namespace cs {
namespace {

std::string lower(std::string s) {
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::vector<std::string> tokens(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string t; in >> t;)
        out.push_back(t);
    return out;
}

bool isNumber(const std::string& t, double* value = nullptr) {
    if (t.empty()) return false;
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size() || !std::isfinite(v)) return false;
    if (value) *value = v;
    return true;
}

bool isInteger(const std::string& t) {
    return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return std::isdigit(c); });
}

// The text after what a launcher puts before each line: Open MPI's "[1,0]<stdout>:", srun -l's
// "0: ", pdsh's "node1: ". A line of the table itself starts with spaces, digits or '#'.
std::string withoutPrefix(const std::string& line) {
    size_t i = 0;
    if (!line.empty() && line[0] == '[') { // [1,0]<stdout>: or [rank0]:
        const size_t close = line.find(']');
        if (close != std::string::npos) {
            size_t colon = line.find(':', close);
            if (colon != std::string::npos && colon - close <= 9) i = colon + 1;
        }
    } else {
        size_t j = 0;
        while (j < line.size() && line[j] == ' ')
            ++j;
        size_t k = j;
        while (k < line.size() && (std::isalnum(static_cast<unsigned char>(line[k])) ||
                                   line[k] == '.' || line[k] == '-' || line[k] == '_'))
            ++k;
        // "0: ..." or "host-1: ...": a word, a colon and a space (a row has no colon).
        if (k > j && k + 1 < line.size() && line[k] == ':' && line[k + 1] == ' ') i = k + 1;
    }
    return line.substr(i);
}

[[noreturn]] void fail(const std::string& file, int line, const std::string& message) {
    throw InputException({file, line, 0, {}, message});
}

// Where each quantity sits in a row, from the table's header line.
struct Columns {
    size_t count = 0; // tokens in a full row
    int size = -1, elements = -1, type = -1, redop = -1, root = -1;
    int time[2] = {-1, -1}, algbw[2] = {-1, -1}, busbw[2] = {-1, -1};
    std::vector<std::string> names;
};

std::optional<Columns> headerColumns(const std::vector<std::string>& raw) {
    std::vector<std::string> names;
    for (const std::string& t : raw)
        if (t != "#")
            names.push_back(lower(t[0] == '#' && t.size() > 1 && t != "#wrong" ? t.substr(1) : t));
    auto at = [&](const std::string& n) {
        const auto it = std::find(names.begin(), names.end(), n);
        return it == names.end() ? -1 : int(it - names.begin());
    };
    Columns c;
    c.size = at("size");
    c.elements = at("count");
    if (c.size != 0 || c.elements != 1) return std::nullopt;
    c.type = at("type");
    c.redop = at("redop");
    c.root = at("root");
    int seen[3] = {0, 0, 0};
    for (size_t i = 0; i < names.size(); ++i) {
        const std::string& n = names[i];
        int* slot = n == "time"    ? c.time
                    : n == "algbw" ? c.algbw
                    : n == "busbw" ? c.busbw
                                   : nullptr;
        const int k = n == "time" ? 0 : n == "algbw" ? 1 : 2;
        if (slot && seen[k] < 2) slot[seen[k]++] = int(i);
    }
    if (c.time[0] < 0 || c.algbw[0] < 0 || c.busbw[0] < 0) return std::nullopt;
    c.count = names.size();
    c.names = std::move(names);
    return c;
}

} // namespace

NcclTestsLog parseNcclTestsLog(const std::string& text, const std::string& file) {
    NcclTestsLog log;
    log.file = file;
    std::optional<Columns> cols;
    bool tableDone = false;
    std::istringstream in(text);
    int lineNo = 0;
    for (std::string raw; std::getline(in, raw);) {
        ++lineNo;
        if (!raw.empty() && raw.back() == '\r') raw.pop_back();
        const std::string line = withoutPrefix(raw);
        const std::vector<std::string> tok = tokens(line);
        if (tok.empty()) continue;
        const std::string low = lower(line);
        if (tok[0][0] == '#') {
            if (const size_t p = low.find("collective test starting:"); p != std::string::npos) {
                std::string name = tokens(line.substr(p + 25)).empty()
                                       ? std::string()
                                       : tokens(line.substr(p + 25)).front();
                if (name.size() > 5 && name.ends_with("_perf")) name.resize(name.size() - 5);
                if (log.op.empty()) log.op = name;
                continue;
            }
            // "#  Rank  3 Group  0 Pid 1234 on host1 device  3 [0x..] NVIDIA H100 80GB HBM3"
            if (tok.size() >= 5 && lower(tok[1]) == "rank" && isInteger(tok[2]) && !cols) {
                ++log.ranks;
                const auto on = std::find(tok.begin(), tok.end(), "on");
                if (on != tok.end() && on + 1 != tok.end() &&
                    std::find(log.hosts.begin(), log.hosts.end(), *(on + 1)) == log.hosts.end())
                    log.hosts.push_back(*(on + 1));
                if (log.gpu.empty())
                    if (const size_t b = line.find(']', line.find('[')); b != std::string::npos) {
                        std::string g = line.substr(b + 1);
                        g.erase(0, g.find_first_not_of(' '));
                        log.gpu = g;
                    }
                continue;
            }
            if (const size_t p = low.find("avg bus bandwidth"); p != std::string::npos) {
                const size_t colon = line.find(':', p);
                double v = 0;
                if (colon != std::string::npos && !tokens(line.substr(colon + 1)).empty() &&
                    isNumber(tokens(line.substr(colon + 1)).front(), &v))
                    log.avgBusbwGBs = v;
                if (cols) tableDone = true;
                continue;
            }
            if (!cols && low.find("size") != std::string::npos &&
                low.find("count") != std::string::npos)
                cols = headerColumns(tok);
            else if (cols && !log.rows.empty() && low.find("out of bounds") != std::string::npos)
                tableDone = true;
            continue;
        }
        if (tok[0] == "NCCL" && tok.size() >= 3 && lower(tok[1]) == "version" &&
            log.ncclVersion.empty()) {
            log.ncclVersion = tok[2];
            continue;
        }
        // A row: two integers first (size and count), after the table's header.
        if (!cols || tableDone || tok.size() < 2 || !isInteger(tok[0]) || !isInteger(tok[1]))
            continue;
        const Columns& c = *cols;
        const size_t half = size_t(c.time[1] > 0 ? c.time[1] : int(c.count));
        if (tok.size() != c.count && tok.size() != half)
            fail(
                file, lineNo,
                "expected a row of " + std::to_string(c.count) +
                    " columns as the header names them (" +
                    [&] {
                        std::string s;
                        for (const std::string& n : c.names)
                            s += (s.empty() ? "" : " ") + n;
                        return s;
                    }() +
                    "), got " + std::to_string(tok.size()));
        NcclTestsRow r;
        r.line = lineNo;
        auto number = [&](int col, const char* what) {
            double v = 0;
            // A header that names its columns out of order can point past a short row.
            if (size_t(col) >= tok.size())
                fail(file, lineNo,
                     std::string("expected ") + what + " in column " + std::to_string(col + 1) +
                         ", as the header names it; the row has " + std::to_string(tok.size()));
            if (!isNumber(tok[size_t(col)], &v) || v < 0)
                fail(file, lineNo,
                     std::string("expected ") + what + " as a number of 0 or more in column " +
                         std::to_string(col + 1) + ", got \"" + tok[size_t(col)] + "\"");
            return v;
        };
        r.bytes = number(c.size, "the size in bytes");
        r.count = number(c.elements, "the count of elements");
        if (c.type >= 0 && size_t(c.type) < tok.size()) r.type = tok[size_t(c.type)];
        if (c.redop >= 0 && size_t(c.redop) < tok.size()) r.redop = tok[size_t(c.redop)];
        if (c.root >= 0 && size_t(c.root) < tok.size()) {
            double root = 0;
            if (isNumber(tok[size_t(c.root)], &root) && std::fabs(root) < 1e9) r.root = int(root);
        }
        r.timeUs = number(c.time[0], "the out-of-place time in us");
        r.algbwGBs = number(c.algbw[0], "the out-of-place algbw in GB/s");
        r.busbwGBs = number(c.busbw[0], "the out-of-place busbw in GB/s");
        if (tok.size() == c.count && c.time[1] > 0 && c.algbw[1] > 0 && c.busbw[1] > 0) {
            r.inPlaceTimeUs = number(c.time[1], "the in-place time in us");
            r.inPlaceAlgbwGBs = number(c.algbw[1], "the in-place algbw in GB/s");
            r.inPlaceBusbwGBs = number(c.busbw[1], "the in-place busbw in GB/s");
        }
        log.rows.push_back(std::move(r));
    }
    // Without nccl-tests' own header, the op from the command line that ran it ("all_reduce_perf").
    if (log.op.empty())
        if (const size_t p = text.find("_perf"); p != std::string::npos) {
            size_t b = p;
            while (b > 0 &&
                   (std::islower(static_cast<unsigned char>(text[b - 1])) || text[b - 1] == '_'))
                --b;
            log.op = text.substr(b, p - b);
        }
    if (log.op.empty() && !log.rows.empty() && log.ranks > 0) {
        // The table says it: a reduction without a root over the whole buffer is an
        // all-reduce, over a rank's share a reduce-scatter; a root reduces or broadcasts.
        const NcclTestsRow& r = log.rows.back();
        const bool whole = std::fabs(r.count * 4 - r.bytes) < 1;
        const bool share = std::fabs(r.count * 4 * log.ranks - r.bytes) < 1;
        if (r.redop != "none" && !r.redop.empty())
            log.op = r.root >= 0 ? "reduce" : whole ? "all_reduce" : share ? "reduce_scatter" : "";
        else if (r.root >= 0)
            log.op = "broadcast";
    }
    if (log.rows.empty())
        fail(file, 0,
             cols ? "the table of sizes has no rows"
                  : "expected nccl-tests output: a header line \"# size count type ... time algbw "
                    "busbw\" and rows of numbers under it");
    return log;
}

NcclTestsLog readNcclTestsLog(const std::string& path) {
    const QByteArray bytes = readFileBounded(QString::fromStdString(path), kMaxNcclTestsLogBytes);
    return parseNcclTestsLog(bytes.toStdString(), path);
}

std::vector<double> logSizes(const NcclTestsLog& log) {
    std::vector<double> sizes;
    for (const NcclTestsRow& x : log.rows)
        if (sizes.empty() || x.bytes > sizes.back()) sizes.push_back(x.bytes);
    return sizes;
}

} // namespace cs
