// SPDX-License-Identifier: GPL-3.0-or-later
// The Architecture page's "Choice by choice" tab offscreen: it shows core's comparison, applies a
// choice as one scenario edit, draws the MHA/GQA/MQA decode curves from the roofline, and runs the
// LayerNorm/RMSNorm timing in the background with cancel.

#include "background_timeout.h"
#include "architecture/design_choices.h"
#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "pages/architecture/architecture_page.h"
#include "pages/architecture/design_choices_section.h"
#include "pages/architecture/norm_timing_panel.h"
#include "pages/architecture/positional_encoding_section.h"
#include "scenario/scenario_json.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace lse;
using namespace lse::gui;

class TestDesignChoicesSection : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        scenario_ = defaultScenario();
        const Result<Estimate> result = lse::estimate(scenario_);
        QVERIFY(result.ok());
        estimate_ = *result;
    }

    void architecturePageHasBothTabs()
    {
        ArchitecturePage page;
        QStringList titles;
        for (int i = 0; i < page.tabs()->count(); ++i)
            titles << page.tabs()->tabText(i);
        QVERIFY(titles.contains(DesignChoicesSection().title()));
        QVERIFY(titles.contains(PositionalEncodingSection().title()));
    }

    void figuresAreCores_data()
    {
        QTest::addColumn<int>("axis");
        for (DesignAxis axis : kDesignAxes)
            QTest::addRow("%s", toString(axis).data()) << int(axis);
    }
    void figuresAreCores()
    {
        QFETCH(int, axis);
        DesignChoicesSection section;
        section.showEstimate(scenario_, estimate_);
        section.setAxis(DesignAxis(axis));
        const Result<DesignComparison> core = compareDesignChoice(scenario_, DesignAxis(axis));
        QVERIFY(core.ok());
        QVERIFY(section.comparison().has_value());
        QCOMPARE(section.comparison()->variants.size(), core->variants.size());
        auto *table = section.findChild<QTableWidget *>();
        QVERIFY(table);
        QCOMPARE(table->rowCount(), int(core->variants.size()));
        // The bar chart: one series per valid variant, each figure as % of the scenario's.
        const ChartData &chart = section.figuresChart()->data();
        int series = 0;
        for (const DesignVariant &v : core->variants) {
            if (!v.problems.empty())
                continue;
            QVERIFY(series < chart.series.size());
            const ChartSeries &bars = chart.series[series++];
            QCOMPARE(bars.y.size(), 6);
            QCOMPARE(bars.y[0], 100.0 * v.figures.parameters / core->scenario.parameters);
            QCOMPARE(bars.y[2], 100.0 * v.figures.train_flops_per_token / core->scenario.train_flops_per_token);
            QCOMPARE(bars.y[3], 100.0 * v.figures.activation_bytes_per_layer / core->scenario.activation_bytes_per_layer);
            QCOMPARE(bars.y[4], 100.0 * v.figures.forward_bytes_per_token / core->scenario.forward_bytes_per_token);
        }
        QCOMPARE(chart.series.size(), series);
        QVERIFY(series >= 1);
    }

    void applyEmitsOneEdit()
    {
        DesignChoicesSection section;
        section.showEstimate(scenario_, estimate_);
        section.setAxis(DesignAxis::NormType);
        QSignalSpy edits(&section, &PageSection::scenarioEditRequested);
        auto *button = section.findChild<QPushButton *>();
        QVERIFY(button);
        const QList<QPushButton *> buttons = section.findChildren<QPushButton *>();
        QPushButton *apply = nullptr;
        for (QPushButton *b : buttons)
            if (b->text() == DesignChoicesSection::tr("Apply this choice to the scenario"))
                apply = b;
        QVERIFY(apply);
        QVERIFY(apply->isEnabled());
        apply->click();
        QCOMPARE(edits.count(), 1);
        const Scenario edited = edits.at(0).at(0).value<Scenario>();
        // The default scenario uses RMSNorm; the only alternative is LayerNorm, all else equal.
        QVERIFY(scenario_.model.norm == NormType::RMSNorm);
        QVERIFY(edited.model.norm == NormType::LayerNorm);
        ModelConfig back = edited.model;
        back.norm = NormType::RMSNorm;
        QVERIFY(back == scenario_.model);
        QVERIFY(edited.training.tokens == scenario_.training.tokens);
        // The scenario's own row cannot be applied.
        int own = -1;
        for (int i = 0; i < int(section.comparison()->variants.size()); ++i)
            if (section.comparison()->variants[std::size_t(i)].is_scenario)
                own = i;
        QVERIFY(own >= 0);
        QVERIFY(!section.applyVariant(own));
        QCOMPARE(edits.count(), 1);
    }

    void parallelBlockNamesWhatGoesAway()
    {
        DesignChoicesSection section;
        section.showEstimate(scenario_, estimate_);
        section.setAxis(DesignAxis::Block);
        const ParallelBlockSavings savings = parallelBlockSavings(scenario_.model);
        bool found = false;
        for (QLabel *label : section.findChildren<QLabel *>()) {
            if (label->text().contains(QStringLiteral("mlp_residual")) && label->text().contains(QStringLiteral("parallel_residual"))) {
                found = true;
                QVERIFY(!label->isHidden());
                QVERIFY(label->text().contains(QStringLiteral("%1 → %2").arg(savings.sequential_norms_serial)
                                                   .arg(savings.sequential_norms_parallel)));
            }
        }
        QVERIFY(found);
    }

    void attentionDecodeCurvesAreTheRooflines()
    {
        DesignChoicesSection section;
        section.showEstimate(scenario_, estimate_);
        section.setDecodeBatch(4);
        section.setAxis(DesignAxis::Attention);
        QVERIFY(!section.decodeCurves().empty());
        std::vector<std::int64_t> contexts;
        for (const DecodePoint &p : section.decodeCurves().front().points)
            contexts.push_back(p.context_tokens);
        const std::vector<DecodeCurve> core = attentionDecodeCurves(scenario_, 4, contexts);
        QCOMPARE(section.decodeCurves().size(), core.size());
        const ChartData &decode = section.decodeChart()->data();
        const ChartData &kv = section.kvChart()->data();
        QCOMPARE(decode.series.size(), qsizetype(core.size()));
        for (std::size_t c = 0; c < core.size(); ++c) {
            QVERIFY2(core[c].problems.empty(), formatProblems(core[c].problems).c_str());
            QCOMPARE(decode.series[qsizetype(c)].y.size(), qsizetype(core[c].points.size()));
            for (std::size_t i = 0; i < core[c].points.size(); ++i) {
                QCOMPARE(decode.series[qsizetype(c)].y[qsizetype(i)], core[c].points[i].seconds_per_token * 1e3);
                QCOMPARE(kv.series[qsizetype(c)].y[qsizetype(i)], core[c].points[i].kv_cache_bytes);
            }
        }
    }

    void normTimingFinishesInTheBackground()
    {
        DesignChoicesSection section;
        section.showEstimate(scenario_, estimate_);
        NormTimingPanel *panel = section.normTiming();
        NormTimingRequest request;
        request.rows = 64;
        request.width = 256;
        request.repetitions = 2;
        panel->setRequest(request);
        // Before measuring: the operator list's bytes per pass (MB).
        const ChartData &before = panel->chart()->data();
        QCOMPARE(before.series.size(), 2);
        QCOMPARE(before.series[1].y[1], normCost(NormType::RMSNorm, true, 64, 256).bytes / 1e6);
        QSignalSpy finished(panel, &NormTimingPanel::finished);
        panel->measure();
        QVERIFY(panel->isRunning());
        QVERIFY(finished.wait(kBackgroundWorkTimeoutMs));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY(!panel->isRunning());
        QVERIFY(panel->result().has_value());
        QCOMPARE(panel->result()->kernels.size(), std::size_t(4));
        for (const NormKernelTiming &k : panel->result()->kernels) {
            QVERIFY(k.median_seconds > 0);
            // The bytes shown are the operator list's.
            QCOMPARE(k.bytes, normCost(k.norm, k.backward, 64, 256).bytes);
        }
        const ChartData &chart = panel->chart()->data();
        QCOMPARE(chart.series.size(), 2);
        QCOMPARE(chart.series[0].y[0], panel->result()->kernels[0].bytesPerSecond() / 1e9);
        auto *table = panel->findChild<QTableWidget *>();
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 4);
    }

    void normTimingCancels()
    {
        NormTimingPanel panel;
        NormTimingRequest request;
        request.width = 4096;
        request.rows = kMaxNormTimingElements / 4096;
        request.repetitions = 500;
        panel.setRequest(request);
        QSignalSpy finished(&panel, &NormTimingPanel::finished);
        panel.measure();
        panel.cancel();
        QVERIFY(finished.wait(kBackgroundWorkTimeoutMs));
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QVERIFY(!panel.result().has_value());
        QVERIFY(!panel.isRunning());
    }

    void chartsExport()
    {
        DesignChoicesSection section;
        section.showEstimate(scenario_, estimate_);
        section.setAxis(DesignAxis::Attention);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QCOMPARE(section.charts().size(), 4);
        for (ChartView *chart : section.charts()) {
            QString error;
            QVERIFY2(chart->exportAll(dir.path(), &error), qPrintable(error));
            QVERIFY(QFileInfo(dir.filePath(chart->id() + QStringLiteral(".csv"))).size() > 0);
        }
        QVERIFY(!section.figuresChart()->data().series.isEmpty());
        QVERIFY(!section.kvChart()->data().series.isEmpty());
        QVERIFY(!section.decodeChart()->data().series.isEmpty());
        QVERIFY(!section.normTiming()->chart()->data().series.isEmpty());
        section.setPresentation(true);
        QVERIFY(section.figuresChart()->presentation());
    }

private:
    Scenario scenario_;
    Estimate estimate_;
};

QTEST_MAIN(TestDesignChoicesSection)
#include "test_design_choices_section.moc"
