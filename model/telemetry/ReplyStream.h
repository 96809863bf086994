#pragma once
// A network answer as a std::istream, read as its bytes arrive: a read past what has come
// waits in a local event loop for more, or for the answer's end. The reply's own buffer is
// capped, so a reader slower than the network holds back the sender instead of memory.
#include <QNetworkReply>

#include <array>
#include <streambuf>

namespace cs {

class ReplyStreamBuf : public std::streambuf {
public:
    static constexpr qint64 kReplyBufferBytes = 1 << 20;
    explicit ReplyStreamBuf(QNetworkReply* reply);

protected:
    int_type underflow() override;

private:
    QNetworkReply* reply_;
    std::array<char, 64 * 1024> buf_{};
};

} // namespace cs
