#include "JsonPath.h"

namespace cs {

JsonPath JsonPath::child(const std::string& key) const {
    JsonPath p = *this;
    p.parts_.push_back({key, -1});
    return p;
}

JsonPath JsonPath::child(int index) const {
    JsonPath p = *this;
    p.parts_.push_back({{}, index});
    return p;
}

std::string JsonPath::toString() const {
    std::string s;
    for (const JsonPathPart& part : parts_) {
        if (part.index >= 0)
            s += "[" + std::to_string(part.index) + "]";
        else
            s += (s.empty() ? "" : ".") + part.key;
    }
    return s;
}

TextPosition positionOfOffset(const QByteArray& text, qsizetype offset) {
    TextPosition pos{1, 1};
    const qsizetype end = std::min(offset, text.size());
    qsizetype lineStart = 0;
    for (qsizetype i = 0; i < end; ++i)
        if (text[i] == '\n') {
            ++pos.line;
            lineStart = i + 1;
        }
    pos.column = int(end - lineStart) + 1;
    return pos;
}

namespace {

// A forward scanner over text that is already known to be valid JSON.
class Scanner {
public:
    explicit Scanner(const QByteArray& t) : s_(t.constData()), n_(t.size()) {}
    qsizetype pos() const { return i_; }
    void ws() {
        while (i_ < n_ && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
            ++i_;
    }
    char peek() const { return i_ < n_ ? s_[i_] : '\0'; }
    void take() { ++i_; }
    // Reads a string (at its opening quote) and returns its raw contents.
    std::string string() {
        std::string out;
        ++i_;
        while (i_ < n_ && s_[i_] != '"') {
            if (s_[i_] == '\\' && i_ + 1 < n_) out += s_[i_++];
            out += s_[i_++];
        }
        ++i_;
        return out;
    }
    void skipValue() {
        ws();
        if (peek() == '"') {
            string();
            return;
        }
        if (peek() != '{' && peek() != '[') {
            while (i_ < n_ && s_[i_] != ',' && s_[i_] != '}' && s_[i_] != ']' && s_[i_] != ' ' &&
                   s_[i_] != '\n' && s_[i_] != '\r' && s_[i_] != '\t')
                ++i_;
            return;
        }
        int depth = 0;
        do {
            const char c = s_[i_];
            if (c == '"') {
                string();
                continue;
            }
            if (c == '{' || c == '[') ++depth;
            if (c == '}' || c == ']') --depth;
            ++i_;
        } while (depth > 0 && i_ < n_);
    }

private:
    const char* s_;
    qsizetype n_;
    qsizetype i_ = 0;
};

// Moves the scanner onto the member `key` of the object it stands on; false if absent.
bool enterKey(Scanner& sc, const std::string& key) {
    if (sc.peek() != '{') return false;
    sc.take();
    for (;;) {
        sc.ws();
        if (sc.peek() != '"') return false;
        const std::string k = sc.string();
        sc.ws();
        sc.take(); // ':'
        sc.ws();
        if (k == key) return true;
        sc.skipValue();
        sc.ws();
        if (sc.peek() != ',') return false;
        sc.take();
    }
}

bool enterIndex(Scanner& sc, int index) {
    if (sc.peek() != '[') return false;
    sc.take();
    for (int i = 0;; ++i) {
        sc.ws();
        if (sc.peek() == ']') return false;
        if (i == index) return true;
        sc.skipValue();
        sc.ws();
        if (sc.peek() != ',') return false;
        sc.take();
    }
}

} // namespace

TextPosition locateJsonPath(const QByteArray& text, const JsonPath& path) {
    Scanner sc(text);
    sc.ws();
    qsizetype found = sc.pos();
    for (const JsonPathPart& part : path.parts()) {
        Scanner probe = sc;
        const bool ok = part.index >= 0 ? enterIndex(probe, part.index) : enterKey(probe, part.key);
        if (!ok) break;
        sc = probe;
        found = sc.pos();
    }
    return positionOfOffset(text, found);
}

} // namespace cs
