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
        QCOMPARE(rows.size(), 57);
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

    // Each accelerator is fitted on its own runs and held out source by source: the A100's two
    // papers, the H100 SXM's seven sources; an accelerator with one source says it cannot be.
    void fitAndLeaveOnePaperOut()
    {
        // A small fit budget: the structure does not depend on it, and the sanitizer build runs
        // the fits ten times slower (test_accelerator_validation checks the full fit).
        const Run run = runCli({"validate", "--json", "--fit", "--leave-one-paper-out", "--max-evaluations", "40"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = jsonOf(run);
        QCOMPARE(root.value("runs").toArray().size(), 57);
        int held_out_runs = 0, accelerators_with_runs = 0;
        for (const QJsonValue &accelerator_value : root.value("accelerators").toArray()) {
            const QJsonObject accelerator = accelerator_value.toObject();
            const QString id = accelerator.value("accelerator").toString();
            const int runs = int(accelerator.value("runs").toArray().size());
            ++accelerators_with_runs;
            const QJsonObject fit = accelerator.value("fit").toObject();
            for (const char *key : {"gemm_peak_fraction", "gemm_fixed_cost_depth", "memory_bandwidth_fraction",
                                    "flash_attention_fraction", "source", "mean_absolute_error", "worst_absolute_error"})
                QVERIFY2(fit.contains(key), key);
            QVERIFY2(fit.value("source").toString().startsWith(QStringLiteral("fitted by calibrateEfficiency to %1 runs").arg(runs)),
                     qPrintable(id));
            QVERIFY(fit.value("worst_absolute_error").toDouble() >= fit.value("mean_absolute_error").toDouble());
            const QJsonArray by_paper = accelerator.value("leave_one_paper_out").toArray();
            if (id == "a100-sxm-80gb") {
                QCOMPARE(runs, 18);
                QCOMPARE(by_paper.size(), 2);
            } else if (id == "h100-sxm") {
                QCOMPARE(runs, 34);
                QCOMPARE(by_paper.size(), 7);
            } else {
                QVERIFY2(by_paper.isEmpty(), qPrintable(id));
                QVERIFY(!accelerator.contains("held_out"));
            }
            int held_out_here = 0;
            for (const QJsonValue &value : by_paper) {
                const QJsonObject entry = value.toObject();
                QVERIFY(entry.contains("fitted_on_others") && entry.contains("mean_absolute_error")
                        && entry.contains("worst_absolute_error"));
                held_out_here += int(entry.value("held_out_ids").toArray().size());
            }
            if (!by_paper.isEmpty())
                QCOMPARE(held_out_here, runs);
            held_out_runs += held_out_here;
        }
        QCOMPARE(accelerators_with_runs, 4);
        QCOMPARE(held_out_runs, 52);
        QCOMPARE(root.value("held_out").toObject().value("runs").toInt(), 52);
        const double p90 = root.value("held_out").toObject().value("p90_absolute_error").toDouble();
        QVERIFY(p90 > 0 && p90 <= root.value("held_out").toObject().value("worst_absolute_error").toDouble());

        const Run text = runCli({"validate", "--fit", "--leave-one-paper-out", "--max-evaluations", "40"});
        QCOMPARE(runCli({"validate", "--fit", "--max-evaluations", "0"}).exit_code, 2);
        QVERIFY(runCli({"validate", "--max-evaluations", "many"}).err.contains("--max-evaluations"));
        QCOMPARE(text.exit_code, 0);
        QVERIFY(text.out.contains("fitted on its 18 runs"));
        QVERIFY(text.out.contains("Narayanan et al. 2021 (10 runs): mean |error|"));
        QVERIFY(text.out.contains("Korthikanti et al. 2022 (8 runs): mean |error|"));
        QVERIFY(text.out.contains("leave one source out: not possible, all its runs come from one source"));
        QVERIFY(text.out.contains("all 52 runs with a held-out prediction"));
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
