// SPDX-License-Identifier: GPL-3.0-or-later
// The reference transformer's steps as Chrome-trace JSON (issue 31, core/reference/op_trace.h and
// chrome_trace_writer.h): the files obey the Trace Event Format (tests/trace_event_format.h, whose
// checker is itself shown to refuse broken files), every matrix product of the tiny model carries
// the shape and the 2·m·n·k FLOPs a hand count gives, a step's operator FLOPs sum to what the op
// profiler counts, generation steps and the data-parallel ranks (one process each, collectives on
// their own thread row) come out whole, and the text gather that brings the ranks' events to rank 0
// returns every rank's bytes.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "../trace_event_format.h"
#include "reference_fixtures.h"

#include "distributed/data_parallel_trainer.h"
#include "distributed/text_gather.h"
#include "distributed/thread_group.h"
#include "reference/batch_generation.h"
#include "reference/chrome_trace_writer.h"
#include "reference/op_trace.h"
#include "reference/token_data.h"
#include "reference/trainer.h"

#include <map>
#include <memory>
#include <set>

using namespace lse;
using namespace lse::reference;

namespace {

QJsonArray eventsOf(const std::string &document)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(document)).object().value("traceEvents").toArray();
}

QJsonArray completeEvents(const QJsonArray &events, const QString &cat)
{
    QJsonArray out;
    for (const QJsonValue &v : events)
        if (v.toObject().value("ph").toString() == "X" && v.toObject().value("cat").toString() == cat)
            out.append(v);
    return out;
}

QString dims(std::int64_t batch, std::int64_t a, std::int64_t b)
{
    return batch > 1 ? QStringLiteral("[%1, %2, %3]").arg(batch).arg(a).arg(b) : QStringLiteral("[%1, %2]").arg(a).arg(b);
}

}  // namespace

class TestChromeTrace : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string data_;

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        data_ = dir_.filePath(QStringLiteral("tokens.bin")).toStdString();
        QVERIFY(writeTokenFile(data_, test::repetitiveCorpus(4000), TokenDtype::U16).ok());
    }

    // The checker must be able to fail: each broken document breaks one rule.
    void checkerRefusesBrokenTraces_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<bool>("valid");
        const QByteArray x = R"({"ph":"X","cat":"cpu_op","name":"a","pid":0,"tid":1,"ts":10,"dur":5,"args":{}})";
        QTest::newRow("minimal") << QByteArray(R"({"traceEvents":[)" + x + "]}") << true;
        QTest::newRow("nested") << QByteArray(R"({"traceEvents":[)" + x
                                              + R"(,{"ph":"X","cat":"c","name":"b","pid":0,"tid":1,"ts":11,"dur":2}]})")
                                << true;
        QTest::newRow("other thread may overlap")
            << QByteArray(R"({"traceEvents":[)" + x + R"(,{"ph":"X","cat":"c","name":"b","pid":0,"tid":2,"ts":12,"dur":9}]})")
            << true;
        QTest::newRow("partial overlap")
            << QByteArray(R"({"traceEvents":[)" + x + R"(,{"ph":"X","cat":"c","name":"b","pid":0,"tid":1,"ts":12,"dur":9}]})")
            << false;
        QTest::newRow("no traceEvents") << QByteArray(R"({"events":[]})") << false;
        QTest::newRow("negative dur")
            << QByteArray(R"({"traceEvents":[{"ph":"X","cat":"c","name":"a","pid":0,"tid":1,"ts":1,"dur":-1}]})") << false;
        QTest::newRow("ts a string")
            << QByteArray(R"({"traceEvents":[{"ph":"X","cat":"c","name":"a","pid":0,"tid":1,"ts":"1","dur":1}]})") << false;
        QTest::newRow("no pid") << QByteArray(R"({"traceEvents":[{"ph":"X","cat":"c","name":"a","tid":1,"ts":1,"dur":1}]})")
                                << false;
        QTest::newRow("no cat") << QByteArray(R"({"traceEvents":[{"ph":"X","name":"a","pid":0,"tid":1,"ts":1,"dur":1}]})")
                                << false;
        QTest::newRow("unknown metadata")
            << QByteArray(R"({"traceEvents":[{"ph":"M","name":"process_colour","pid":0,"tid":0,"args":{}}]})") << false;
        QTest::newRow("process_name without a name")
            << QByteArray(R"({"traceEvents":[{"ph":"M","name":"process_name","pid":0,"tid":0,"args":{}}]})") << false;
        QTest::newRow("bad time unit") << QByteArray(R"({"traceEvents":[],"displayTimeUnit":"s"})") << false;
    }
    void checkerRefusesBrokenTraces()
    {
        QFETCH(QByteArray, json);
        QFETCH(bool, valid);
        const QStringList problems = test::traceEventFormatProblems(json);
        QCOMPARE(problems.isEmpty(), valid);
    }

    void trainingStepsAsTrace()
    {
        const TrainConfig config = test::tinyTrainConfig(data_);
        auto created = Trainer::create(config);
        QVERIFY2(created.ok(), formatProblems(created.problems()).c_str());
        Trainer &trainer = *created.value();
        OpTraceLog log(traceCapacityForSteps(config.model.n_layers, 2));
        trainer.model().profiler().setTrace(&log);
        std::map<int, double> profiler_flops;  // per step, as the op profiler counts them
        for (int i = 0; i < 2; ++i) {
            Result<StepReport> report = trainer.step();
            QVERIFY(report.ok());
            profiler_flops[report->step] = report->flops;
        }
        trainer.model().profiler().setTrace(nullptr);
        QCOMPARE(log.dropped(), 0);
        const std::string document =
            chromeTraceDocument({chromeTraceProcessEvents(log, 0, "test")}, {{"producer", "test_chrome_trace"}});
        const QStringList problems = test::traceEventFormatProblems(QByteArray::fromStdString(document));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));

        const QJsonArray events = eventsOf(document);
        std::set<QString> annotations;
        for (const QJsonValue &v : completeEvents(events, "user_annotation"))
            annotations.insert(v.toObject().value("name").toString());
        for (const char *name : {"ProfilerStep#1", "ProfilerStep#2", "forward", "backward", "optimizer"})
            QVERIFY2(annotations.count(QString::fromLatin1(name)), name);

        // Hand counts for the tiny model: N = 4·16 tokens, d_model 32, 4 heads of 8 (Q = K = V = 32),
        // SwiGLU up-projection 2·64 wide, d_ff 64, vocabulary 16.
        const std::int64_t N = 64, D = 32, W = 96, Q = 32, up = 128, F = 64, V = 16, BH = 16, t = 16, Dh = 8;
        struct Product {
            std::int64_t batch, m, n, k;
            bool weight;
        };
        const std::map<QString, Product> products = {
            {"qkv_projection", {1, N, W, D, true}},       {"attention_scores", {BH, t, t, Dh, false}},
            {"attention_values", {BH, t, Dh, t, false}},  {"attention_output", {1, N, D, Q, true}},
            {"mlp_up", {1, N, up, D, true}},              {"mlp_down", {1, N, D, F, true}},
            {"lm_head", {1, N, V, D, true}},
        };
        std::map<int, double> event_flops;
        int matmuls = 0;
        for (const QJsonValue &v : completeEvents(events, "cpu_op")) {
            const QJsonObject e = v.toObject();
            const QJsonObject args = e.value("args").toObject();
            const QString phase = args.value("phase").toString();
            if (phase == "forward" || phase == "backward")
                event_flops[args.value("step").toInt()] += args.value("flops").toDouble();
            if (args.value("class").toString() != "matmul")
                continue;
            ++matmuls;
            const QString name = e.value("name").toString();
            QVERIFY2(products.count(name), qPrintable(name));
            const Product &p = products.at(name);
            QCOMPARE(args.value("shape").toString(), dims(p.batch, p.m, p.k) + " x " + dims(p.batch, p.k, p.n));
            const double mnk2 = 2.0 * double(p.batch * p.m * p.n * p.k);
            QCOMPARE(args.value("flops").toDouble(), phase == "forward" ? mnk2 : 2 * mnk2);
            const QJsonArray inputDims = args.value("Input Dims").toArray();
            QCOMPARE(inputDims.size(), 2);
            QCOMPARE(inputDims[0].toArray().last().toInteger(), p.k);
            QCOMPARE(inputDims[1].toArray().last().toInteger(), p.n);
            if (phase == "forward") {
                // fp32: reads [m, k] and the weight [k, n] once (or b·k·n), writes [m, n].
                const double right = p.weight ? double(p.k * p.n) : double(p.batch * p.k * p.n);
                QCOMPARE(args.value("bytes").toDouble(), 4.0 * (double(p.batch * p.m * p.k) + right + double(p.batch * p.m * p.n)));
            }
        }
        QCOMPARE(matmuls, 2 * (2 * 2 * 6 + 2));  // two steps of 2 layers × 6 products × 2 passes + the head's 2
        for (const auto &[step, flops] : profiler_flops)
            QCOMPARE(event_flops[step], flops);
        // The optimizer's call: AdamW's 16 FLOPs per parameter (ops/optimizer_update.cpp).
        bool update = false;
        for (const QJsonValue &v : completeEvents(events, "cpu_op"))
            if (v.toObject().value("name").toString() == "adamw_update") {
                update = true;
                QCOMPARE(v.toObject().value("args").toObject().value("flops").toDouble(),
                         16.0 * double(trainer.model().parameterCount()));
            }
        QVERIFY(update);
    }

    void windowSkipsTheFirstStepOfLongRuns()
    {
        QCOMPARE(traceWindow(10, 3).first, 1);
        QCOMPARE(traceWindow(10, 3).count, 3);
        QVERIFY(!traceWindow(10, 3).covers(0) && traceWindow(10, 3).covers(3) && !traceWindow(10, 3).covers(4));
        QCOMPARE(traceWindow(2, 3).first, 0);  // a short run is traced whole
        QCOMPARE(traceWindow(2, 3).count, 2);
        QCOMPARE(traceWindow(3, 3).first, 0);
        QCOMPARE(traceWindow(0, 3).count, 0);
    }

    void generationStepsAsTrace()
    {
        const TrainConfig config = test::tinyTrainConfig(data_);
        ReferenceOptions options = config.options;
        options.max_batch = 2;
        options.cache_batch = 2;
        auto model = Model::create(config.model, options);
        QVERIFY(model.ok());
        OpTraceLog log(traceCapacityForSteps(config.model.n_layers, 3));
        log.setLastStep(3);
        (*model)->profiler().setTrace(&log);
        GenerateOptions generate;
        generate.max_new_tokens = 6;
        generate.temperature = 0;
        generate.profile = true;
        Result<BatchGeneration> run = generateBatch(**model, {{1, 2, 3}, {4, 5}}, generate);
        (*model)->profiler().setTrace(nullptr);
        QVERIFY(run.ok());
        QVERIFY(run->decode_steps >= 2);
        const std::string document = chromeTraceDocument({chromeTraceProcessEvents(log, 0, "generate")}, {});
        const QStringList problems = test::traceEventFormatProblems(QByteArray::fromStdString(document));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        std::map<QString, int> annotations;
        for (const QJsonValue &v : completeEvents(eventsOf(document), "user_annotation"))
            ++annotations[v.toObject().value("name").toString()];
        QCOMPARE(annotations["ProfilerStep#1"], 1);
        QCOMPARE(annotations["ProfilerStep#3"], 1);
        QCOMPARE(annotations["ProfilerStep#4"], 0);  // past setLastStep
        QCOMPARE(annotations["prefill"], 1);
        QCOMPARE(annotations["decode"], 2);
        QCOMPARE(annotations["forward"], 0);  // no backward: phases are the caller's
        int attention = 0;
        for (const QJsonValue &v : completeEvents(eventsOf(document), "cpu_op"))
            if (v.toObject().value("name").toString() == "decode_attention") {
                ++attention;
                QCOMPARE(v.toObject().value("args").toObject().value("class").toString(), QStringLiteral("attention"));
            }
        QCOMPARE(attention, 2 * int(config.model.n_layers));  // two decode steps
    }

    void textGatherReturnsEveryRanksBytes()
    {
        std::string all_bytes;
        for (int c = 0; c < 256; ++c)
            all_bytes += char(c);
        const std::vector<std::string> texts = {"", "rank one", all_bytes};
        std::vector<std::vector<std::string>> received(3);
        distributed::ThreadGroup group(3);
        group.run([&](distributed::Communicator &communicator) {
            received[std::size_t(communicator.rank())] =
                distributed::allGatherText(communicator, texts[std::size_t(communicator.rank())]);
        });
        for (const std::vector<std::string> &r : received)
            QVERIFY(r == texts);
    }

    void dataParallelRanksAsOneTrace()
    {
        TrainConfig config = test::tinyTrainConfig(data_);
        const int ranks = 2;
        std::vector<std::string> documents(ranks);
        std::vector<double> gradient_bytes(ranks, 0);
        std::vector<std::string> failures(ranks);
        distributed::ThreadGroup group(ranks);
        group.run([&](distributed::Communicator &communicator) {
            const std::size_t r = std::size_t(communicator.rank());
            auto trainer = distributed::DataParallelTrainer::create(config, distributed::DataParallelOptions{}, communicator);
            if (!trainer) {
                failures[r] = formatProblems(trainer.problems());
                return;
            }
            OpTraceLog log(traceCapacityForSteps(config.model.n_layers, 1));
            communicator.barrier();
            log.setOrigin(OpTraceLog::Clock::now());
            communicator.takeRecords();
            OpProfiler &profiler = (*trainer)->model().profiler();
            profiler.setEnabled(true);
            profiler.setTrace(&log);
            Result<distributed::DataParallelStepReport> report = (*trainer)->step();
            profiler.setTrace(nullptr);
            if (!report) {
                failures[r] = formatProblems(report.problems());
                return;
            }
            gradient_bytes[r] = report->communication.front().bytes_per_rank;
            const std::vector<std::string> texts = distributed::allGatherText(
                communicator, chromeTraceProcessEvents(log, int(r), "rank " + std::to_string(r)));
            documents[r] = chromeTraceDocument(texts, {});
        });
        for (const std::string &failure : failures)
            QVERIFY2(failure.empty(), failure.c_str());
        QCOMPARE(documents[0], documents[1]);  // every rank received every rank's events
        const QStringList problems = test::traceEventFormatProblems(QByteArray::fromStdString(documents[0]));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        std::set<int> pids;
        std::map<int, int> collectives;
        for (const QJsonValue &v : eventsOf(documents[0])) {
            const QJsonObject e = v.toObject();
            if (e.value("ph").toString() != "X")
                continue;
            pids.insert(e.value("pid").toInt());
            if (e.value("tid").toInt() == 2) {
                QCOMPARE(e.value("args").toObject().value("class").toString(), QStringLiteral("communication"));
                if (collectives[e.value("pid").toInt()]++ == 0) {  // the gradients' all-reduce comes first
                    QCOMPARE(e.value("name").toString(), QStringLiteral("all_reduce"));
                    QCOMPARE(e.value("args").toObject().value("bytes").toDouble(), gradient_bytes[std::size_t(e.value("pid").toInt())]);
                }
            }
        }
        QCOMPARE(pids, (std::set<int>{0, 1}));
        QCOMPARE(collectives[0], 2);  // gradients, then the loss and norm
        QCOMPARE(collectives[1], 2);
    }

    void writerRefusesNonRegularTargets()
    {
        const Result<bool> written = writeChromeTrace("/dev/null", "{}");
        QVERIFY(!written.ok());
        QCOMPARE(written.problems().front().rule, std::string("not_a_file"));
        const std::string path = dir_.filePath(QStringLiteral("trace.json")).toStdString();
        QVERIFY(writeChromeTrace(path, "{\"traceEvents\":[]}").ok());
    }
};

QTEST_GUILESS_MAIN(TestChromeTrace)
#include "test_chrome_trace.moc"
