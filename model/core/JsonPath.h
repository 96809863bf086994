#pragma once
// A place inside a JSON document, as keys and array indices ("explicit.links[12].gbps"), and
// the way back from it to a line and column of the text the document was parsed from
// (Qt's JSON values do not keep their positions).
#include <QByteArray>

#include <string>
#include <vector>

namespace cs {

struct JsonPathPart {
    std::string key; // empty for an array index
    int index = -1;
};

class JsonPath {
public:
    JsonPath() = default;
    JsonPath child(const std::string& key) const;
    JsonPath child(int index) const;
    std::string toString() const;
    const std::vector<JsonPathPart>& parts() const { return parts_; }

private:
    std::vector<JsonPathPart> parts_;
};

struct TextPosition {
    int line = 0; // 1-based
    int column = 0;
};

TextPosition positionOfOffset(const QByteArray& text, qsizetype offset);
// Where the value at `path` starts in `text` (a document known to parse). Where the path
// leaves the document (a missing key), the deepest value that exists is named instead.
TextPosition locateJsonPath(const QByteArray& text, const JsonPath& path);

} // namespace cs
