// SPDX-License-Identifier: GPL-3.0-or-later
// What every page shares lives once in Page (app/gui/pages/page.h): a language change reaches
// retranslate(), presentation mode sizes the page's charts, and showEstimate stores the scenario
// and reaches the page. Checked here for every registered page.

#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "pages/page.h"
#include "pages/page_format.h"
#include "pages/page_registry.h"
#include "pages/sectioned_page.h"
#include "scenario/scenario_json.h"

#include <QCoreApplication>
#include <QEvent>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace lse;
using namespace lse::gui;

class TestPageBase : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        parent_ = std::make_unique<QWidget>();
        parent_->resize(1280, 800);
        pages_ = createPages(parent_.get());
        QVERIFY(!pages_.isEmpty());
    }
    void cleanup()
    {
        pages_.clear();
        parent_.reset();
    }

    void languageChangeRetranslatesEveryPage()
    {
        for (Page *page : std::as_const(pages_)) {
            QSignalSpy retranslated(page, &Page::retranslated);
            QEvent language_change(QEvent::LanguageChange);
            QCoreApplication::sendEvent(page, &language_change);
            QVERIFY2(retranslated.count() == 1, qPrintable(page->id()));
            // Other change events do not retranslate.
            QEvent palette_change(QEvent::PaletteChange);
            QCoreApplication::sendEvent(page, &palette_change);
            QVERIFY2(retranslated.count() == 1, qPrintable(page->id()));
        }
    }

    void presentationSizesEveryPagesCharts()
    {
        int charts_checked = 0;
        for (Page *page : std::as_const(pages_)) {
            QSignalSpy applied(page, &Page::presentationApplied);
            page->setPresentation(true);
            QCOMPARE(applied.count(), 1);
            QCOMPARE(applied.at(0).at(0).toBool(), true);
            QVERIFY2(page->presentation(), qPrintable(page->id()));
            for (ChartView *chart : page->charts()) {
                QVERIFY2(chart->presentation(), qPrintable(page->id() + ": " + chart->id()));
                ++charts_checked;
            }
            page->setPresentation(false);
            QCOMPARE(applied.count(), 2);
            QCOMPARE(applied.at(1).at(0).toBool(), false);
            QVERIFY(!page->presentation());
            for (ChartView *chart : page->charts())
                QVERIFY2(!chart->presentation(), qPrintable(page->id() + ": " + chart->id()));
        }
        QVERIFY(charts_checked > 20);
    }

    void pagesWithUniformChartHeightsGetThemFromPage()
    {
        // These pages ask Page for one minimum height per mode (setChartMinimumHeights); a page
        // may grow a chart beyond it for its content (the ZeRO page's shard bars, one per rank).
        const QStringList uniform = {"memory", "time", "compute", "scaling", "validation", "zero", "pipeline",
                                     "collectives"};
        for (const QString &id : uniform) {
            Page *page = pageById(id);
            QVERIFY2(page, qPrintable(id));
            QVERIFY2(!page->charts().isEmpty(), qPrintable(id));
            page->setPresentation(true);
            int at_presentation_minimum = 0;
            for (ChartView *chart : page->charts()) {
                QVERIFY2(chart->minimumHeight() >= kPresentationChartMinimumHeight, qPrintable(chart->id()));
                at_presentation_minimum += chart->minimumHeight() == kPresentationChartMinimumHeight ? 1 : 0;
            }
            QVERIFY2(at_presentation_minimum > 0, qPrintable(id));
            page->setPresentation(false);
            int at_normal_minimum = 0;
            for (ChartView *chart : page->charts()) {
                QVERIFY2(chart->minimumHeight() >= kChartMinimumHeight, qPrintable(chart->id()));
                QVERIFY2(chart->minimumHeight() < kPresentationChartMinimumHeight || id == QLatin1String("zero"),
                         qPrintable(chart->id()));
                at_normal_minimum += chart->minimumHeight() == kChartMinimumHeight ? 1 : 0;
            }
            QVERIFY2(at_normal_minimum > 0, qPrintable(id));
        }
    }

    void showEstimateReachesEveryPage()
    {
        Scenario scenario = defaultScenario();
        scenario.training.tokens = 2'000'000'000'000;  // differs from the default every page starts from
        const Result<Estimate> estimate = lse::estimate(scenario);
        QVERIFY(estimate.ok());
        for (Page *page : std::as_const(pages_)) {
            QVERIFY(!page->hasEstimate());
            QSignalSpy shown(page, &Page::estimateShown);
            page->showEstimate(scenario, *estimate);
            QVERIFY2(shown.count() == 1, qPrintable(page->id()));
            QVERIFY(page->hasEstimate());
            QCOMPARE(page->scenario().training.tokens, scenario.training.tokens);
            QCOMPARE(page->estimate().time.days, estimate->time.days);
        }
    }

    void sectionedPagesForwardTheEstimateToEverySection()
    {
        Scenario scenario = defaultScenario();
        scenario.training.tokens = 3'000'000'000'000;
        const Result<Estimate> estimate = lse::estimate(scenario);
        QVERIFY(estimate.ok());
        int sectioned = 0;
        for (Page *page : std::as_const(pages_)) {
            auto *sections = qobject_cast<SectionedPage *>(page);
            if (!sections)
                continue;
            ++sectioned;
            page->showEstimate(scenario, *estimate);
            QCOMPARE(sections->scenario().training.tokens, scenario.training.tokens);
        }
        QVERIFY(sectioned >= 3);  // Numbers, Tensors, Architecture
    }

private:
    Page *pageById(const QString &id) const
    {
        for (Page *page : pages_)
            if (page->id() == id)
                return page;
        return nullptr;
    }

    std::unique_ptr<QWidget> parent_;
    QList<Page *> pages_;
};

QTEST_MAIN(TestPageBase)
#include "test_page_base.moc"
