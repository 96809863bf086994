#pragma once
// Line-by-line reading of text formats with 1-based line numbers, and a cursor over one line
// for hand-written, allocation-free parsing (the foreign fabric formats).
#include <QByteArray>

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cs {

class LineReader {
public:
    explicit LineReader(const QByteArray& text) : text_(text.constData(), size_t(text.size())) {}
    // The next line without its end ("\n" or "\r\n"); false at the end of the text.
    bool next(std::string_view& line) {
        if (pos_ >= text_.size()) return false;
        size_t end = text_.find('\n', pos_);
        if (end == std::string_view::npos) end = text_.size();
        line = text_.substr(pos_, end - pos_);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        pos_ = end + 1;
        ++number_;
        return true;
    }
    int number() const { return number_; }

private:
    std::string_view text_;
    size_t pos_ = 0;
    int number_ = 0;
};

class TextCursor {
public:
    explicit TextCursor(std::string_view s) : s_(s) {}
    void skipSpace() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t'))
            ++i_;
    }
    bool atEnd() const { return i_ >= s_.size(); }
    char peek() const { return atEnd() ? '\0' : s_[i_]; }
    size_t column() const { return i_ + 1; }
    std::string_view rest() const { return s_.substr(std::min(i_, s_.size())); }
    bool eat(char c) {
        if (peek() != c) return false;
        ++i_;
        return true;
    }
    bool eat(std::string_view word) {
        if (s_.substr(i_, word.size()) != word) return false;
        i_ += word.size();
        return true;
    }
    // Unsigned decimal of at most 18 digits.
    std::optional<long long> integer() {
        size_t j = i_;
        long long v = 0;
        while (j < s_.size() && std::isdigit((unsigned char)s_[j]) && j - i_ < 18)
            v = v * 10 + (s_[j++] - '0');
        if (j == i_ || (j < s_.size() && std::isdigit((unsigned char)s_[j]))) return std::nullopt;
        i_ = j;
        return v;
    }
    std::optional<double> number() {
        const std::string_view r = rest();
        size_t n = 0;
        while (n < r.size() && (std::isdigit((unsigned char)r[n]) || r[n] == '.' || r[n] == 'e' ||
                                r[n] == 'E' || r[n] == '-' || r[n] == '+'))
            ++n;
        if (n == 0 || n > 40) return std::nullopt;
        const std::string digits(r.substr(0, n));
        char* end = nullptr;
        const double v = std::strtod(digits.c_str(), &end);
        if (end != digits.c_str() + n) return std::nullopt;
        i_ += n;
        return v;
    }
    // A token up to the next space or tab.
    std::string_view word() {
        const size_t j = i_;
        while (i_ < s_.size() && s_[i_] != ' ' && s_[i_] != '\t')
            ++i_;
        return s_.substr(j, i_ - j);
    }
    // "text" without escapes; nullopt when the quote is not closed.
    std::optional<std::string_view> quoted() {
        if (peek() != '"') return std::nullopt;
        const size_t close = s_.find('"', i_ + 1);
        if (close == std::string_view::npos) return std::nullopt;
        const std::string_view v = s_.substr(i_ + 1, close - i_ - 1);
        i_ = close + 1;
        return v;
    }
    // Characters while pred holds.
    template <typename Pred> std::string_view span(Pred pred) {
        const size_t j = i_;
        while (i_ < s_.size() && pred(s_[i_]))
            ++i_;
        return s_.substr(j, i_ - j);
    }

private:
    std::string_view s_;
    size_t i_ = 0;
};

// At most the first 60 characters of a line, for messages.
inline std::string excerpt(std::string_view line) {
    std::string s(line.substr(0, 60));
    for (char& c : s)
        if ((unsigned char)c < 0x20) c = ' ';
    return line.size() > 60 ? s + "..." : s;
}

} // namespace cs
