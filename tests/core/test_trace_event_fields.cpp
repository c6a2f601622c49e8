// SPDX-License-Identifier: GPL-3.0-or-later
// The purpose-built event reader (core/traces/trace_event_fields.h) against QJsonDocument: the
// same TraceRank, field by field, on every committed trace and every input of the fuzz corpus
// (or the same problems when refused), and on events written to sit at the edges of JSON: escapes
// and surrogate pairs, \u0000, lone surrogates, noncharacters, raw control characters, duplicate
// keys, overflowing numbers, "1.", quoted timestamps, nulls and odd types where shapes are read.
// The reader's own answers are checked by hand (what it decodes, where it gives up).

#include "traces/trace_event_fields.h"
#include "traces/trace_loader.h"
#include "trace_edge_events.h"
#include "trace_test_events.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTest>

#include <cmath>
#include <vector>

using namespace lse;
using namespace lse::traces;

namespace {

TraceLoadOptions generalPath()
{
    TraceLoadOptions options;
    options.fast_event_parser = false;
    return options;
}

// Both paths on the same bytes: equal ranks, or equal problems.
void compareBothPaths(std::string_view bytes, const QString &what)
{
    const Result<TraceRank> fast = parseTrace(bytes, "t.json");
    const Result<TraceRank> general = parseTrace(bytes, "t.json", generalPath());
    QVERIFY2(fast.ok() == general.ok(), qPrintable(what + QStringLiteral(": one path refused, the other not: ")
                                                   + QString::fromStdString(formatProblems(fast.ok() ? general.problems()
                                                                                                    : fast.problems()))));
    if (!fast.ok()) {
        QCOMPARE(formatProblems(fast.problems()), formatProblems(general.problems()));
        return;
    }
    QVERIFY2(fast.value() == general.value(), qPrintable(what + QStringLiteral(": the ranks differ")));
}

std::string traceOf(const QStringList &events) { return test::traceJson(events); }


}  // namespace

class TestTraceEventFields : public QObject {
    Q_OBJECT
private slots:
    void committedTracesGiveTheSameRank()
    {
        QDirIterator files(QStringLiteral(LSE_TEST_DATA_DIR "/traces"), {QStringLiteral("*.json.gz")}, QDir::Files,
                           QDirIterator::Subdirectories);
        int compared = 0;
        while (files.hasNext()) {
            const std::string path = files.next().toStdString();
            const Result<TraceRank> fast = loadTrace(path);
            const Result<TraceRank> general = loadTrace(path, generalPath());
            QVERIFY2(fast.ok() && general.ok(), path.c_str());
            QVERIFY2(fast.value() == general.value(), path.c_str());
            QVERIFY(!fast->kernels.empty() || !fast->cpu_ops.empty());
            ++compared;
        }
        QCOMPARE(compared, 8);
    }

    void fuzzCorpusGivesTheSameAnswer()
    {
        QDirIterator files(QStringLiteral(LSE_SOURCE_DIR "/tests/fuzz/corpus/trace"), QDir::Files);
        int compared = 0;
        while (files.hasNext()) {
            QFile file(files.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray bytes = file.readAll();
            compareBothPaths(std::string_view(bytes.constData(), std::size_t(bytes.size())), file.fileName());
            ++compared;
        }
        QVERIFY(compared > 100);
    }

    void edgeCasesGiveTheSameAnswer()
    {
        using test::cpuOpEvent;
        using test::kernelEvent;
        using test::launchEvent;
        const QStringList events = test::edgeTraceEvents();
        for (const QString &event : events)
            compareBothPaths(traceOf({event, kernelEvent("ampere_sgemm_128x64_nn", 5, 3, 3),
                                      launchEvent(0.5, 3), cpuOpEvent("aten::mm", 0, 4)}),
                             event);
        // Invalid UTF-8 and an encoded surrogate (ED A0 80) in a name.
        for (const char *bytes : {"\xff", "\xed\xa0\x80", "\xc0\xaf", "\xef\xbf\xbe", "\xf4\x90\x80\x80"}) {
            compareBothPaths(test::traceWithNameBytes(bytes), QStringLiteral("raw bytes"));
        }
    }

    void readerDecodesAndGivesUp()
    {
        TraceEventFields f;
        QVERIFY(readTraceEventFields(
            test::kDecodedTraceEvent, f));
        QCOMPARE(jsonTokenString(f.name), std::string("a\xc3\xa9\xf0\x9f\x98\x80/b"));
        double ts = 1;
        QVERIFY(jsonTokenNumber(f.ts, ts));
        QVERIFY(ts == 0 && !std::signbit(ts));  // QJsonValue keeps "-0" as the integer 0
        QVERIFY(f.input_dims.is(JsonToken::Kind::Array));
        QVERIFY(f.args.is(JsonToken::Kind::Object));
        QCOMPARE(f.args.text.front(), '{');
        QCOMPARE(f.args.text.back(), '}');
        QVERIFY(f.ph.absent());
        JsonArrayElements shapes(f.input_dims);
        JsonToken shape, extent;
        QVERIFY(shapes.next(shape));
        QVERIFY(!shapes.next(shape));
        JsonArrayElements extents(shape);
        QVERIFY(extents.next(extent) && extent.text == "1");
        QVERIFY(extents.next(extent) && extent.text == "2");
        QVERIFY(!extents.next(extent));
        for (const char *refused : test::refusedTraceEvents()) {
            QVERIFY2(!readTraceEventFields(refused, f), refused);
        }
        // Repeated keys the importer does not read are fine.
        QVERIFY(readTraceEventFields(test::kRepeatedUnreadKeysEvent, f));
    }
};

QTEST_GUILESS_MAIN(TestTraceEventFields)
#include "test_trace_event_fields.moc"
