// The figures the pages state where they show a command and what it printed: every transcript
// in README.md and docs/ is run as written, and each line it shows must be in what the program
// prints today, in order. A transcript is a ```text block whose first line starts with "$ ";
// docs/dev/testing.md says how one is written.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <map>

namespace {

const QString kRoot = QStringLiteral(CS_SOURCE_DIR);

struct Step {
    QString command;     // as the page writes it, continuation lines joined
    QStringList printed; // the lines the page shows under it ("..." and blank ones left out)
};

struct Transcript {
    QString page; // relative to the repository
    int line = 0; // of the opening fence
    std::vector<Step> steps;
};

QString collapsed(const QString& s) {
    return s.simplified();
}

std::vector<Transcript> transcriptsOf(const QString& page) {
    QFile f(kRoot + "/" + page);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
    std::vector<Transcript> out;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        // A block may be indented under a list item: its lines lose the fence's indent.
        const qsizetype indent = lines[i].size() - lines[i].trimmed().size();
        auto unindented = [&](qsizetype k) { return lines[k].mid(indent); };
        if (lines[i].trimmed() != "```text" || i + 1 >= lines.size() ||
            !unindented(i + 1).startsWith("$ "))
            continue;
        Transcript t{page, int(i + 1), {}};
        for (++i; i < lines.size() && !lines[i].trimmed().startsWith("```"); ++i) {
            QString l = unindented(i);
            if (l.startsWith("$ ")) {
                QString command = l.mid(2);
                while (command.endsWith('\\') && i + 1 < lines.size())
                    command = command.chopped(1) + " " + lines[++i].trimmed();
                t.steps.push_back({command, {}});
            } else if (!l.trimmed().isEmpty() && l.trimmed() != "...") {
                t.steps.back().printed << l;
            }
        }
        out.push_back(t);
    }
    return out;
}

// A command line split as a shell would: words, "double-quoted" words, $NAME replaced, and a
// trailing "  # comment" dropped.
QStringList wordsOf(QString command, const std::map<QString, QString>& vars) {
    command.remove(QRegularExpression("\\s{2,}#.*$"));
    for (const auto& [name, value] : vars)
        command.replace("$" + name, value);
    QStringList words;
    QString word;
    bool quoted = false, any = false;
    for (QChar c : command) {
        if (c == '"') {
            quoted = !quoted, any = true;
        } else if (c.isSpace() && !quoted) {
            if (any) words << word;
            word.clear(), any = false;
        } else {
            word += c, any = true;
        }
    }
    if (any) words << word;
    return words;
}

} // namespace

class TestDocTranscripts : public QObject {
    Q_OBJECT
private slots:
    void transcriptsPrintWhatThePagesShow_data();
    void transcriptsPrintWhatThePagesShow();
};

void TestDocTranscripts::transcriptsPrintWhatThePagesShow_data() {
    QTest::addColumn<QString>("page");
    QTest::addColumn<int>("index");
    QStringList pages{"README.md"};
    QDirIterator it(kRoot + "/docs", {"*.md"}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        pages << QDir(kRoot).relativeFilePath(it.next());
    pages.sort();
    int total = 0;
    for (const QString& page : pages) {
        const auto ts = transcriptsOf(page);
        for (size_t k = 0; k < ts.size(); ++k, ++total)
            QTest::newRow(qPrintable(page + ":" + QString::number(ts[k].line))) << page << int(k);
    }
    QVERIFY2(total >= 4, "the pages' transcripts were not found");
}

void TestDocTranscripts::transcriptsPrintWhatThePagesShow() {
    QFETCH(QString, page);
    QFETCH(int, index);
    const Transcript t = transcriptsOf(page)[size_t(index)];
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    std::map<QString, QString> vars;
    for (const Step& step : t.steps) {
        static const QRegularExpression assignment("^([A-Z_]+)=\"(.*)\"$");
        if (const auto m = assignment.match(step.command); m.hasMatch()) {
            vars[m.captured(1)] = m.captured(2);
            continue;
        }
        QStringList words = wordsOf(step.command, vars);
        QVERIFY2(!words.isEmpty() && words.front() == "clusterscope",
                 qPrintable(page + ": not a clusterscope command: " + step.command));
        words.removeFirst();
        // Files the page names from the repository (a study, a real log) are read there;
        // what the commands write stays in the transcript's own folder.
        for (QString& w : words)
            if (!w.startsWith('-') && !QFile::exists(dir.filePath(w)) &&
                QFile::exists(kRoot + "/" + w))
                w = kRoot + "/" + w;
        QProcess p;
        p.setWorkingDirectory(dir.path());
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(CS_BINARY, words);
        QVERIFY(p.waitForFinished(180'000));
        const QString output = QString::fromUtf8(p.readAll());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                 qPrintable(step.command + "\n" + output));
        QStringList printed;
        for (const QString& l : output.split('\n'))
            printed << collapsed(l);
        // Each line the page shows, in its order, among the lines printed (pages may leave
        // rows out).
        qsizetype from = 0;
        for (const QString& shown : step.printed) {
            const qsizetype at = printed.indexOf(collapsed(shown), from);
            QVERIFY2(at >= 0,
                     qPrintable(QString("%1:%2: `%3` does not print\n  %4\nit printed:\n%5")
                                    .arg(page)
                                    .arg(t.line)
                                    .arg(step.command, shown, output)));
            from = at + 1;
        }
    }
}

QTEST_GUILESS_MAIN(TestDocTranscripts)
#include "tst_doc_transcripts.moc"
