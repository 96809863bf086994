#pragma once
// A Prometheus HTTP API answer read without building a document: memory grows with the one
// series being read, not with the answer (a JSON document of a 100 MiB answer took 2 GB). The
// reader takes what ClusterScope uses (status, error, data.resultType, and each series of
// data.result with its labels and [seconds, "value"] pairs) and walks past everything else.
#include <QByteArray>

#include <functional>
#include <istream>
#include <string>
#include <utility>
#include <vector>

namespace cs {

struct PromSeries {
    std::string name;                                        // __name__; empty: none
    std::vector<std::pair<std::string, std::string>> labels; // in the answer's order
    std::vector<std::pair<double, std::string>> values;      // [seconds, "value"]
    int malformedPairs = 0; // entries of "values" that are not [number, string]
};

// Arrays and objects nest at most this deep (an answer nests 6): a text of brackets alone
// would otherwise cost a frame per bracket.
constexpr size_t kMaxPromAnswerDepth = 512;

// A stream's string, number, or run of other bytes between them, is at most this long (an
// answer's longest is a label value or an error message).
constexpr size_t kMaxPromTokenBytes = 1 << 20;

struct PromAnswer {
    bool validJson = false;
    size_t errorByte = 0;      // where the text stops being JSON
    bool tooDeep = false;      // nested past kMaxPromAnswerDepth (validJson is false)
    bool tokenTooLong = false; // a stream's token past kMaxPromTokenBytes (validJson is false)
    std::string status, error, resultType;
    bool stopped = false; // onSeries asked to stop
};

// Reads `text`, handing each series of data.result to onSeries as its object ends (false
// from it stops the reading); without onSeries, series are skipped, not kept.
PromAnswer readPromAnswer(const QByteArray& text,
                          const std::function<bool(PromSeries&&)>& onSeries = {});
// The same over a stream, read as its bytes come (a network answer as it arrives): nothing
// of the answer is held but the series being read. The stream is read to its end unless
// the reading stops early.
PromAnswer readPromAnswer(std::istream& in, const std::function<bool(PromSeries&&)>& onSeries = {});

// An answer that is read when asked (a request made then): each series to onSeries as it
// comes; `restart` before each new try, so that what an earlier try handed on is dropped.
using PromAnswerRead = std::function<PromAnswer(const std::function<bool(PromSeries&&)>& onSeries,
                                                const std::function<void()>& restart)>;

} // namespace cs
