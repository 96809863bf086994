#include "PromAnswerReader.h"

#include <nlohmann/json.hpp>

#include <array>
#include <streambuf>

namespace cs {
namespace {

using Json = nlohmann::json;

// nlohmann's SAX events, kept as a stack of what each open object or array is.
class Reader {
public:
    Reader(PromAnswer& answer, const std::function<bool(PromSeries&&)>& onSeries)
        : answer_(answer), onSeries_(onSeries) {}

    bool null() { return scalar(); }
    bool boolean(bool) { return scalar(); }
    bool number_integer(Json::number_integer_t v) { return number(double(v)); }
    bool number_unsigned(Json::number_unsigned_t v) { return number(double(v)); }
    bool number_float(Json::number_float_t v, const Json::string_t&) { return number(v); }
    bool binary(Json::binary_t&) { return scalar(); }

    bool string(Json::string_t& s) {
        if (stack_.empty()) return true;
        Frame& f = stack_.back();
        switch (f.what) {
        case What::Root:
            if (f.key == "status") answer_.status = s;
            if (f.key == "error") answer_.error = s;
            break;
        case What::Data:
            if (f.key == "resultType") answer_.resultType = s;
            break;
        case What::Metric:
            if (!keeping()) break;
            if (f.key == "__name__")
                series_.name = s;
            else
                series_.labels.emplace_back(f.key, std::move(s));
            break;
        case What::Pair:
            if (f.index == 1 && pairHasTime_) pairValue_ = std::move(s), pairHasValue_ = true;
            break;
        case What::Values:
            if (keeping()) ++series_.malformedPairs; // a string where a pair belongs
            break;
        default:
            break;
        }
        return element();
    }

    bool start_object(std::size_t) { return open(true); }
    bool key(Json::string_t& k) {
        stack_.back().key = std::move(k);
        return true;
    }
    bool end_object() {
        const What what = stack_.back().what;
        stack_.pop_back();
        if (what == What::Series && keeping()) {
            const bool go = onSeries_(std::move(series_));
            series_ = {};
            if (!go) {
                answer_.stopped = true;
                return false;
            }
        }
        return element();
    }
    bool start_array(std::size_t) {
        if (!open(false)) return false;
        if (stack_.back().what == What::Pair) pairHasTime_ = pairHasValue_ = false;
        return true;
    }
    bool end_array() {
        const Frame f = stack_.back();
        stack_.pop_back();
        if (f.what == What::Pair && keeping()) {
            if (f.index == 2 && pairHasTime_ && pairHasValue_)
                series_.values.emplace_back(pairTime_, std::move(pairValue_));
            else
                ++series_.malformedPairs;
        }
        return element();
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) {
        answer_.errorByte = position;
        return false;
    }

private:
    enum class What { Root, Data, Result, Series, Metric, Values, Pair, Other };
    struct Frame {
        What what;
        bool object;
        std::string key;  // an object's current key
        size_t index = 0; // an array's elements so far
    };

    bool keeping() const { return bool(onSeries_); }

    // What an object or array opened here is, from where it stands; false past the depth.
    bool open(bool object) {
        if (stack_.size() >= kMaxPromAnswerDepth) {
            answer_.tooDeep = true;
            return false;
        }
        What what = What::Other;
        if (stack_.empty()) {
            what = object ? What::Root : What::Other;
        } else {
            const Frame& p = stack_.back();
            if (p.what == What::Root && object && p.key == "data") what = What::Data;
            if (p.what == What::Data && !object && p.key == "result") what = What::Result;
            if (p.what == What::Result && object) what = What::Series;
            if (p.what == What::Series && object && p.key == "metric") what = What::Metric;
            if (p.what == What::Series && !object && p.key == "values") what = What::Values;
            if (p.what == What::Values && !object) what = What::Pair;
            if (p.what == What::Values && object && keeping()) ++series_.malformedPairs;
        }
        stack_.push_back({what, object, {}, 0});
        return true;
    }

    // A value ended in the innermost array: count it.
    bool element() {
        if (!stack_.empty() && !stack_.back().object) ++stack_.back().index;
        return true;
    }
    bool scalar() {
        if (!stack_.empty() && stack_.back().what == What::Values && keeping())
            ++series_.malformedPairs;
        return element();
    }
    bool number(double v) {
        if (!stack_.empty() && stack_.back().what == What::Pair && stack_.back().index == 0)
            pairTime_ = v, pairHasTime_ = true;
        else if (!stack_.empty() && stack_.back().what == What::Values && keeping())
            ++series_.malformedPairs;
        return element();
    }

    PromAnswer& answer_;
    const std::function<bool(PromSeries&&)>& onSeries_;
    std::vector<Frame> stack_;
    PromSeries series_;
    double pairTime_ = 0;
    std::string pairValue_;
    bool pairHasTime_ = false, pairHasValue_ = false;
};

} // namespace

PromAnswer readPromAnswer(const QByteArray& text,
                          const std::function<bool(PromSeries&&)>& onSeries) {
    PromAnswer answer;
    Reader reader(answer, onSeries);
    const bool read = Json::sax_parse(text.constBegin(), text.constEnd(), &reader);
    answer.validJson = read || (answer.stopped && !answer.tooDeep);
    return answer;
}

namespace {

// The bytes of a stream passed on until a run of them holds no string or number start for
// kMaxPromTokenBytes: the parser keeps everything since its last string or number for its
// messages, so such a run (padding, `[null,null,...]`, one huge string) would otherwise cost
// memory for the whole answer.
class TokenBound : public std::streambuf {
public:
    explicit TokenBound(std::streambuf* source) : source_(source) {}
    bool overran() const { return overran_; }

protected:
    int_type underflow() override {
        if (overran_ || source_->sgetc() == traits_type::eof()) return traits_type::eof();
        const std::streamsize n = source_->sgetn(
            buf_.data(),
            std::min<std::streamsize>(std::max<std::streamsize>(1, source_->in_avail()),
                                      std::streamsize(buf_.size())));
        std::streamsize kept = 0;
        for (; kept < n && !overran_; ++kept)
            see(buf_[size_t(kept)]);
        setg(buf_.data(), buf_.data(), buf_.data() + kept - (overran_ ? 1 : 0));
        return gptr() == egptr() ? traits_type::eof() : traits_type::to_int_type(*gptr());
    }

private:
    void see(char c) {
        if (inString_) {
            if (escaped_)
                escaped_ = false;
            else if (c == '\\')
                escaped_ = true;
            else if (c == '"')
                inString_ = false;
        } else if (c == '"') {
            inString_ = true, run_ = 0;
        } else {
            const bool numberChar = (c >= '0' && c <= '9') || c == '-';
            if (numberChar && !inNumber_) run_ = 0;
            inNumber_ = numberChar || (inNumber_ && (c == '.' || c == 'e' || c == 'E' || c == '+'));
        }
        if (++run_ > kMaxPromTokenBytes) overran_ = true;
    }

    std::streambuf* source_;
    std::array<char, 64 * 1024> buf_{};
    size_t run_ = 0;
    bool inString_ = false, escaped_ = false, inNumber_ = false, overran_ = false;
};

} // namespace

PromAnswer readPromAnswer(std::istream& in, const std::function<bool(PromSeries&&)>& onSeries) {
    PromAnswer answer;
    Reader reader(answer, onSeries);
    TokenBound bounded(in.rdbuf());
    std::istream boundedIn(&bounded);
    const bool read = Json::sax_parse(boundedIn, &reader);
    answer.tokenTooLong = bounded.overran();
    answer.validJson = !answer.tokenTooLong && (read || (answer.stopped && !answer.tooDeep));
    return answer;
}

} // namespace cs
