// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli validate`: the table of every shipped run (text and JSON), the mean and worst
// error recomputed from the printed rows, the fit to all runs and leave-one-paper-out, and bad
// flags exit 2 naming the flag.
#include "validation/published_runs.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>

#include "cli_run.h"

using lse::test::Run;
using lse::test::runCli;

namespace {

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

QJsonObject jsonOf(const Run &run)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(run.out, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON: %s", qPrintable(error.errorString()));
    return document.object();
}

// Mean and worst |error| of the "runs" rows, and the worst row's id.
struct RowErrors {
    double mean = 0;
    double worst = 0;
    QString worst_id;
};
RowErrors errorsOfRows(const QJsonArray &rows)
{
    RowErrors errors;
    for (const QJsonValue &value : rows) {
        const double error = std::abs(value.toObject().value("error").toDouble());
        errors.mean += error / double(rows.size());
        if (error > errors.worst) {
            errors.worst = error;
            errors.worst_id = value.toObject().value("id").toString();
        }
    }
    return errors;
}

}  // namespace

class TestCliValidate : public QObject {
    Q_OBJECT

private slots:
    void jsonHasEveryRunAndErrorsFromTheRows()
    {
        const Run run = runCli({"validate", "--json"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY2(run.err.isEmpty(), run.err.constData());
        const QJsonObject root = jsonOf(run);
        const QJsonArray rows = root.value("runs").toArray();
        QCOMPARE(rows.size(), 18);
        const std::vector<lse::PublishedRun> &runs = lse::builtinPublishedRuns();
        for (int i = 0; i < rows.size(); ++i) {
            const QJsonObject row = rows.at(i).toObject();
            for (const char *key : {"id", "paper", "published_seconds", "predicted_seconds", "error", "predicted_mfu",
                                    "predicted_hfu", "step_breakdown"})
                QVERIFY2(row.contains(key), key);
            QCOMPARE(row.value("id").toString().toStdString(), runs[std::size_t(i)].id);
            QCOMPARE(row.value("paper").toString().toStdString(), runs[std::size_t(i)].paper);
            const double published = row.value("published_seconds").toDouble();
            const double predicted = row.value("predicted_seconds").toDouble();
            QVERIFY(close(row.value("error").toDouble(), (predicted - published) / published));
            // The breakdown's parts add up to the predicted step.
            const QJsonObject breakdown = row.value("step_breakdown").toObject();
            QVERIFY(!breakdown.isEmpty());
            double parts = 0;
            for (const QJsonValue &seconds : breakdown)
                parts += seconds.toDouble();
            QVERIFY2(std::abs(parts - predicted) <= 1e-9 * predicted, qPrintable(row.value("id").toString()));
        }
        const RowErrors errors = errorsOfRows(rows);
        QVERIFY(close(root.value("mean_absolute_error").toDouble(), errors.mean));
        QCOMPARE(root.value("worst_absolute_error").toDouble(), errors.worst);
        QCOMPARE(root.value("worst_id").toString(), errors.worst_id);
        QVERIFY(!root.contains("fit"));
        QVERIFY(!root.contains("leave_one_paper_out"));
    }

    void textPrintsEveryRunAndTheSummary()
    {
        const Run run = runCli({"validate"});
        QCOMPARE(run.exit_code, 0);
        for (const lse::PublishedRun &expected : lse::builtinPublishedRuns())
            QVERIFY2(run.out.contains(QByteArray::fromStdString(expected.id)), expected.id.c_str());
        for (const char *header : {"GPUs", "tp/pp/dp", "published s", "predicted s", "error %", "MFU %"})
            QVERIFY2(run.out.contains(header), header);
        // The summary line carries the same figures as the JSON.
        const QJsonObject root = jsonOf(runCli({"validate", "--json"}));
        const QString summary = QStringLiteral("mean |error| %1 %, worst %2 % (%3)")
                                    .arg(100 * root.value("mean_absolute_error").toDouble(), 0, 'f', 1)
                                    .arg(100 * root.value("worst_absolute_error").toDouble(), 0, 'f', 1)
                                    .arg(root.value("worst_id").toString());
        QVERIFY2(run.out.contains(summary.toUtf8()), qPrintable(summary));
    }

    void fitAndLeaveOnePaperOut()
    {
        const Run run = runCli({"validate", "--json", "--fit", "--leave-one-paper-out"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = jsonOf(run);
        QCOMPARE(root.value("runs").toArray().size(), 18);
        const QJsonObject fit = root.value("fit").toObject();
        for (const char *key : {"gemm_peak_fraction", "gemm_fixed_cost_depth", "memory_bandwidth_fraction",
                                "flash_attention_fraction", "source", "mean_absolute_error", "worst_absolute_error"})
            QVERIFY2(fit.contains(key), key);
        QVERIFY(fit.value("source").toString().startsWith("fitted by calibrateEfficiency to 18 runs"));
        QVERIFY(fit.value("worst_absolute_error").toDouble() >= fit.value("mean_absolute_error").toDouble());
        const QJsonArray by_paper = root.value("leave_one_paper_out").toArray();
        QCOMPARE(by_paper.size(), 2);
        int held_out_runs = 0;
        for (const QJsonValue &value : by_paper) {
            const QJsonObject entry = value.toObject();
            QVERIFY(entry.value("held_out_paper").toString().contains("et al."));
            QVERIFY(entry.contains("fitted_on_others") && entry.contains("mean_absolute_error")
                    && entry.contains("worst_absolute_error"));
            held_out_runs += int(entry.value("held_out_ids").toArray().size());
        }
        QCOMPARE(held_out_runs, 18);

        const Run text = runCli({"validate", "--fit", "--leave-one-paper-out"});
        QCOMPARE(text.exit_code, 0);
        QVERIFY(text.out.contains("fitted to all 18 runs"));
        QVERIFY(text.out.contains("Narayanan et al. 2021 held out"));
        QVERIFY(text.out.contains("Korthikanti et al. 2022 held out"));
    }

    void badArgumentsExitTwoNamingTheFlag()
    {
        const Run unknown = runCli({"validate", "--fitt"});
        QCOMPARE(unknown.exit_code, 2);
        QVERIFY(unknown.out.isEmpty());
        QVERIFY2(unknown.err.contains("fitt"), unknown.err.constData());
        const Run value = runCli({"validate", "--json=yes"});
        QCOMPARE(value.exit_code, 2);
        QVERIFY2(value.err.contains("json"), value.err.constData());
        const Run positional = runCli({"validate", "extra"});
        QCOMPARE(positional.exit_code, 2);
        QVERIFY2(positional.err.contains("extra"), positional.err.constData());
        const Run help = runCli({"validate", "--help"});
        QCOMPARE(help.exit_code, 0);
        QVERIFY(help.out.contains("Usage: llm-explorer-cli validate"));
        QVERIFY(help.out.contains("--leave-one-paper-out"));
        const Run usage = runCli({"--help"});
        QVERIFY(usage.out.contains("validate"));
    }
};

QTEST_GUILESS_MAIN(TestCliValidate)
#include "test_cli_validate.moc"
