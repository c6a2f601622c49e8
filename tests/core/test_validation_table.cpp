// SPDX-License-Identifier: GPL-3.0-or-later
// The validation table (core/validation/validation_table.h): every shipped run predicted, each
// error recomputed from its row, the mean and worst from the rows, and leave-one-paper-out fitted
// on the other paper and scored on the held-out paper's runs only. No error bound is asserted: the
// bound is a benchmark figure in docs/validation.md (issue 17), not something to tune a test against.
#include "hardware/hardware_catalog.h"
#include "validation/validation_table.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <set>

using namespace lse;

namespace {

constexpr const char *kNarayanan = "Narayanan et al. 2021";
constexpr const char *kKorthikanti = "Korthikanti et al. 2022";

bool close(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

struct ErrorSummary {
    double mean = 0;
    double worst = 0;
    std::string worst_id;
};

ErrorSummary summaryOfRows(const std::vector<ValidationRow> &rows)
{
    ErrorSummary summary;
    for (const ValidationRow &row : rows) {
        summary.mean += std::abs(row.error);
        if (std::abs(row.error) > summary.worst) {
            summary.worst = std::abs(row.error);
            summary.worst_id = row.id;
        }
    }
    summary.mean /= double(rows.size());
    return summary;
}

std::vector<PublishedRun> runsOfPaper(const std::string &paper)
{
    std::vector<PublishedRun> runs;
    for (const PublishedRun &run : builtinPublishedRuns())
        if (run.paper == paper)
            runs.push_back(run);
    return runs;
}

std::vector<PublishedRun> a100Runs()
{
    std::vector<PublishedRun> runs;
    for (const PublishedRun &run : builtinPublishedRuns())
        if (run.scenario.cluster.accelerator.id == "a100-sxm-80gb")
            runs.push_back(run);
    return runs;
}

}  // namespace

class TestValidationTable : public QObject {
    Q_OBJECT

private slots:
    void eachRunNamesItsPaper()
    {
        std::set<std::string> papers;
        for (const PublishedRun &run : builtinPublishedRuns()) {
            QVERIFY2(!run.paper.empty(), run.id.c_str());
            // The A100 papers' runs take their paper from the source; later sources name it.
            if (run.paper == kNarayanan || run.paper == kKorthikanti)
                QVERIFY(run.source.rfind(run.paper, 0) == 0);
            papers.insert(run.paper);
        }
        QCOMPARE(papers.size(), std::size_t(11));  // 2 A100 papers, 9 H100-class sources
        QCOMPARE(runsOfPaper(kNarayanan).size(), std::size_t(10));
        QCOMPARE(runsOfPaper(kKorthikanti).size(), std::size_t(8));
    }

    void paperOfSource_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("paper");
        QTest::addRow("parenthesis") << "Narayanan et al. 2021 (SC'21, arXiv:2104.04473) Table 1"
                                     << "Narayanan et al. 2021";
        QTest::addRow("title") << "Korthikanti et al. 2022 'Reducing Activation Recomputation'"
                               << "Korthikanti et al. 2022";
        QTest::addRow("comma") << "Smith et al., 2023, Table 2" << "Smith et al., 2023";
        QTest::addRow("no author") << "NVIDIA blog post" << "NVIDIA blog post";
    }
    void paperOfSource()
    {
        QFETCH(QString, source);
        QFETCH(QString, paper);
        QCOMPARE(QString::fromStdString(lse::paperOfSource(source.toStdString())), paper);
    }

    // A run's "paper" key, when present, names its paper; it must be a string.
    void explicitPaperKeyWins()
    {
        QFile file(QStringLiteral(":/validation/published_runs.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        QJsonArray runs = root.value("runs").toArray();
        QJsonObject first = runs.at(0).toObject();
        first.insert("paper", "Someone et al. 2030");
        runs.replace(0, first);
        root.insert("runs", runs);
        const Result<std::vector<PublishedRun>> parsed = parsePublishedRuns(QJsonDocument(root).toJson());
        QVERIFY2(parsed.ok(), formatProblems(parsed.problems()).c_str());
        QCOMPARE(parsed->at(0).paper, std::string("Someone et al. 2030"));
        QCOMPARE(parsed->at(1).paper, std::string(kNarayanan));

        first.insert("paper", 5);
        runs.replace(0, first);
        root.insert("runs", runs);
        const Result<std::vector<PublishedRun>> wrong = parsePublishedRuns(QJsonDocument(root).toJson());
        QVERIFY(!wrong.ok());
        QCOMPARE(wrong.problems().front().field, std::string("runs[0].paper"));
    }

    void tableHasEveryShippedRunWithItsErrorRecomputed()
    {
        const std::vector<PublishedRun> &runs = builtinPublishedRuns();
        const Result<ValidationTable> table = validationTable(runs);
        QVERIFY2(table.ok(), formatProblems(table.problems()).c_str());
        QCOMPARE(table->rows.size(), std::size_t(57));
        QCOMPARE(table->rows.size(), runs.size());
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const ValidationRow &row = table->rows[i];
            QCOMPARE(row.id, runs[i].id);
            QCOMPARE(row.paper, runs[i].paper);
            QCOMPARE(row.published_seconds, runs[i].publishedIterationSeconds());
            QVERIFY(row.predicted_seconds > 0);
            QCOMPARE(row.predicted_seconds, row.prediction.total_seconds);
            QVERIFY(close(row.error, (row.predicted_seconds - row.published_seconds) / row.published_seconds));
            QCOMPARE(row.predicted_mfu, row.prediction.mfu);
            QCOMPARE(row.predicted_hfu, row.prediction.hfu);
        }
        const ErrorSummary summary = summaryOfRows(table->rows);
        QVERIFY(close(table->mean_absolute_error, summary.mean));
        QCOMPARE(table->worst_absolute_error, summary.worst);
        QCOMPARE(table->worst_id, summary.worst_id);
    }

    // Given factors replace every run's catalog factors.
    void givenFactorsApplyToEveryRun()
    {
        const std::vector<PublishedRun> runs = a100Runs();
        EfficiencyFactors slow = runs.front().scenario.cluster.accelerator.efficiency;
        slow.gemm_peak_fraction /= 2;
        const Result<ValidationTable> catalog = validationTable(runs);
        const Result<ValidationTable> halved = validationTable(runs, slow);
        QVERIFY(catalog.ok() && halved.ok());
        for (std::size_t i = 0; i < catalog->rows.size(); ++i) {
            QVERIFY(halved->rows[i].predicted_seconds > catalog->rows[i].predicted_seconds);
            QCOMPARE(halved->rows[i].prediction.efficiency.gemm_peak_fraction, slow.gemm_peak_fraction);
        }
    }

    void rejectedRunIsNamed()
    {
        std::vector<PublishedRun> runs{builtinPublishedRuns().at(3)};
        runs.front().scenario.training.parallel.tp = 3;
        const Result<ValidationTable> table = validationTable(runs);
        QVERIFY(!table.ok());
        const Problem &problem = table.problems().front();
        QVERIFY2(problem.field.rfind("runs[0].", 0) == 0, problem.field.c_str());
        QVERIFY2(problem.message.find(runs.front().id) != std::string::npos, problem.message.c_str());
    }

    // On one accelerator (the fit refuses a mix): the A100 runs of the two Megatron papers.
    void leaveOnePaperOutHoldsOutEachPaperOnce()
    {
        const std::vector<PublishedRun> runs = a100Runs();
        const EfficiencyFactors start = runs.front().scenario.cluster.accelerator.efficiency;
        const Result<std::vector<LeaveOnePaperOut>> entries = leaveOnePaperOut(runs, start);
        QVERIFY2(entries.ok(), formatProblems(entries.problems()).c_str());
        QCOMPARE(entries->size(), std::size_t(2));
        QCOMPARE(entries->at(0).held_out_paper, std::string(kNarayanan));
        QCOMPARE(entries->at(1).held_out_paper, std::string(kKorthikanti));
        for (const LeaveOnePaperOut &entry : *entries) {
            const std::vector<PublishedRun> held_out = runsOfPaper(entry.held_out_paper);
            // Scored on the held-out paper's runs only, with the factors fitted on the others.
            QCOMPARE(entry.held_out.rows.size(), held_out.size());
            for (const ValidationRow &row : entry.held_out.rows)
                QCOMPARE(row.paper, entry.held_out_paper);
            const Result<ValidationTable> recomputed = validationTable(held_out, entry.fitted_on_others);
            QVERIFY(recomputed.ok());
            QVERIFY(close(entry.mean_absolute_error, recomputed->mean_absolute_error));
            QCOMPARE(entry.worst_absolute_error, recomputed->worst_absolute_error);
            const ErrorSummary summary = summaryOfRows(entry.held_out.rows);
            QVERIFY(close(entry.mean_absolute_error, summary.mean));
            // Fitted on the other paper: its source lists those runs and none of the held-out ones.
            const std::string &source = entry.fitted_on_others.source;
            QVERIFY2(source.find("fitted by calibrateEfficiency to " + std::to_string(runs.size() - held_out.size()))
                         == 0,
                     source.c_str());
            for (const PublishedRun &run : held_out)
                QVERIFY2(source.find(run.id + ",") == std::string::npos && source.find(run.id + ";") == std::string::npos,
                         run.id.c_str());
        }
        // The two fits saw different runs, so they differ.
        QVERIFY(!(entries->at(0).fitted_on_others == entries->at(1).fitted_on_others));
    }

    void leaveOnePaperOutNeedsTwoPapers()
    {
        const std::vector<PublishedRun> one_paper = runsOfPaper(kKorthikanti);
        const Result<std::vector<LeaveOnePaperOut>> entries =
            leaveOnePaperOut(one_paper, one_paper.front().scenario.cluster.accelerator.efficiency);
        QVERIFY(!entries.ok());
        QCOMPARE(entries.problems().front().field, std::string("runs"));
        QCOMPARE(entries.problems().front().rule, std::string("papers"));
    }
};

QTEST_GUILESS_MAIN(TestValidationTable)
#include "test_validation_table.moc"
