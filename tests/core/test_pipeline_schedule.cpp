// SPDX-License-Identifier: GPL-3.0-or-later
// Pipeline schedules: the measured bubble of the simulated timeline against the papers' formulas
// (GPipe §2.3, Narayanan et al. 2021 §2.2, Qi et al. 2023 §3), peak in-flight micro-batches, and
// that every task waits for its dependency.

#include "parallel/pipeline_schedule.h"

#include <QTest>

#include <cmath>
#include <map>
#include <tuple>

using namespace lse;
using namespace lse::parallel;

Q_DECLARE_METATYPE(lse::parallel::PipelineScheduleKind)

namespace {

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

// Checks stage exclusivity and dependencies from the task list alone.
void verifyDependencies(const PipelineTimeline &t, const PipelineTimes &times)
{
    using Key = std::tuple<int, int, int>;  // virtual layer, micro-batch, kind
    std::map<Key, const PipelineTask *> by_key;
    const int layers = t.stages * t.chunks;
    const auto layer = [&](const PipelineTask &task) { return task.chunk * t.stages + task.stage; };
    for (const PipelineTask &task : t.tasks) {
        const int kind = task.kind == WorkKind::BackwardInput ? int(WorkKind::Backward) : int(task.kind);
        QVERIFY(by_key.emplace(Key{layer(task), task.micro_batch, kind}, &task).second);  // no duplicates
    }
    const int per_micro_batch = t.schedule == PipelineScheduleKind::ZeroBubble ? 3 : 2;
    QCOMPARE(int(t.tasks.size()), t.stages * t.micro_batches * t.chunks * per_micro_batch);
    std::vector<double> stage_free(std::size_t(t.stages), 0.0);
    int previous_stage = -1;
    for (const PipelineTask &task : t.tasks) {
        if (task.stage != previous_stage)
            stage_free[std::size_t(task.stage)] = 0;
        previous_stage = task.stage;
        QVERIFY(task.start_seconds >= stage_free[std::size_t(task.stage)] - 1e-12);  // one task at a time
        stage_free[std::size_t(task.stage)] = task.end_seconds;
        const double input = times.backward_input_seconds > 0 ? times.backward_input_seconds : times.backward_seconds / 2;
        const double weight = times.backward_weight_seconds > 0 ? times.backward_weight_seconds : times.backward_seconds / 2;
        const double expected = task.kind == WorkKind::Forward           ? times.forward_seconds
                                : task.kind == WorkKind::Backward        ? times.backward_seconds
                                : task.kind == WorkKind::BackwardInput ? input
                                                                         : weight;
        QVERIFY(near(task.end_seconds - task.start_seconds, expected));
        const int l = layer(task);
        const PipelineTask *dependency = nullptr;
        if (task.kind == WorkKind::Forward && l > 0)
            dependency = by_key.at(Key{l - 1, task.micro_batch, int(WorkKind::Forward)});
        if (task.kind == WorkKind::Backward || task.kind == WorkKind::BackwardInput)
            dependency = l == layers - 1 ? by_key.at(Key{l, task.micro_batch, int(WorkKind::Forward)})
                                         : by_key.at(Key{l + 1, task.micro_batch, int(WorkKind::Backward)});
        if (task.kind == WorkKind::BackwardWeight)
            dependency = by_key.at(Key{l, task.micro_batch, int(WorkKind::Backward)});
        if (dependency)
            QVERIFY(task.start_seconds >= dependency->end_seconds - 1e-12);
    }
}

}  // namespace

class TestPipelineSchedule : public QObject {
    Q_OBJECT
private slots:
    void bubbleMatchesThePapers_data()
    {
        QTest::addColumn<PipelineScheduleKind>("schedule");
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("v");
        QTest::addColumn<double>("bubble");  // published closed form, idle / busy
        // The range p = 2..16, m = p..8p, plus p = 1 and m < p.
        std::vector<std::pair<int, int>> shapes;
        for (int p = 2; p <= 16; ++p)
            for (int m = p; m <= 8 * p; ++m)
                shapes.emplace_back(p, m);
        for (int p : {1, 2, 4, 8})
            for (int m : {1, 3})
                shapes.emplace_back(p, m);
        for (const auto &[p, m] : shapes) {
                // GPipe §2.3 and Narayanan et al. 2021 §2.2.1: (p - 1) / m.
                QTest::addRow("GPipe p=%d m=%d", p, m) << PipelineScheduleKind::GPipe << p << m << 1 << double(p - 1) / m;
                QTest::addRow("1F1B p=%d m=%d", p, m) << PipelineScheduleKind::OneFOneB << p << m << 1 << double(p - 1) / m;
                // Narayanan et al. 2021 §2.2.2: (p - 1) / (v m).
                if (m % p == 0)
                    for (int v : {2, 3, 4})
                        QTest::addRow("interleaved p=%d m=%d v=%d", p, m, v)
                            << PipelineScheduleKind::Interleaved << p << m << v << double(p - 1) / (v * m);
            }
    }
    void bubbleMatchesThePapers()
    {
        QFETCH(PipelineScheduleKind, schedule);
        QFETCH(int, p);
        QFETCH(int, m);
        QFETCH(int, v);
        QFETCH(double, bubble);
        // t_b = 2 t_f (Narayanan et al. 2021 §3.2); per-chunk times for interleaved.
        const PipelineTimes times{1.0 / v, 2.0 / v};
        const auto timeline = simulatePipeline(schedule, p, m, v, times);
        QVERIFY2(timeline.ok(), timeline.ok() ? "" : timeline.problems().front().message.c_str());
        QVERIFY2(near(timeline->bubble_fraction, bubble),
                 qPrintable(QStringLiteral("measured %1, paper %2").arg(timeline->bubble_fraction).arg(bubble)));
        QVERIFY(near(timeline->analytic_bubble_fraction, bubble));
        QVERIFY(near(timeline->busy_seconds_per_stage, m * 3.0));
        QVERIFY(near(timeline->idle_share_of_makespan, bubble / (1 + bubble)));
        verifyDependencies(*timeline, times);
    }

    // GPipe keeps all m micro-batches' activations on every stage; 1F1B at most p - s on stage s
    // (Narayanan et al. 2021 §2.2.1).
    void peakInFlight()
    {
        for (int p : {2, 4, 8})
            for (int m : {8, 16}) {
                const auto gpipe = simulatePipeline(PipelineScheduleKind::GPipe, p, m, 1, {});
                const auto one = simulatePipeline(PipelineScheduleKind::OneFOneB, p, m, 1, {});
                const auto zb = simulatePipeline(PipelineScheduleKind::ZeroBubble, p, m, 1, {});
                for (int s = 0; s < p; ++s) {
                    QCOMPARE(gpipe->peak_in_flight_micro_batches[std::size_t(s)], m);
                    QCOMPARE(one->peak_in_flight_micro_batches[std::size_t(s)], p - s);
                    // ZB-H1 keeps 1F1B's activation memory (Qi et al. 2023 §3.1) and stage s
                    // defers s weight-gradient passes (+1: the W that runs right after its B).
                    QCOMPARE(zb->peak_in_flight_micro_batches[std::size_t(s)], p - s);
                    QCOMPARE(zb->peak_deferred_weight_passes[std::size_t(s)], s + 1);
                    QCOMPARE(one->peak_deferred_weight_passes[std::size_t(s)], 0);
                }
                const std::vector<double> bytes = activationMemoryPerStage(*one, 1e9);
                QCOMPARE(bytes.front(), p * 1e9);
                QCOMPARE(bytes.back(), 1e9);
            }
    }

    // Qi et al. 2023 §3.1: ZB-H1's bubble (p-1)(T_F + T_B - T_W) is a third of 1F1B's
    // (p-1)(T_F + T_B + T_W) when T_F = T_B = T_W.
    void zeroBubbleIsAThirdOfOneFOneB_data()
    {
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        for (int p : {2, 4, 8})
            for (int m : {8, 16, 24})
                QTest::addRow("p=%d m=%d", p, m) << p << m;
    }
    void zeroBubbleIsAThirdOfOneFOneB()
    {
        QFETCH(int, p);
        QFETCH(int, m);
        const PipelineTimes times{1.0, 2.0};  // B = W = 1 by default
        const auto zb = simulatePipeline(PipelineScheduleKind::ZeroBubble, p, m, 1, times);
        const auto one = simulatePipeline(PipelineScheduleKind::OneFOneB, p, m, 1, times);
        QVERIFY(zb.ok() && one.ok());
        const double zb_idle = zb->makespan_seconds - zb->busy_seconds_per_stage;
        const double one_idle = one->makespan_seconds - one->busy_seconds_per_stage;
        QVERIFY(near(one_idle, 3.0 * (p - 1)));
        QVERIFY2(std::abs(zb_idle - one_idle / 3.0) <= 1e-9,
                 qPrintable(QStringLiteral("ZB idle %1, 1F1B idle %2").arg(zb_idle).arg(one_idle)));
        QVERIFY(near(zb->analytic_bubble_fraction, double(p - 1) / (3.0 * m)));
        verifyDependencies(*zb, times);
    }

    // Qi et al. 2023 §3.1: (p-1)(T_F + T_B - T_W) for unequal passes too (T_W <= T_B, m >= p).
    void zeroBubbleFormulaForUnequalPasses_data()
    {
        QTest::addColumn<double>("f");
        QTest::addColumn<double>("b");
        QTest::addColumn<double>("w");
        QTest::addRow("W = B/2") << 1.0 << 1.0 << 0.5;
        QTest::addRow("B 1.2, W 0.8") << 1.0 << 1.2 << 0.8;
        QTest::addRow("F = 2") << 2.0 << 1.0 << 1.0;
    }
    void zeroBubbleFormulaForUnequalPasses()
    {
        QFETCH(double, f);
        QFETCH(double, b);
        QFETCH(double, w);
        for (int p : {2, 4, 8})
            for (int m : {8, 16}) {
                const PipelineTimes times{f, b + w, b, w};
                const auto zb = simulatePipeline(PipelineScheduleKind::ZeroBubble, p, m, 1, times);
                QVERIFY(zb.ok());
                const double idle = zb->makespan_seconds - zb->busy_seconds_per_stage;
                QVERIFY2(near(idle, (p - 1) * (f + b - w)),
                         qPrintable(QStringLiteral("p=%1 m=%2 idle %3").arg(p).arg(m).arg(idle)));
                QVERIFY(near(zb->bubble_fraction, zb->analytic_bubble_fraction));
                verifyDependencies(*zb, times);
            }
    }

    // Wherever core says the closed form applies, it is the measured bubble; ZB-H1 with m < p or
    // t_W > t_B is outside its derivation, and core must say so rather than offer it.
    void analyticBubbleHoldsWhereCoreSaysItApplies()
    {
        int outside = 0;
        for (PipelineScheduleKind schedule : {PipelineScheduleKind::GPipe, PipelineScheduleKind::OneFOneB,
                                              PipelineScheduleKind::Interleaved, PipelineScheduleKind::ZeroBubble})
            for (int p : {1, 2, 4, 8})
                for (int m : {1, 2, 3, 4, 8, 16})
                    for (double w : {0.5, 1.0, 1.5}) {
                        const bool interleaved = schedule == PipelineScheduleKind::Interleaved;
                        if (interleaved && m % p != 0)
                            continue;
                        const PipelineTimes times{1.0, 1.0 + w, 1.0, w};
                        const auto t = simulatePipeline(schedule, p, m, interleaved ? 2 : 1, times);
                        QVERIFY(t.ok());
                        const QString where = QStringLiteral("%1 p=%2 m=%3 w=%4")
                                                  .arg(QString::fromUtf8(toString(schedule).data()))
                                                  .arg(p)
                                                  .arg(m)
                                                  .arg(w);
                        if (t->analytic_bubble_applies)
                            QVERIFY2(near(t->bubble_fraction, t->analytic_bubble_fraction), qPrintable(where));
                        else
                            ++outside;
                        if (schedule == PipelineScheduleKind::ZeroBubble && p > 1 && m < p) {
                            QVERIFY2(!t->analytic_bubble_applies, qPrintable(where));
                            QVERIFY(!t->analytic_bubble_assumption.empty());
                        }
                    }
        QVERIFY(outside > 0);
        // The case from the issue: ZB-H1, p = 4, m = 2: measured and formula differ.
        const auto zb = simulatePipeline(PipelineScheduleKind::ZeroBubble, 4, 2, 1, PipelineTimes{1.0, 2.0});
        QVERIFY(zb.ok());
        QVERIFY(!zb->analytic_bubble_applies);
        QVERIFY(!near(zb->bubble_fraction, zb->analytic_bubble_fraction));
    }

    void invalidInputNamesTheField_data()
    {
        QTest::addColumn<PipelineScheduleKind>("schedule");
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("v");
        QTest::addColumn<double>("forward");
        QTest::addColumn<QString>("field");
        QTest::addRow("0 stages") << PipelineScheduleKind::OneFOneB << 0 << 4 << 1 << 1.0 << "stages";
        QTest::addRow("0 micro-batches") << PipelineScheduleKind::GPipe << 4 << 0 << 1 << 1.0 << "micro_batches";
        QTest::addRow("0 chunks") << PipelineScheduleKind::Interleaved << 4 << 8 << 0 << 1.0 << "chunks";
        QTest::addRow("interleaved 1 chunk") << PipelineScheduleKind::Interleaved << 4 << 8 << 1 << 1.0 << "chunks";
        QTest::addRow("interleaved m not a multiple of p") << PipelineScheduleKind::Interleaved << 4 << 6 << 2 << 1.0 << "micro_batches";
        QTest::addRow("1f1b with chunks") << PipelineScheduleKind::OneFOneB << 4 << 8 << 2 << 1.0 << "chunks";
        QTest::addRow("zero forward time") << PipelineScheduleKind::ZeroBubble << 4 << 8 << 1 << 0.0 << "forward_seconds";
        QTest::addRow("too many tasks") << PipelineScheduleKind::Interleaved << 1024 << 65536 << 2 << 1.0 << "micro_batches";
    }
    void invalidInputNamesTheField()
    {
        QFETCH(PipelineScheduleKind, schedule);
        QFETCH(int, p);
        QFETCH(int, m);
        QFETCH(int, v);
        QFETCH(double, forward);
        QFETCH(QString, field);
        const auto timeline = simulatePipeline(schedule, p, m, v, PipelineTimes{forward, 2.0});
        QVERIFY(!timeline.ok());
        QCOMPARE(QString::fromStdString(timeline.problems().front().field), field);
    }

    void namesRoundTrip()
    {
        for (int k = 0; k <= int(PipelineScheduleKind::ZeroBubble); ++k)
            QCOMPARE(pipelineScheduleFromString(toString(PipelineScheduleKind(k))),
                     std::optional<PipelineScheduleKind>(PipelineScheduleKind(k)));
        QCOMPARE(pipelineScheduleFromString("1F1B"), std::optional<PipelineScheduleKind>(PipelineScheduleKind::OneFOneB));
        QVERIFY(!pipelineScheduleFromString("pipedream"));
    }

    void largeScheduleFinishesQuickly()
    {
        const auto timeline = simulatePipeline(PipelineScheduleKind::Interleaved, 64, 1024, 4, {0.25, 0.5});
        QVERIFY(timeline.ok());
        QVERIFY(near(timeline->bubble_fraction, 63.0 / (4 * 1024)));
    }
};

QTEST_GUILESS_MAIN(TestPipelineSchedule)
#include "test_pipeline_schedule.moc"
