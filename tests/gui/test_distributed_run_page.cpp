// SPDX-License-Identifier: GPL-3.0-or-later
// The Distributed run page (issue 19): a bad setup is refused before anything starts, naming the
// field; without mpiexec Start is disabled and says what to install; with Open MPI a 2-rank naive
// run of a tiny model fills the table (measured bytes equal to the engine's each step) and the
// timeline; Cancel stops a long run with no rank left behind. Issue 33: the tensor-, pipeline- and
// combined layouts build their `train` flags, are refused before launching when the model or the
// degrees break a rule, and a tensor-parallel and a 1F1B pipeline run started from the page finish
// with the bytes of every TP/PP purpose equal to the engine's and the measured bubble beside the
// formula. Skipped where MPI is not installed.
#include "background_timeout.h"
#include "charts/chart_view.h"
#include "key_column_check.h"
#include "main_window.h"
#include "pages/page_registry.h"
#include "pages/distributed/distributed_run_page.h"
#include "pages/distributed/distributed_run_timeline.h"
#include "pages/parallel/pipeline_measured_panel.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace lse;
using namespace lse::gui;

namespace {

// Small enough that a step takes milliseconds (the CLI data-parallel test's model).
reference::TrainConfig tinyTestConfig()
{
    reference::TrainConfig c;
    c.model.name = "dp-test";
    c.model.n_layers = 1;
    c.model.d_model = 32;
    c.model.n_heads = 2;
    c.model.n_kv_heads = 2;
    c.model.head_dim = 16;
    c.model.d_ff = 64;
    c.model.vocab_size = 300;
    c.model.max_seq_len = 32;
    c.warmup_steps = 1;
    c.lr_max = 5e-3;
    c.lr_min = 5e-4;
    c.threads = 1;
    return c;
}

// Two layers, so that two pipeline stages get one each.
reference::TrainConfig twoLayerTestConfig()
{
    reference::TrainConfig c = tinyTestConfig();
    c.model.n_layers = 2;
    return c;
}

QString testText()
{
    QString text;
    for (int i = 0; i < 40; ++i)
        text += QStringLiteral("Once upon a time a little cat sat on a mat. The cat was happy.\n<|endoftext|>\n"
                               "One day a dog ran to the park and played with a red ball.\n<|endoftext|>\n");
    return text;
}

// The direct children of process `pid` (Linux /proc): mpiexec's ranks.
QList<qint64> childProcesses(qint64 pid)
{
    QList<qint64> children;
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool numeric = false;
        const qint64 candidate = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(entry));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        // "pid (comm) state ppid ...": the command may hold spaces, so read after its ')'.
        const QByteArray line = stat.readAll();
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields[1].toLongLong() == pid)
            children << candidate;
    }
    return children;
}

// Whether `pid` still runs. A rank ended after its parent is a zombie of PID 1, which in a container
// may never reap it: dead all the same.
bool processRunning(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const QByteArray state = line.mid(line.lastIndexOf(')') + 2, 1);
    return state != "Z" && state != "X";
}

}  // namespace

class TestDistributedRunPage : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // English plural forms ("3 steps") come from the en translation.
        MainWindow::installLanguage(QStringLiteral("en"));
    }

    void isInTheParallelismGroup()
    {
        bool found = false;
        for (const PageGroup &group : pageCatalog())
            for (const PageEntry &page : group.pages)
                if (page.id == QLatin1String("distributed_run")) {
                    QCOMPARE(group.domain, PageDomain::Parallelism);
                    found = true;
                }
        QVERIFY(found);
    }

    void timelineSplitsComputeExposedAndOverlapped()
    {
        // One bucketed step: 10 ms, a 4 ms all-reduce of which 1 ms was waited for, then a 0.5 ms
        // blocking one. Compute is 10 − 1.5 ms; the first collective's 3 ms overlap is lighter.
        DistributedRunResults results;
        results.ranks = 2;
        results.mode = QStringLiteral("bucketed");
        distributed::DataParallelStepReport step;
        step.step = 1;
        step.seconds = 0.010;
        step.communication = {{"all_reduce", "gradients", 1000, 0.004, 0.001}, {"all_reduce", "loss_and_norm", 8, 0.0005, 0.0005}};
        results.steps = {step};
        const ChartData chart = distributedTimelineChart(results, QPalette());
        QCOMPARE(chart.y_categories.size(), 3);
        QMap<QString, double> width_ms;
        QColor exposed_color, overlapped_color;
        for (const ChartRect &rect : chart.rects) {
            width_ms[rect.group + QString::number(rect.y0 + 0.5)] += rect.x1 - rect.x0;
            if (rect.group == QLatin1String("exposed communication"))
                exposed_color = rect.color;
            if (rect.group == QLatin1String("communication overlapped with compute"))
                overlapped_color = rect.color;
        }
        QCOMPARE(width_ms.value("compute0.1"), 8.5);
        QVERIFY(std::abs(width_ms.value("exposed communication0.1") - 1.5) < 1e-9);
        QVERIFY(std::abs(width_ms.value("communication overlapped with compute1.1") - 3.0) < 1e-9);
        QVERIFY(std::abs(width_ms.value("exposed communication1.1") - 1.0) < 1e-9);
        QVERIFY(std::abs(width_ms.value("exposed communication2.1") - 0.5) < 1e-9);
        QVERIFY(overlapped_color.isValid() && overlapped_color != exposed_color);
        // The waited parts tile the step's exposed tail: the last ends at the step's end.
        double last_end = 0;
        for (const ChartRect &rect : chart.rects)
            last_end = std::max(last_end, rect.x1);
        QVERIFY(std::abs(last_end - 10.0) < 1e-9);
    }

    // The reader of every layout's JSON (trimmed from real `train --dp 2 --pp 2` and `--dp 2 --tp 2`
    // output): entries added up by rank and purpose with the engine's bytes where the CLI gives
    // them, the pipeline's passes read by core's readMeasuredPipelineRun.
    void readsTheCombinedLayoutsJson()
    {
        const QByteArray dp_pp = R"({"ranks": 4, "pp": 2, "dp": 2, "schedule": "1f1b", "micro_batches": 1,
            "stage_layers": [1, 1], "global_batch": 4, "steps": [{"step": 1, "loss": 5.0, "seconds": 0.004,
            "communication": [
              {"rank": 0, "collective": "send", "purpose": "pp_send", "count": 1, "bytes_per_rank": 100, "predicted_bytes_per_rank": 100},
              {"rank": 0, "collective": "all_reduce", "purpose": "loss_and_norm", "count": 1, "bytes_per_rank": 8, "predicted_bytes_per_rank": null},
              {"rank": 0, "collective": "all_reduce", "purpose": "dp_gradients", "count": 1, "bytes_per_rank": 200, "predicted_bytes_per_rank": 210},
              {"rank": 1, "collective": "recv", "purpose": "pp_recv", "count": 1, "bytes_per_rank": 100, "predicted_bytes_per_rank": 100}],
            "sent_bytes_per_rank": [100, 100], "predicted_bytes_per_rank": 200,
            "schedule": [
              {"rank": 0, "micro_batch": 0, "pass": "forward", "start_seconds": 0, "end_seconds": 0.001},
              {"rank": 1, "micro_batch": 0, "pass": "forward", "start_seconds": 0.001, "end_seconds": 0.002},
              {"rank": 1, "micro_batch": 0, "pass": "backward", "start_seconds": 0.002, "end_seconds": 0.003},
              {"rank": 0, "micro_batch": 0, "pass": "backward", "start_seconds": 0.003, "end_seconds": 0.004}],
            "bubble_fraction": {"measured": 0.5, "formula": 0.5}}]})";
        QString error;
        std::optional<DistributedRunResults> pp = parseDistributedRunResults(dp_pp, &error);
        QVERIFY2(pp, qPrintable(error));
        QCOMPARE(pp->layout, QStringLiteral("dp_pp"));
        QCOMPARE(pp->dp, 2);
        QCOMPARE(pp->pp, 2);
        QVERIFY(pp->pipeline);
        QCOMPARE(int(pp->pipeline->passes.size()), 4);
        QCOMPARE(pp->pipeline->bubble.formula, 0.5);  // (p − 1)/(m + p − 1) with p = 2, m = 1
        // The step's bytes: rank 0's pipeline sends beside the engine's bytes for them.
        QCOMPARE(pp->steps.front().measured_bytes_per_rank, 100.0);
        QCOMPARE(pp->steps.front().predicted_bytes_per_rank, 100.0);
        const std::vector<DistributedPurposeTraffic> &traffic = pp->traffic.front();
        QCOMPARE(int(traffic.size()), 4);
        QCOMPARE(traffic[1].purpose, QStringLiteral("loss_and_norm"));
        QVERIFY(!traffic[1].predicted_bytes_per_rank);
        QCOMPARE(traffic[2].purpose, QStringLiteral("dp_gradients"));
        QCOMPARE(*traffic[2].predicted_bytes_per_rank, 210.0);
        QCOMPARE(traffic[3].rank, 1);

        const QByteArray dp_tp = R"({"ranks": 4, "tp": 2, "dp": 2, "sequence_parallel": true, "global_batch": 8,
            "steps": [{"step": 1, "loss": 5.0, "seconds": 0.002, "communication": [
              {"collective": "all_gather", "purpose": "tp_forward", "bytes_per_rank": 50, "predicted_bytes_per_rank": 50},
              {"collective": "reduce_scatter", "purpose": "tp_forward", "bytes_per_rank": 50, "predicted_bytes_per_rank": 50},
              {"collective": "all_reduce", "purpose": "grad_norm", "bytes_per_rank": 4, "predicted_bytes_per_rank": null},
              {"collective": "all_reduce", "purpose": "dp_gradients", "bytes_per_rank": 300, "predicted_bytes_per_rank": 250}],
            "measured_bytes_per_rank": 100, "predicted_bytes_per_rank": 100,
            "memory_bytes": {"params": 10, "activations": 7}, "predicted_memory_bytes": {"params": 8, "activations": 6}}]})";
        std::optional<DistributedRunResults> tp = parseDistributedRunResults(dp_tp, &error);
        QVERIFY2(tp, qPrintable(error));
        QCOMPARE(tp->layout, QStringLiteral("dp_tp"));
        QVERIFY(tp->sequence_parallel);
        QVERIFY(!tp->pipeline);
        QCOMPARE(tp->steps.front().measured_bytes_per_rank, 100.0);
        QCOMPARE(tp->traffic.front().front().purpose, QStringLiteral("tp_forward"));
        QCOMPARE(tp->traffic.front().front().transfers, 2);
        QCOMPARE(tp->traffic.front().front().collective, QStringLiteral("all_gather + reduce_scatter"));
        QCOMPARE(tp->traffic.front().front().bytes_per_rank, 100.0);
        QCOMPARE(*tp->traffic.front().front().predicted_bytes_per_rank, 100.0);
        QVERIFY(tp->activations);
        QCOMPARE(tp->activations->first, 7.0);
        QCOMPARE(tp->activations->second, 6.0);

        // A pass on a rank the pipeline does not have: refused, naming the field.
        QByteArray broken = dp_pp;
        broken.replace(R"({"rank": 1, "micro_batch": 0, "pass": "forward")", R"({"rank": 5, "micro_batch": 0, "pass": "forward")");
        QVERIFY(!parseDistributedRunResults(broken, &error));
        QVERIFY2(error.contains(QLatin1String("schedule[]")), qPrintable(error));
    }

    void refusesBatchNotDivisibleByRanksBeforeLaunching()
    {
        DistributedRunPage page;
        page.setLaunchers(QStringLiteral("/bin/true"), QStringLiteral("/bin/true"));
        page.ranksSpin()->setValue(4);
        page.batchSpin()->setValue(6);
        QSignalSpy states(&page, &DistributedRunPage::stateChanged);
        QVERIFY(!page.start());
        QCOMPARE(page.state(), DistributedRunPage::State::Failed);
        QVERIFY2(page.statusText().contains(QLatin1String("Global batch")), qPrintable(page.statusText()));
        QVERIFY(page.statusText().contains(QLatin1String("4 ranks")));
        QCOMPARE(page.launcherProcessId(), 0);
        for (const QList<QVariant> &state : states)
            QCOMPARE(state.at(0).value<DistributedRunPage::State>(), DistributedRunPage::State::Failed);
        QVERIFY(page.isReady());
    }

    void buildsTheTrainFlagsOfEachLayout_data()
    {
        QTest::addColumn<int>("parallelism");
        QTest::addColumn<QStringList>("flags");
        // ranks 4; dp 2 with tp or pp 2 where the layout combines them; 1F1B, 4 micro-batches, SP on.
        QTest::newRow("data") << int(DistributedParallelism::Data) << QStringList{"--dp", "4", "--bucket-mb", "0", "--json"};
        QTest::newRow("tensor") << int(DistributedParallelism::Tensor) << QStringList{"--tp", "4", "--sp", "on", "--json"};
        QTest::newRow("pipeline") << int(DistributedParallelism::Pipeline)
                                  << QStringList{"--pp", "4", "--schedule", "1f1b", "--micro-batches", "4", "--json"};
        QTest::newRow("dp x tp") << int(DistributedParallelism::DataTensor)
                                 << QStringList{"--dp", "2", "--tp", "2", "--sp", "on", "--json"};
        QTest::newRow("dp x pp") << int(DistributedParallelism::DataPipeline)
                                 << QStringList{"--dp", "2", "--pp", "2", "--schedule", "1f1b", "--micro-batches", "4", "--json"};
    }

    void buildsTheTrainFlagsOfEachLayout()
    {
        QFETCH(int, parallelism);
        QFETCH(QStringList, flags);
        DistributedRunPage page;
        page.setLaunchers(QStringLiteral("/bin/true"), QStringLiteral("/bin/true"));
        page.parallelismBox()->setCurrentIndex(parallelism);
        page.ranksSpin()->setValue(4);
        page.dpSpin()->setValue(2);
        page.tpSpin()->setValue(2);
        page.ppSpin()->setValue(2);
        page.sequenceParallelCheck()->setChecked(true);  // ignored outside the tensor layouts
        page.scheduleBox()->setCurrentIndex(1);
        page.microBatchesSpin()->setValue(4);
        const QStringList arguments = mpiexecArguments(page.setup(), QStringLiteral("cli"), QStringLiteral("c.json"),
                                                       QStringLiteral("t.bin"));
        const QStringList head{"-np", "4", "--oversubscribe", "--allow-run-as-root", "--bind-to", "none", "cli", "train",
                               "--config", "c.json", "--data", "t.bin"};
        QCOMPARE(arguments, head + flags);
        // GPipe by name, and SP off leaves --sp out.
        DistributedRunSetup setup = page.setup();
        setup.schedule = parallel::PipelineScheduleKind::GPipe;
        setup.sequence_parallel = false;
        const QStringList gpipe = mpiexecArguments(setup, "cli", "c.json", "t.bin");
        QVERIFY(!gpipe.contains(QStringLiteral("--sp")));
        if (usesPipelineParallelism(setup.parallelism))
            QCOMPARE(gpipe.at(gpipe.indexOf(QStringLiteral("--schedule")) + 1), QStringLiteral("gpipe"));
    }

    void refusesALayoutTheModelOrTheRanksBreak_data()
    {
        QTest::addColumn<int>("parallelism");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("degree");  // tp or pp
        QTest::addColumn<int>("micro_batches");
        QTest::addColumn<int>("batch");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<QStringList>("expected");
        // The tiny model: 1 layer, 2 heads, d_ff 64, context 32.
        QTest::newRow("tp does not divide the heads")
            << int(DistributedParallelism::Tensor) << 4 << 1 << 1 << 1 << 8 << false << QStringList{"Ranks (tp = ranks)", "n_heads (2)"};
        QTest::newRow("ranks are not dp x tp")
            << int(DistributedParallelism::DataTensor) << 2 << 2 << 2 << 1 << 8 << false
            << QStringList{"Ranks: 2 must equal dp × tp = 2 × 2 = 4"};
        QTest::newRow("batch not divisible by dp")
            << int(DistributedParallelism::DataTensor) << 4 << 2 << 2 << 1 << 7 << false << QStringList{"Global batch: 7", "dp 2"};
        QTest::newRow("more stages than layers")
            << int(DistributedParallelism::Pipeline) << 2 << 1 << 1 << 2 << 8 << false << QStringList{"Ranks (pp = ranks)", "n_layers 1"};
        QTest::newRow("pp of one in dp x pp")
            << int(DistributedParallelism::DataPipeline) << 2 << 2 << 1 << 4 << 8 << false << QStringList{"PP stages: 1 must be at least 2"};
        QTest::newRow("dp of one in a combined layout")
            << int(DistributedParallelism::DataPipeline) << 2 << 1 << 2 << 4 << 8 << false << QStringList{"DP degree: 1"};
    }

    void refusesALayoutTheModelOrTheRanksBreak()
    {
        QFETCH(int, parallelism);
        QFETCH(int, ranks);
        QFETCH(int, dp);
        QFETCH(int, degree);
        QFETCH(int, micro_batches);
        QFETCH(int, batch);
        QFETCH(bool, sp);
        QFETCH(QStringList, expected);
        DistributedRunPage page;
        page.setLaunchers(QStringLiteral("/bin/true"), QStringLiteral("/bin/true"));
        page.setPresetConfig(tinyTestConfig());
        page.parallelismBox()->setCurrentIndex(parallelism);
        page.ranksSpin()->setValue(ranks);
        page.dpSpin()->setValue(dp);
        page.tpSpin()->setValue(degree);
        page.ppSpin()->setValue(degree);
        page.microBatchesSpin()->setValue(micro_batches);
        page.batchSpin()->setValue(batch);
        page.sequenceParallelCheck()->setChecked(sp);
        QSignalSpy states(&page, &DistributedRunPage::stateChanged);
        QVERIFY(!page.start());
        QCOMPARE(states.size(), 1);
        QCOMPARE(states.at(0).at(0).value<DistributedRunPage::State>(), DistributedRunPage::State::Failed);
        for (const QString &part : expected)
            QVERIFY2(page.statusText().contains(part), qPrintable(page.statusText()));
        QCOMPARE(page.launcherProcessId(), 0);
        QVERIFY(page.isReady());
    }

    // ZeRO-3 gathers one layer at a time; a tied LM head would read the embedding group inside its
    // own: the trainer's rule, said before any process starts.
    void refusesZero3WithTiedEmbeddings()
    {
        DistributedRunPage page;
        page.setLaunchers(QStringLiteral("/bin/true"), QStringLiteral("/bin/true"));
        reference::TrainConfig tied = tinyTestConfig();
        tied.model.tied_embeddings = true;
        page.setPresetConfig(tied);
        page.modeBox()->setCurrentIndex(4);
        QVERIFY(page.setup().mode == distributed::DataParallelMode::Zero3);
        QSignalSpy states(&page, &DistributedRunPage::stateChanged);
        QVERIFY(!page.start());
        QCOMPARE(states.size(), 1);
        QVERIFY2(page.statusText().contains(QLatin1String("ZeRO-3")) && page.statusText().contains(QLatin1String("untied")),
                 qPrintable(page.statusText()));
        QCOMPARE(page.launcherProcessId(), 0);
        page.modeBox()->setCurrentIndex(3);  // ZeRO-2 takes the same model
        QCOMPARE(distributedSetupProblem(page.setup()), QString());
    }

    void refusesABatchNotDivisibleByMicroBatchesAndAContextNotDivisibleByTp()
    {
        DistributedRunSetup setup;
        setup.config = twoLayerTestConfig();
        setup.parallelism = DistributedParallelism::DataPipeline;
        setup.ranks = 4;
        setup.dp = 2;
        setup.pp = 2;
        setup.micro_batches = 3;
        setup.global_batch = 8;
        QVERIFY(distributedSetupProblem(setup).startsWith(QStringLiteral("Global batch: 8 is not divisible by dp × micro-batches = 2 × 3 = 6")));
        setup.micro_batches = 2;
        QVERIFY2(distributedSetupProblem(setup).isEmpty(), qPrintable(distributedSetupProblem(setup)));
        // Sequence parallelism splits the context (32) over tp: 2 divides it; a context of 30 does not.
        setup = DistributedRunSetup{};
        setup.config = tinyTestConfig();
        setup.config.model.max_seq_len = 30;
        setup.parallelism = DistributedParallelism::Tensor;
        setup.ranks = setup.tp = 2;
        QVERIFY2(distributedSetupProblem(setup).isEmpty(), qPrintable(distributedSetupProblem(setup)));
        setup.config.model.max_seq_len = 31;
        setup.sequence_parallel = true;
        QVERIFY2(distributedSetupProblem(setup).contains(QLatin1String("context (31)")), qPrintable(distributedSetupProblem(setup)));
    }

    void disablesTheControlsALayoutDoesNotUse()
    {
        DistributedRunPage page;
        page.setLaunchers(QStringLiteral("/bin/true"), QStringLiteral("/bin/true"));
        page.setPresetConfig(tinyTestConfig());
        QVERIFY(page.modeBox()->isEnabled());
        QVERIFY(!page.sequenceParallelCheck()->isEnabled());
        QVERIFY(!page.scheduleBox()->isEnabled());
        QVERIFY(!page.dpSpin()->isEnabled());
        QVERIFY(page.dpSpin()->toolTip().contains(QLatin1String("dp = ranks")));
        page.parallelismBox()->setCurrentIndex(int(DistributedParallelism::Tensor));
        QVERIFY(!page.modeBox()->isEnabled());
        QVERIFY(page.modeBox()->toolTip().contains(QLatin1String("no ZeRO")));
        QVERIFY(!page.bucketSpin()->isEnabled());
        QVERIFY(page.sequenceParallelCheck()->isEnabled());
        QVERIFY(!page.tpSpin()->isEnabled());  // the ranks are tp
        QVERIFY2(page.tpSpin()->toolTip().contains(QLatin1String("tp = ranks"))
                     && page.tpSpin()->toolTip().contains(QLatin1String("n_heads (2)")),
                 qPrintable(page.tpSpin()->toolTip()));
        QVERIFY(!page.microBatchesSpin()->isEnabled());
        page.parallelismBox()->setCurrentIndex(int(DistributedParallelism::DataPipeline));
        QVERIFY(page.dpSpin()->isEnabled());
        QVERIFY(page.ppSpin()->isEnabled());
        QVERIFY(!page.tpSpin()->isEnabled());
        QVERIFY(!page.sequenceParallelCheck()->isEnabled());
        QVERIFY(page.scheduleBox()->isEnabled());
        QVERIFY(page.microBatchesSpin()->isEnabled());
        QVERIFY(page.microBatchesSpin()->toolTip().contains(QStringLiteral("(p − 1)/(m + p − 1)")));
        QVERIFY(page.ppSpin()->toolTip().contains(QLatin1String("n_layers (1)")));
    }

    void startDisabledWithoutMpiexec()
    {
        DistributedRunPage page;
        page.setLaunchers(QString(), QStringLiteral("/bin/true"));
        QVERIFY(!page.startButton()->isEnabled());
        QVERIFY(page.startButton()->toolTip().contains(QLatin1String("openmpi-bin")));
        const auto *label = page.findChild<QLabel *>(QStringLiteral("distributed-launcher"));
        QVERIFY(label && label->text().contains(QLatin1String("openmpi-bin")));
        QVERIFY(!page.start());
        QVERIFY(page.statusText().contains(QLatin1String("openmpi-bin")));
    }

    void lessonSettingsSetTheSetupAndNeverStart()
    {
        DistributedRunPage page;
        page.setLaunchers(QString(), QString());
        QString error;
        QVERIFY2(page.applyLessonSettings({{"ranks", 4}, {"mode", "zero2"}, {"global_batch", 16}}, &error), qPrintable(error));
        QCOMPARE(page.setup().ranks, 4);
        QVERIFY(page.setup().mode == distributed::DataParallelMode::Zero2);
        QCOMPARE(page.state(), DistributedRunPage::State::Idle);
        QCOMPARE(page.lessonSettings().value("mode").toString(), QStringLiteral("zero2"));
        QVERIFY2(page.applyLessonSettings({{"mode", "zero3"}}, &error), qPrintable(error));
        QVERIFY(page.setup().mode == distributed::DataParallelMode::Zero3);
        QVERIFY(mpiexecArguments(page.setup(), "cli", "c.json", "t.bin").join(' ').contains(QLatin1String("--zero 3")));
        QVERIFY(!page.applyLessonSettings({{"mode", "zero4"}}, &error));
        QVERIFY2(error.startsWith(QLatin1String("mode")), qPrintable(error));
        QVERIFY(page.setup().mode == distributed::DataParallelMode::Zero3);
        QVERIFY2(page.applyLessonSettings({{"parallelism", "dp_pp"}, {"dp", 2}, {"pp", 2}, {"schedule", "gpipe"},
                                           {"micro_batches", 2}},
                                          &error),
                 qPrintable(error));
        QVERIFY(page.setup().parallelism == DistributedParallelism::DataPipeline);
        QCOMPARE(page.setup().pp, 2);
        QVERIFY(page.setup().schedule == parallel::PipelineScheduleKind::GPipe);
        QCOMPARE(page.lessonSettings().value("parallelism").toString(), QStringLiteral("dp_pp"));
        QVERIFY(!page.applyLessonSettings({{"parallelism", "tp_pp"}}, &error));
    }

    // Issue 28, item 1: Start pressed on the page as it opens (the smallest preset, the bundled
    // sample ":/samples/..." read through Qt's resource system) writes the run's files and launches
    // the ranks; it used to fail at once with "Text: cannot read :/samples/...". Cancelled after
    // the first step.
    void startWithTheDefaults()
    {
        DistributedRunPage page;
        QVERIFY(page.textBox()->currentData().toString().startsWith(QStringLiteral(":/")));
#ifdef LSE_MPIEXEC
        page.setLaunchers(QStringLiteral(LSE_MPIEXEC), QStringLiteral(LSE_CLI_PATH));
#else
        // Without Open MPI the text is still read and tokenized; the launch itself then fails.
        page.setLaunchers(QStringLiteral("/bin/false"), QStringLiteral("/bin/false"));
#endif
        QSignalSpy progress(&page, &DistributedRunPage::stepProgress);
        QSignalSpy ended(&page, &DistributedRunPage::runEnded);
        QSignalSpy states(&page, &DistributedRunPage::stateChanged);
        QVERIFY(page.startButton()->isEnabled());
        page.startButton()->click();
        QVERIFY2(page.state() == DistributedRunPage::State::Preparing, qPrintable(page.statusText()));
        QTRY_VERIFY_WITH_TIMEOUT(page.state() != DistributedRunPage::State::Preparing, kBackgroundWorkTimeoutMs);
        // Preparing, then Running: the text was read and its files written.
        QVERIFY2(states.size() >= 2 && states.at(1).at(0).value<DistributedRunPage::State>() == DistributedRunPage::State::Running,
                 qPrintable(page.statusText()));
#ifdef LSE_MPIEXEC
        QVERIFY2(progress.count() > 0 || progress.wait(kBackgroundWorkTimeoutMs) || page.state() == DistributedRunPage::State::Finished,
                 qPrintable(page.statusText()));
        QVERIFY2(page.state() != DistributedRunPage::State::Failed, qPrintable(page.statusText()));
        page.cancel();
        QVERIFY(page.isReady() || ended.wait(kBackgroundWorkTimeoutMs));
        QVERIFY2(page.state() == DistributedRunPage::State::Cancelled || page.state() == DistributedRunPage::State::Finished,
                 qPrintable(page.statusText()));
#endif
    }

    void runsTwoRanksAndMatchesTheEngine_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<QString>("name");
        QTest::newRow("naive") << 0 << "naive";
        QTest::newRow("bucketed") << 1 << "bucketed";
        QTest::newRow("zero1") << 2 << "zero1";
        QTest::newRow("zero2") << 3 << "zero2";
        QTest::newRow("zero3") << 4 << "zero3";
    }

    void runsTwoRanksAndMatchesTheEngine()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        DistributedRunPage page;
        page.resize(1280, 720);
        page.setLaunchers(QStringLiteral(LSE_MPIEXEC), QStringLiteral(LSE_CLI_PATH));
        page.setPresetConfig(tinyTestConfig());
        page.setCustomText(testText());
        page.ranksSpin()->setValue(2);
        QFETCH(int, mode);
        QFETCH(QString, name);
        page.modeBox()->setCurrentIndex(mode);
        page.stepsSpin()->setValue(3);
        page.batchSpin()->setValue(8);
        QSignalSpy ended(&page, &DistributedRunPage::runEnded);
        QSignalSpy progress(&page, &DistributedRunPage::stepProgress);
        QVERIFY(page.start());
        QVERIFY(!page.isReady());
        QVERIFY(!page.startButton()->isEnabled());
        QVERIFY(ended.wait(kBackgroundWorkTimeoutMs));
        QVERIFY2(page.state() == DistributedRunPage::State::Finished, qPrintable(page.statusText()));
        QVERIFY(page.isReady());
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(0).toInt(), 3);
        QVERIFY(page.results());
        QCOMPARE(page.results()->mode, name);
        QCOMPARE(int(page.results()->steps.size()), 3);
        QCOMPARE(page.stepTable()->rowCount(), 3);
        for (int row = 0; row < 3; ++row) {
            const distributed::DataParallelStepReport &step = page.results()->steps[std::size_t(row)];
            QVERIFY(step.measured_bytes_per_rank > 0);
            QCOMPARE(step.measured_bytes_per_rank, step.predicted_bytes_per_rank);
            QCOMPARE(page.stepTable()->item(row, 3)->text(), page.stepTable()->item(row, 4)->text());
            QCOMPARE(page.stepTable()->item(row, 5)->text(), QStringLiteral("✓"));
        }
        QCOMPARE(page.memoryTable()->item(0, 3)->text(), QStringLiteral("✓"));
        // ZeRO-3 alone adds the step's resident model-state peak (the kernel's pages).
        QCOMPARE(page.memoryTable()->rowCount(), name == QLatin1String("zero3") ? 5 : 4);
        if (name == QLatin1String("zero3")) {
            QVERIFY(page.results()->steps.back().memory.resident_model_state_peak > 0);
            QVERIFY(page.memoryTable()->item(4, 0)->text().contains(QLatin1String("resident")));
            QVERIFY(page.memoryTable()->item(4, 0)->toolTip().contains(QLatin1String("madvise")));
        }
        // Beside the editor at 1024×768 the page gets about 520 px: the step, the bytes sent and the
        // engine's figure stay first and whole ("1.97 MB …" was elided, issue 28 item 22).
        page.resize(520, 720);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
        const QStringList narrow = lse::gui::test::keyColumnProblems("520 px", page.stepTable())
            + lse::gui::test::keyColumnProblems("520 px", page.memoryTable());
        QVERIFY2(narrow.isEmpty(), qPrintable(narrow.join("\n")));
        page.resize(1280, 720);
        const ChartData &chart = page.timelineChart()->data();
        QVERIFY(!chart.rects.isEmpty());
        int compute_bars = 0;
        for (const ChartRect &rect : chart.rects)
            compute_bars += rect.group == QLatin1String("compute") ? 1 : 0;
        QCOMPARE(compute_bars, 3);
        QVERIFY(page.charts().contains(page.timelineChart()));

        // Look at it: presentation at 1280×720, in English and Chinese.
        page.setPresentation(true);
        for (const QString &language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
            MainWindow::installLanguage(language);
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
            const QString stem = QStringLiteral("distributed_run_%1_%2").arg(name, language);
            QVERIFY(page.grab().save(QDir::temp().filePath(stem + QStringLiteral(".png"))));
            QVERIFY(page.timelineChart()->grab().save(QDir::temp().filePath(stem + QStringLiteral("_timeline.png"))));
        }
        MainWindow::installLanguage(QStringLiteral("en"));
#endif
    }

    // Issue 33: tensor parallelism (tp = 2) started from the page. Every tensor-parallel
    // collective (the layers', the vocabulary-parallel embedding's, head's and loss's) sends
    // exactly the engine's bytes for the same event.
    void runsTensorParallelAndMatchesTheEngine()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        DistributedRunPage page;
        page.resize(1280, 720);
        page.setLaunchers(QStringLiteral(LSE_MPIEXEC), QStringLiteral(LSE_CLI_PATH));
        page.setPresetConfig(tinyTestConfig());
        page.setCustomText(testText());
        page.parallelismBox()->setCurrentIndex(int(DistributedParallelism::Tensor));
        page.ranksSpin()->setValue(2);
        page.stepsSpin()->setValue(2);
        page.batchSpin()->setValue(4);
        QSignalSpy ended(&page, &DistributedRunPage::runEnded);
        QSignalSpy progress(&page, &DistributedRunPage::stepProgress);
        QVERIFY(page.start());
        QVERIFY(ended.wait(kBackgroundWorkTimeoutMs));
        QVERIFY2(page.state() == DistributedRunPage::State::Finished, qPrintable(page.statusText()));
        QVERIFY(!progress.isEmpty());
        QVERIFY(page.results());
        QCOMPARE(page.results()->layout, QStringLiteral("tp"));
        QCOMPARE(page.results()->tp, 2);
        QCOMPARE(int(page.results()->steps.size()), 2);
        for (int row = 0; row < 2; ++row) {
            const distributed::DataParallelStepReport &step = page.results()->steps[std::size_t(row)];
            QVERIFY(step.measured_bytes_per_rank > 0);
            QCOMPARE(step.measured_bytes_per_rank, step.predicted_bytes_per_rank);
            QCOMPARE(page.stepTable()->item(row, 5)->text(), QStringLiteral("✓"));
            QCOMPARE(page.stepTable()->item(row, 6)->text(), QStringLiteral("—"));  // TP collectives block
        }
        QSet<QString> purposes;
        for (int row = 0; row < page.trafficTable()->rowCount(); ++row) {
            const QString purpose = page.trafficTable()->item(row, 1)->text();
            if (!purpose.startsWith(QLatin1String("tp_")))
                continue;
            purposes << purpose;
            QCOMPARE(page.trafficTable()->item(row, 4)->text(), page.trafficTable()->item(row, 5)->text());
            QCOMPARE(page.trafficTable()->item(row, 6)->text(), QStringLiteral("✓"));
        }
        QCOMPARE(purposes, (QSet<QString>{"tp_forward", "tp_backward", "tp_embedding", "tp_lm_head", "tp_cross_entropy"}));
        QVERIFY(page.memoryTable()->item(3, 0)->text().contains(QLatin1String("activations")));
        QVERIFY(page.summaryText().contains(QLatin1String("tp 2")));
        QVERIFY(page.timelineChart()->isHidden());
        QVERIFY(page.pipelinePanel()->isHidden());
#endif
    }

    // Issue 33: a 1F1B pipeline (pp = 2, m = 4) started from the page: every pp send and receive
    // carries the engine's bytes, and the last step's Gantt chart shows each rank's forwards and
    // backwards with the measured bubble beside (p − 1)/(m + p − 1) = 1/5.
    void runsAOneFOneBPipelineAndShowsTheBubble()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        DistributedRunPage page;
        page.resize(1280, 720);
        page.setLaunchers(QStringLiteral(LSE_MPIEXEC), QStringLiteral(LSE_CLI_PATH));
        page.setPresetConfig(twoLayerTestConfig());
        page.setCustomText(testText());
        page.parallelismBox()->setCurrentIndex(int(DistributedParallelism::Pipeline));
        page.ranksSpin()->setValue(2);
        page.scheduleBox()->setCurrentIndex(1);
        page.microBatchesSpin()->setValue(4);
        page.stepsSpin()->setValue(2);
        page.batchSpin()->setValue(8);
        QSignalSpy ended(&page, &DistributedRunPage::runEnded);
        QVERIFY(page.start());
        QVERIFY(ended.wait(kBackgroundWorkTimeoutMs));
        QVERIFY2(page.state() == DistributedRunPage::State::Finished, qPrintable(page.statusText()));
        QVERIFY(page.results());
        QCOMPARE(page.results()->layout, QStringLiteral("pp"));
        QVERIFY(page.results()->pipeline);
        const distributed::MeasuredPipelineRun &run = *page.results()->pipeline;
        QVERIFY(run.schedule == parallel::PipelineScheduleKind::OneFOneB);
        QCOMPARE(run.stages, 2);
        QCOMPARE(run.micro_batches, 4);
        QCOMPARE(int(run.passes.size()), 2 * 2 * 4);  // every rank: a forward and a backward per micro-batch
        QCOMPARE(run.bubble.formula, 1.0 / 5.0);
        int pp_rows = 0;
        for (int row = 0; row < page.trafficTable()->rowCount(); ++row) {
            const QString purpose = page.trafficTable()->item(row, 1)->text();
            if (purpose != QLatin1String("pp_send") && purpose != QLatin1String("pp_recv"))
                continue;
            ++pp_rows;
            QCOMPARE(page.trafficTable()->item(row, 4)->text(), page.trafficTable()->item(row, 5)->text());
            QCOMPARE(page.trafficTable()->item(row, 6)->text(), QStringLiteral("✓"));
        }
        QCOMPARE(pp_rows, 4);  // each rank sends one way and receives the other
        for (const distributed::DataParallelStepReport &step : page.results()->steps) {
            QVERIFY(step.measured_bytes_per_rank > 0);
            QCOMPARE(step.measured_bytes_per_rank, step.predicted_bytes_per_rank);
        }
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(page.pipelinePanel()->isVisible());
        QVERIFY(page.timelineChart()->isHidden());
        // Stage 0's own parameters, gradients and moments equal the engine's for that stage; the
        // stage inputs it keeps have no engine figure (stage 0 keeps none).
        QVERIFY(page.memoryTable()->isVisible());
        for (int row = 0; row < 3; ++row)
            QCOMPARE(page.memoryTable()->item(row, 3)->text(), QStringLiteral("✓"));
        QCOMPARE(page.memoryTable()->item(3, 2)->text(), QStringLiteral("—"));
        QCOMPARE(page.results()->stage_inputs_bytes, std::optional<double>(0.0));
        QVERIFY(page.charts().contains(page.pipelinePanel()->chart()));
        int forward = 0, backward = 0;
        QSet<double> rows;
        for (const ChartRect &rect : page.pipelinePanel()->chart()->data().rects) {
            forward += rect.group == QLatin1String("forward") ? 1 : 0;
            backward += rect.group.startsWith(QLatin1String("backward")) ? 1 : 0;
            rows << (rect.y0 + rect.y1) / 2;
        }
        QCOMPARE(forward, 8);
        QCOMPARE(backward, 8);
        QCOMPARE(rows.size(), 2);
        const QString bubble = page.pipelinePanel()->summaryText();
        QVERIFY2(bubble.contains(QStringLiteral("(p − 1)/(m + p − 1)")) && bubble.contains(QLatin1String("20.0")), qPrintable(bubble));
        QVERIFY2(bubble.contains(QLatin1String("measured")), qPrintable(bubble));
        // Beside the editor at 1024×768: the rank, the purpose and both byte counts stay whole.
        page.resize(520, 720);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
        const QStringList narrow = lse::gui::test::keyColumnProblems("520 px", page.trafficTable());
        QVERIFY2(narrow.isEmpty(), qPrintable(narrow.join("\n")));
        page.resize(1280, 720);

        // Look at it: presentation at 1280×720, in English and Chinese.
        page.setPresentation(true);
        for (const QString &language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
            MainWindow::installLanguage(language);
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
            const QString stem = QStringLiteral("distributed_run_pp_%1").arg(language);
            QVERIFY(page.grab().save(QDir::temp().filePath(stem + QStringLiteral(".png"))));
            QVERIFY(page.pipelinePanel()->chart()->grab().save(QDir::temp().filePath(stem + QStringLiteral("_gantt.png"))));
        }
        MainWindow::installLanguage(QStringLiteral("en"));
#endif
    }

    void showsTheCliRefusal()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        // A text shorter than one training window: the ranks refuse it (exit 2), the page says why.
        DistributedRunPage page;
        page.setLaunchers(QStringLiteral(LSE_MPIEXEC), QStringLiteral(LSE_CLI_PATH));
        page.setPresetConfig(tinyTestConfig());
        page.setCustomText(QStringLiteral("a cat"));
        QSignalSpy ended(&page, &DistributedRunPage::runEnded);
        QVERIFY(page.start());
        QVERIFY(ended.wait(kBackgroundWorkTimeoutMs));
        QCOMPARE(page.state(), DistributedRunPage::State::Failed);
        QVERIFY2(page.statusText().contains(QLatin1String("data_path")), qPrintable(page.statusText()));
        QVERIFY2(!page.statusText().contains(QLatin1String("Primary job")), qPrintable(page.statusText()));
        QVERIFY(!page.results());
#endif
    }

    void cancelStopsTheRunWithNoRankLeft()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        DistributedRunPage page;
        page.setLaunchers(QStringLiteral(LSE_MPIEXEC), QStringLiteral(LSE_CLI_PATH));
        page.setPresetConfig(tinyTestConfig());
        page.setCustomText(testText());
        page.stepsSpin()->setValue(100000);
        page.batchSpin()->setValue(8);
        QSignalSpy progress(&page, &DistributedRunPage::stepProgress);
        QSignalSpy ended(&page, &DistributedRunPage::runEnded);
        QVERIFY(page.start());
        QVERIFY(progress.wait(kBackgroundWorkTimeoutMs));  // the ranks are training
        const qint64 launcher = page.launcherProcessId();
        QVERIFY(launcher > 0);
        const QList<qint64> ranks = childProcesses(launcher);
        QVERIFY2(ranks.size() >= 2, qPrintable(QString::number(ranks.size())));
        page.cancel();
        QVERIFY(ended.count() == 1 || ended.wait(kBackgroundWorkTimeoutMs));
        QCOMPARE(page.state(), DistributedRunPage::State::Cancelled);
        QVERIFY(page.statusText().contains(QLatin1String("Cancelled")));
        QCOMPARE(page.launcherProcessId(), 0);
        QVERIFY(!processRunning(launcher));
        for (qint64 rank : ranks)
            QVERIFY2(!processRunning(rank), qPrintable(QStringLiteral("rank process %1 outlived mpiexec").arg(rank)));
        QVERIFY(page.startButton()->isEnabled());
#endif
    }
};

QTEST_MAIN(TestDistributedRunPage)
#include "test_distributed_run_page.moc"
