#pragma once
// A Prometheus HTTP API answer read without building a document: memory grows with the one
// series being read, not with the answer (a JSON document of a 100 MiB answer took 2 GB). The
// reader takes what ClusterScope uses (status, error, data.resultType, and each series of
// data.result with its labels and [seconds, "value"] pairs) and walks past everything else.
#include <QByteArray>

#include <functional>
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

struct PromAnswer {
    bool validJson = false;
    size_t errorByte = 0; // where the text stops being JSON
    bool tooDeep = false; // nested past kMaxPromAnswerDepth (validJson is false)
    std::string status, error, resultType;
    bool stopped = false; // onSeries asked to stop
};

// Reads `text`, handing each series of data.result to onSeries as its object ends (false
// from it stops the reading); without onSeries, series are skipped, not kept.
PromAnswer readPromAnswer(const QByteArray& text,
                          const std::function<bool(PromSeries&&)>& onSeries = {});

} // namespace cs
