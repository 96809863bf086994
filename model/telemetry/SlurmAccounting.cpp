#include "SlurmAccounting.h"

#include "BoundedFileRead.h"
#include "InputError.h"

#include <QDateTime>
#include <QTimeZone>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace cs {
namespace {

constexpr qint64 kMaxSacctBytes = 64 * 1024 * 1024;
constexpr size_t kMaxJobs = 100000;

[[noreturn]] void fail(const std::string& file, int line, const std::string& field,
                       const std::string& why) {
    throw InputException({file, line, 0, field, why});
}

// "01-04" -> 01, 02, 03, 04 (the width of the first bound kept), "7" -> 7.
void expandRange(const std::string& prefix, const std::string& range, const std::string& suffix,
                 std::vector<std::string>& out) {
    const size_t dash = range.find('-');
    const std::string lo = range.substr(0, dash),
                      hi = dash == std::string::npos ? lo : range.substr(dash + 1);
    auto digits = [](const std::string& s) {
        return !s.empty() && s.size() <= 9 &&
               std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(uint8_t(c)); });
    };
    if (!digits(lo) || !digits(hi))
        throw InputException(
            {{}, 0, 0, "NodeList", "expected a range such as 01-04, got \"" + range + "\""});
    const long a = std::stol(lo), b = std::stol(hi);
    if (b < a)
        throw InputException({{}, 0, 0, "NodeList", "the range " + range + " runs backwards"});
    if (out.size() + size_t(b - a + 1) > kMaxHostListNames)
        throw InputException({{},
                              0,
                              0,
                              "NodeList",
                              "names more than " + std::to_string(kMaxHostListNames) + " hosts"});
    for (long n = a; n <= b; ++n) {
        std::string num = std::to_string(n);
        if (num.size() < lo.size()) num.insert(0, lo.size() - num.size(), '0');
        out.push_back(prefix + num + suffix);
    }
}

// What sacct prints for a time a job does not have (not started, still running).
bool noSlurmTime(const std::string& s) {
    return s.empty() || s == "Unknown" || s == "None";
}

std::optional<int64_t> slurmTimeNs(const std::string& s) {
    if (noSlurmTime(s)) return std::nullopt;
    QDateTime t = QDateTime::fromString(QString::fromStdString(s), Qt::ISODate);
    if (!t.isValid()) return std::nullopt;
    t.setTimeZone(QTimeZone::utc());
    return int64_t(t.toMSecsSinceEpoch()) * 1'000'000;
}

} // namespace

std::vector<std::string> expandHostList(const std::string& list) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < list.size()) {
        // One name: text, then at most one bracket of ranges (with text after it).
        size_t end = i;
        int depth = 0;
        while (end < list.size() && (depth > 0 || list[end] != ',')) {
            if (list[end] == '[') ++depth;
            if (list[end] == ']') --depth;
            if (depth < 0 || depth > 1)
                throw InputException(
                    {{}, 0, 0, "NodeList", "unbalanced brackets in \"" + list + "\""});
            ++end;
        }
        if (depth != 0)
            throw InputException({{}, 0, 0, "NodeList", "unbalanced brackets in \"" + list + "\""});
        const std::string name = list.substr(i, end - i);
        if (name.empty())
            throw InputException({{}, 0, 0, "NodeList", "an empty name in \"" + list + "\""});
        const size_t open = name.find('[');
        if (open == std::string::npos) {
            out.push_back(name);
        } else {
            const size_t close = name.find(']', open);
            const std::string prefix = name.substr(0, open), suffix = name.substr(close + 1);
            if (suffix.find('[') != std::string::npos)
                throw InputException(
                    {{}, 0, 0, "NodeList", "one bracket per name, got \"" + name + "\""});
            const std::string ranges = name.substr(open + 1, close - open - 1);
            size_t from = 0;
            while (from <= ranges.size()) {
                const size_t comma = std::min(ranges.find(',', from), ranges.size());
                expandRange(prefix, ranges.substr(from, comma - from), suffix, out);
                from = comma + 1;
            }
        }
        if (out.size() > kMaxHostListNames)
            throw InputException(
                {{},
                 0,
                 0,
                 "NodeList",
                 "names more than " + std::to_string(kMaxHostListNames) + " hosts"});
        i = end + 1;
    }
    return out;
}

SlurmJobsRead parseSacct(const QByteArray& text, const std::string& fileName, const Topology& t,
                         const TopologyIndex& ix, const SeriesMapping& names, int64_t originNs) {
    const QList<QByteArray> lines = text.split('\n');
    std::map<std::string, int> column;
    int lineNo = 0;
    SlurmJobsRead out;
    std::set<std::string> unknown;
    struct Job {
        std::set<int32_t> hosts;
        std::optional<int64_t> startNs, endNs;
    };
    std::map<std::string, Job> jobs;
    for (const QByteArray& raw : lines) {
        ++lineNo;
        const std::string line = raw.trimmed().toStdString();
        if (line.empty()) continue;
        std::vector<std::string> fields;
        size_t from = 0;
        while (from <= line.size()) {
            const size_t bar = std::min(line.find('|', from), line.size());
            fields.push_back(line.substr(from, bar - from));
            from = bar + 1;
        }
        if (column.empty()) {
            for (size_t k = 0; k < fields.size(); ++k)
                column[fields[k]] = int(k);
            for (const char* need : {"JobID", "NodeList", "Start", "End"})
                if (!column.count(need))
                    fail(fileName, lineNo, need,
                         "expected sacct --parsable2 output with the fields JobID, NodeList, "
                         "Start and End in its header (sacct -P -o JobID,NodeList,Start,End)");
            continue;
        }
        auto field = [&](const char* name) {
            const size_t k = size_t(column.at(name));
            return k < fields.size() ? fields[k] : std::string();
        };
        const std::string id = field("JobID");
        if (id.empty() || id.find('.') != std::string::npos) continue; // a job step
        if (id.size() > 256) fail(fileName, lineNo, "JobID", "expected at most 256 characters");
        if (!jobs.count(id) && jobs.size() >= kMaxJobs)
            fail(fileName, lineNo, "JobID", "more than " + std::to_string(kMaxJobs) + " jobs");
        std::vector<std::string> hostNames;
        const std::string nodes = field("NodeList");
        if (nodes != "None assigned" && !nodes.empty()) try {
                hostNames = expandHostList(nodes);
            } catch (const InputException& e) {
                fail(fileName, lineNo, "NodeList", e.error().message);
            }
        Job& j = jobs[id];
        for (const std::string& h : hostNames) {
            const auto renamed = names.names.find(h);
            const auto e = ix.find(renamed != names.names.end() ? renamed->second : h);
            if (e && e->kind == EntityKind::Host)
                j.hosts.insert(e->index);
            else if (unknown.size() < 20)
                unknown.insert(h);
        }
        const std::string start = field("Start"), end = field("End");
        j.startNs = slurmTimeNs(start);
        j.endNs = slurmTimeNs(end);
        if (!noSlurmTime(start) && !j.startNs)
            fail(fileName, lineNo, "Start",
                 "expected a time such as 2024-06-01T00:00:00, got \"" + start + "\"");
        if (!noSlurmTime(end) && !j.endNs)
            fail(fileName, lineNo, "End",
                 "expected a time such as 2024-06-01T00:00:00, got \"" + end + "\"");
    }
    if (column.empty())
        fail(fileName, 0, {}, "expected sacct --parsable2 output; the file is empty");
    for (const auto& [id, j] : jobs) {
        if (j.hosts.empty() || !j.startNs) continue; // never ran here
        RecordedJob r;
        r.name = id;
        for (int32_t h : j.hosts) {
            r.hosts.push_back(t.hosts[size_t(h)].name);
            for (int g = 0; g < t.hosts[size_t(h)].gpuCount; ++g)
                r.gpus.push_back(t.hosts[size_t(h)].firstGpu + g);
        }
        r.startS = double(*j.startNs - originNs) / 1e9;
        r.endS = j.endNs ? double(*j.endNs - originNs) / 1e9 : NAN;
        out.jobs.push_back(std::move(r));
    }
    out.unknownHosts.assign(unknown.begin(), unknown.end());
    return out;
}

SlurmJobsRead loadSacct(const QString& path, const Topology& t, const TopologyIndex& ix,
                        const SeriesMapping& names, int64_t originNs) {
    return parseSacct(readFileBounded(path, kMaxSacctBytes), path.toStdString(), t, ix, names,
                      originNs);
}

} // namespace cs
