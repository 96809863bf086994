#include "ReplyStream.h"

#include <QEventLoop>

namespace cs {

ReplyStreamBuf::ReplyStreamBuf(QNetworkReply* reply) : reply_(reply) {
    reply_->setReadBufferSize(kReplyBufferBytes);
}

ReplyStreamBuf::int_type ReplyStreamBuf::underflow() {
    for (;;) {
        if (!reply_->isOpen()) return traits_type::eof(); // aborted
        const qint64 n = reply_->read(buf_.data(), qint64(buf_.size()));
        if (n > 0) {
            setg(buf_.data(), buf_.data(), buf_.data() + n);
            return traits_type::to_int_type(buf_[0]);
        }
        if (n < 0 || reply_->isFinished()) return traits_type::eof();
        // Nothing yet: wait for bytes or the end (an abort by a deadline ends it too). One
        // thread: neither can come between the check above and the wait.
        QEventLoop wait;
        QObject::connect(reply_, &QNetworkReply::readyRead, &wait, &QEventLoop::quit);
        QObject::connect(reply_, &QNetworkReply::finished, &wait, &QEventLoop::quit);
        wait.exec();
    }
}

} // namespace cs
