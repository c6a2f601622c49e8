// SPDX-License-Identifier: GPL-3.0-or-later
// The Pipeline page's measured run (issue 33): the JSON of `train --pp P --json` loads into a Gantt
// chart of every rank's passes with the measured bubble beside (p-1)/(m+p-1), the simulation beside
// it switches to the run's schedule, p and m, and a file that is not a pipeline run is refused
// with the field named, keeping what was shown.

#include "charts/chart_view.h"
#include "distributed/pipeline_run_json.h"
#include "pages/parallel/pipeline_measured_panel.h"
#include "pages/parallel/pipeline_page.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace lse;
using namespace lse::gui;

namespace {

// A 2-stage, 2-micro-batch GPipe step: rank 0 F0 F1 . . B0 B1... as a run writes it (seconds).
QJsonObject passJson(int rank, int micro_batch, const char *pass, double start, double end)
{
    return QJsonObject{{"rank", rank}, {"micro_batch", micro_batch}, {"pass", pass}, {"start_seconds", start},
                       {"end_seconds", end}};
}

QByteArray runJson()
{
    const QJsonArray schedule{
        passJson(0, 0, "forward", 0.000, 0.001), passJson(0, 1, "forward", 0.001, 0.002),
        passJson(0, 0, "backward", 0.005, 0.007), passJson(0, 1, "backward", 0.007, 0.009),
        passJson(1, 0, "forward", 0.001, 0.002), passJson(1, 1, "forward", 0.002, 0.003),
        passJson(1, 0, "backward", 0.003, 0.005), passJson(1, 1, "backward", 0.005, 0.007)};
    const QJsonObject step{{"step", 3}, {"schedule", schedule},
                           {"bubble_fraction", QJsonObject{{"measured", 0.3333}, {"formula", 1.0 / 3.0}}}};
    return QJsonDocument(QJsonObject{{"pp", 2}, {"schedule", "gpipe"}, {"micro_batches", 2},
                                     {"steps", QJsonArray{step}}})
        .toJson();
}

}  // namespace

class TestPipelineMeasured : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString write(const char *name, const QByteArray &text)
    {
        const QString path = dir_.filePath(QString::fromLatin1(name));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(path));
        file.write(text);
        return path;
    }

private slots:
    void readsTheRunsLastStep()
    {
        Result<distributed::MeasuredPipelineRun> run = distributed::readMeasuredPipelineRun(runJson(), "run.json");
        QVERIFY(run.ok());
        QCOMPARE(run->stages, 2);
        QCOMPARE(run->micro_batches, 2);
        QCOMPARE(run->step, 3);
        QCOMPARE(int(run->passes.size()), 8);
        // Makespan 9 ms; rank 0 busy 6 ms, rank 1 busy 6 ms: idle 3/9 each.
        QVERIFY(std::abs(run->bubble.measured - 1.0 / 3.0) < 1e-12);
        QCOMPARE(run->bubble.formula, 1.0 / 3.0);
        for (const QByteArray &bad : {QByteArray("[]"), QByteArray("{\"pp\": 0}"),
                                      QByteArray("{\"pp\": 2, \"micro_batches\": 2, \"schedule\": \"zb\"}")})
            QVERIFY(!distributed::readMeasuredPipelineRun(bad, "bad.json").ok());
        QByteArray outOfRange = runJson();
        outOfRange.replace("\"rank\": 1", "\"rank\": 5");
        Result<distributed::MeasuredPipelineRun> refused = distributed::readMeasuredPipelineRun(outOfRange, "bad.json");
        QVERIFY(!refused.ok());
        QCOMPARE(QString::fromStdString(refused.problems().front().field), QStringLiteral("schedule[]"));
    }

    void pageShowsTheMeasuredChartBesideTheSimulation()
    {
        QVERIFY(dir_.isValid());
        PipelinePage page;
        page.resize(1024, 900);
        page.show();
        PipelineMeasuredPanel *panel = page.measuredPanel();
        QVERIFY(panel);
        QVERIFY(!panel->chart()->isVisibleTo(&page));
        QVERIFY(panel->summaryText().contains(QStringLiteral("--pp")));

        QString error;
        QVERIFY2(panel->loadRun(write("run.json", runJson()), &error), qPrintable(error));
        QVERIFY(panel->chart()->isVisibleTo(&page));
        // The simulation beside it is the run's schedule, p and m.
        QVERIFY(page.timeline().schedule == parallel::PipelineScheduleKind::GPipe);
        QCOMPARE(page.timeline().stages, 2);
        QCOMPARE(page.timeline().micro_batches, 2);
        const ChartData &data = panel->chart()->data();
        int passes = 0, idle = 0;
        for (const ChartRect &rect : data.rects)
            (rect.group.startsWith(QLatin1String("idle")) ? idle : passes) += 1;
        QCOMPARE(passes, 8);
        QCOMPARE(idle, 3);  // rank 0: 2-5 ms; rank 1: 0-1 and 7-9 ms
        QCOMPARE(data.y_categories, (QStringList{"rank 0", "rank 1"}));
        QVERIFY2(panel->summaryText().contains(QStringLiteral("33.3")), qPrintable(panel->summaryText()));

        // A file that is not a pipeline run: refused, naming the field; the loaded run stays.
        QVERIFY(!panel->loadRun(write("dp.json", "{\"ranks\": 2, \"mode\": \"zero1\", \"steps\": []}"), &error));
        QVERIFY2(error.contains(QStringLiteral("pp")), qPrintable(error));
        QVERIFY(panel->run().has_value());
        QVERIFY(panel->summaryText().contains(error));
    }
};

QTEST_MAIN(TestPipelineMeasured)
#include "test_pipeline_measured.moc"
