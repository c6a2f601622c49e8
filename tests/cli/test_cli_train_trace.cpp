// SPDX-License-Identifier: GPL-3.0-or-later
// `train --trace FILE [--trace-steps N]`, `generate --trace FILE` and `train --dp N --trace FILE`
// under mpirun (issue 31): the files obey the Trace Event Format (tests/trace_event_format.h), hold
// the steps asked for (the first skipped when the run is longer), one process per rank with the
// collectives on their own thread row; bad flags and targets exit 2 naming the flag, before any step.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "../trace_event_format.h"
#include "cli_fixtures.h"
#include "cli_run.h"

#include <map>
#include <set>

using lse::test::Run;
using lse::test::runCli;
using lse::test::writeFile;
#ifdef LSE_MPIEXEC
using lse::test::runMpi;
#endif

namespace {

const QByteArray kConfig = lse::test::tinyTrainConfig(QStringLiteral("trace-tiny"), {4, 3, 1000});

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The names of the user_annotation ranges and the (pid, tid) pairs of the operator calls.
struct Summary {
    std::multiset<QString> annotations;
    std::set<std::pair<int, int>> op_threads;
    int ops = 0;
};

Summary summarise(const QByteArray &json)
{
    Summary s;
    for (const QJsonValue &v : QJsonDocument::fromJson(json).object().value("traceEvents").toArray()) {
        const QJsonObject e = v.toObject();
        if (e.value("ph").toString() != "X")
            continue;
        if (e.value("cat").toString() == "user_annotation")
            s.annotations.insert(e.value("name").toString());
        else if (e.value("cat").toString() == "cpu_op") {
            ++s.ops;
            s.op_threads.insert({e.value("pid").toInt(), e.value("tid").toInt()});
        }
    }
    return s;
}

}  // namespace

class TestCliTrainTrace : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const char *name) const { return dir_.filePath(QString::fromLatin1(name)); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        qputenv("LSE_CACHE_DIR", path("cache").toUtf8());
        QByteArray text;
        for (int i = 0; i < 60; ++i)
            text += "Once upon a time a little cat sat on a mat. The cat was happy.\n<|endoftext|>\n";
        writeFile(path("text.txt"), text);
        writeFile(path("config.json"), kConfig);
        const Run bpe = runCli({"train-bpe", "--input", path("text.txt"), "--vocab-size", "300", "--special", "<|endoftext|>",
                                "--out", path("bpe")});
        QVERIFY2(bpe.exit_code == 0, bpe.err.constData());
        const Run prep = runCli({"prepare-data", "--tokenizer", path("bpe"), "--input", path("text.txt"), "--out",
                                 path("ids.bin"), "--special", "<|endoftext|>"});
        QVERIFY2(prep.exit_code == 0, prep.err.constData());
    }

    void trainWritesTheStepsAskedFor()
    {
        const Run run = runCli({"train", "--config", path("config.json"), "--data", path("ids.bin"), "--checkpoint-dir",
                                path("ck"), "--trace", path("train.json"), "--trace-steps", "2"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QByteArray json = readAll(path("train.json"));
        const QStringList problems = lse::test::traceEventFormatProblems(json);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        const Summary s = summarise(json);
        // 3 steps, 2 traced: the first is skipped (cold caches).
        QCOMPARE(int(s.annotations.count("ProfilerStep#1")), 0);
        QCOMPARE(int(s.annotations.count("ProfilerStep#2")), 1);
        QCOMPARE(int(s.annotations.count("ProfilerStep#3")), 1);
        QCOMPARE(int(s.annotations.count("forward")), 2);
        QCOMPARE(int(s.annotations.count("backward")), 2);
        QCOMPARE(int(s.annotations.count("optimizer")), 2);
        QCOMPARE(s.op_threads, (std::set<std::pair<int, int>>{{0, 1}}));
        QVERIFY(QJsonDocument::fromJson(json).object().value("displayTimeUnit").toString() == "ms");
    }

    // The bundled tiny preset (2 layers, d_model 128, 4 heads of 32, SwiGLU d_ff 384, vocabulary
    // 2048, context 128) at batch 2: N = 256 tokens. Every matrix product's shape and 2·m·n·k by
    // hand, and the step's operator FLOPs equal the op profiler's flops_per_step (--json).
    void tinyPresetMatmulsByHand()
    {
        const Run run = runCli({"train", "--config", "tiny", "--data", path("ids.bin"), "--steps", "1", "--batch", "2",
                                "--threads", "1", "--json", "--trace", path("tiny.json")});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const double profiler_flops = QJsonDocument::fromJson(run.out).object().value("flops_per_step").toDouble();
        const QByteArray json = readAll(path("tiny.json"));
        const QStringList problems = lse::test::traceEventFormatProblems(json);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        struct Product {
            QString shape;
            double mnk;
        };
        const std::map<QString, Product> expected = {
            {"qkv_projection", {"[256, 128] x [128, 384]", 256.0 * 384 * 128}},
            {"attention_scores", {"[8, 128, 32] x [8, 32, 128]", 8.0 * 128 * 128 * 32}},
            {"attention_values", {"[8, 128, 128] x [8, 128, 32]", 8.0 * 128 * 32 * 128}},
            {"attention_output", {"[256, 128] x [128, 128]", 256.0 * 128 * 128}},
            {"mlp_up", {"[256, 128] x [128, 768]", 256.0 * 768 * 128}},
            {"mlp_down", {"[256, 384] x [384, 128]", 256.0 * 128 * 384}},
            {"lm_head", {"[256, 128] x [128, 2048]", 256.0 * 2048 * 128}},
        };
        int products = 0;
        double step_flops = 0;
        for (const QJsonValue &v : QJsonDocument::fromJson(json).object().value("traceEvents").toArray()) {
            const QJsonObject e = v.toObject();
            const QJsonObject args = e.value("args").toObject();
            if (e.value("cat").toString() != "cpu_op")
                continue;
            const QString phase = args.value("phase").toString();
            if (phase == "forward" || phase == "backward")
                step_flops += args.value("flops").toDouble();
            if (args.value("class").toString() != "matmul")
                continue;
            ++products;
            const auto it = expected.find(e.value("name").toString());
            QVERIFY2(it != expected.end(), qPrintable(e.value("name").toString()));
            QCOMPARE(args.value("shape").toString(), it->second.shape);
            QCOMPARE(args.value("flops").toDouble(), (phase == "forward" ? 2.0 : 4.0) * it->second.mnk);
        }
        QCOMPARE(products, 2 * 2 * 6 + 2);
        QVERIFY(profiler_flops > 0);
        QCOMPARE(step_flops, profiler_flops);
    }

    void generateWritesPrefillAndDecodeSteps()
    {
        QVERIFY(QFile::exists(path("ck/step_000003.safetensors")));
        const Run run = runCli({"generate", "--checkpoint", path("ck/step_000003.safetensors"), "--prompt-tokens", "4",
                                "--max-tokens", "8", "--temperature", "0", "--trace", path("generate.json")});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QByteArray json = readAll(path("generate.json"));
        const QStringList problems = lse::test::traceEventFormatProblems(json);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        const Summary s = summarise(json);
        QCOMPARE(int(s.annotations.count("prefill")), 1);
        QCOMPARE(int(s.annotations.count("decode")), 2);  // --trace-steps 3 by default: the prefill and 2 decode steps
        QCOMPARE(int(s.annotations.count("ProfilerStep#4")), 0);
    }

    void badFlagsExitTwoNamingTheFlag_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("flag");
        QTest::newRow("steps without trace") << QStringList{"--trace-steps", "2"} << "--trace-steps";
        QTest::newRow("zero steps") << QStringList{"--trace", "x.json", "--trace-steps", "0"} << "--trace-steps";
        QTest::newRow("too many steps") << QStringList{"--trace", "x.json", "--trace-steps", "5000"} << "--trace-steps";
        QTest::newRow("a device") << QStringList{"--trace", "/dev/null"} << "--trace";
        QTest::newRow("an input") << QStringList{"--trace", "CONFIG"} << "--trace";  // --config, read by both commands
        QTest::newRow("no folder") << QStringList{"--trace", "no/such/folder/t.json"} << "--trace";
    }
    void badFlagsExitTwoNamingTheFlag()
    {
        QFETCH(QStringList, flags);
        QFETCH(QString, flag);
        flags.replaceInStrings(QStringLiteral("CONFIG"), path("config.json"));
        const QByteArray before = readAll(path("config.json"));
        const Run run = runCli(QStringList{"train", "--config", path("config.json"), "--data", path("ids.bin")} + flags);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains(flag.toUtf8()), run.err.constData());
        QVERIFY(!run.err.contains("step 1/"));  // refused before any step
        QCOMPARE(readAll(path("config.json")), before);
        const Run generate = runCli(QStringList{"generate", "--config", path("config.json"), "--prompt-tokens", "2"} + flags);
        QCOMPARE(generate.exit_code, 2);
        QVERIFY2(generate.err.contains(flag.toUtf8()), generate.err.constData());
        QCOMPARE(readAll(path("config.json")), before);
    }

    void dataParallelRanksAsOneTrace()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        const Run run = runMpi(2, {"train", "--config", path("config.json"), "--data", path("ids.bin"), "--dp", "2",
                                   "--steps", "2", "--trace", path("dp.json")});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QByteArray json = readAll(path("dp.json"));
        const QStringList problems = lse::test::traceEventFormatProblems(json);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        const Summary s = summarise(json);
        // One process per rank: operators on tid 1, collectives on tid 2, both steps on both ranks.
        QCOMPARE(s.op_threads, (std::set<std::pair<int, int>>{{0, 1}, {0, 2}, {1, 1}, {1, 2}}));
        QCOMPARE(int(s.annotations.count("ProfilerStep#2")), 2);
        std::set<QString> process_names;
        for (const QJsonValue &v : QJsonDocument::fromJson(json).object().value("traceEvents").toArray())
            if (v.toObject().value("name").toString() == "process_name")
                process_names.insert(v.toObject().value("args").toObject().value("name").toString());
        QCOMPARE(process_names, (std::set<QString>{"rank 0", "rank 1"}));

        // Read back by `trace`: one rank per process, each with the collectives and bytes written
        // on its communication row (tid 2), the matrix multiplies with their FLOPs, no class unknown.
        std::map<int, std::pair<int, double>> written;  // rank → (calls, bytes)
        for (const QJsonValue &v : QJsonDocument::fromJson(json).object().value("traceEvents").toArray()) {
            const QJsonObject e = v.toObject();
            if (e.value("ph").toString() == "X" && e.value("tid").toInt() == 2) {
                ++written[e.value("pid").toInt()].first;
                written[e.value("pid").toInt()].second += e.value("args").toObject().value("bytes").toDouble();
            }
        }
        const Run imported = runCli({"trace", "--json", path("dp.json")});
        QVERIFY2(imported.exit_code == 0, imported.err.constData());
        const QJsonArray ranks = QJsonDocument::fromJson(imported.out).object().value("ranks").toArray();
        QCOMPARE(ranks.size(), 2);
        for (int r = 0; r < 2; ++r) {
            const QJsonObject rank = ranks.at(r).toObject();
            QCOMPARE(rank.value("rank").toInt(), r);
            const QJsonObject communication = rank.value("cpu_communication").toObject();
            QVERIFY(written[r].first > 0);
            QCOMPARE(communication.value("count").toInt(), written[r].first);
            QCOMPARE(communication.value("bytes").toDouble(), written[r].second);
            QVERIFY(rank.value("matmul_flops").toDouble() > 0);
            QCOMPARE(rank.value("classification").toObject().value("unknown_count").toInt(), 0);
            for (const QJsonValue &op : rank.value("operators").toArray())
                QVERIFY(op.toObject().value("class").toString() != "unknown");
        }
#endif
    }
};

QTEST_GUILESS_MAIN(TestCliTrainTrace)
#include "test_cli_train_trace.moc"
