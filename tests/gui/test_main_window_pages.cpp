// SPDX-License-Identifier: GPL-3.0-or-later
// Pages built on first need (issue 20, start-up < 0.5 s): the window starts with one page built,
// lists every page before it exists, and a page built late receives what the window already gave
// the others — the current scenario, presentation mode, the theme, and in a lesson the settings it
// goes back to when the lesson ends.

#include "charts/chart_view.h"
#include "document/scenario_document.h"
#include "lessons/lesson_catalog.h"
#include "main_window.h"
#include "pages/roofline/roofline_page.h"
#include "pages/traces/trace_page.h"
#include "pages/traces/trace_session.h"
#include "page_navigator.h"
#include "pages/page.h"
#include "pages/page_registry.h"
#include "scenario/scenario_json.h"

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMenuBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace lse;
using namespace lse::gui;

namespace {

QStringList builtIds(const MainWindow &window)
{
    QStringList ids;
    for (const Page *page : window.builtPages())
        ids << page->id();
    return ids;
}

// A one-step lesson on the Pipeline page that changes its schedule.
Lesson pipelineLesson()
{
    const QJsonObject file{
        {"format", kLessonFormat},
        {"version", kLessonVersion},
        {"id", "lazy-pages"},
        {"title", QJsonObject{{"en", "Lazy pages"}}},
        {"lecture", "none"},
        {"steps", QJsonArray{QJsonObject{{"page", "pipeline"},
                                         {"page_settings", QJsonObject{{"schedule", "gpipe"}}},
                                         {"text", QJsonObject{{"en", "GPipe."}}}}}}};
    Result<Lesson> lesson = parseLesson(QJsonDocument(file).toJson());
    if (!lesson.ok())
        qFatal("test lesson: %s", formatProblems(lesson.problems()).c_str());
    return *lesson;
}

}  // namespace

class TestMainWindowPages : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void startsWithOnlyTheFirstPageBuilt()
    {
        MainWindow window(false);
        QCOMPARE(builtIds(window), QStringList{QStringLiteral("overview")});
        QCOMPARE(window.currentPage()->id(), QStringLiteral("overview"));
        // Every page is listed before it exists: the ids, the navigator and the Go menu.
        QStringList catalog_ids;
        QStringList catalog_titles;
        for (const PageGroup &group : pageCatalog())
            for (const PageEntry &entry : group.pages) {
                catalog_ids << entry.id;
                catalog_titles << entry.title();
            }
        QCOMPARE(window.pageIds(), catalog_ids);
        QCOMPARE(catalog_ids.size(), 22);
        auto *navigator = window.findChild<PageNavigator *>();
        QCOMPARE(navigator->pageCount(), int(catalog_ids.size()));
        for (int i = 0; i < catalog_ids.size(); ++i)
            QCOMPARE(navigator->pageItem(i)->text(0), catalog_titles.at(i));
        QStringList go_titles;
        for (QAction *menu : window.menuBar()->actions())
            if (menu->text() == QLatin1String("&Go"))
                for (QAction *action : menu->menu()->actions())
                    if (!action->isSeparator() && catalog_titles.contains(action->text()))
                        go_titles << action->text();
        QCOMPARE(go_titles, catalog_titles);
        QCOMPARE(builtIds(window), QStringList{QStringLiteral("overview")});
    }

    void everyEntryBuildsThePageItNames()
    {
        // The catalogue's id and title are the page's own (Page::id(), Page::title()).
        QWidget parent;
        for (const PageGroup &group : pageCatalog())
            for (const PageEntry &entry : group.pages) {
                Page *page = entry.create(&parent);
                QCOMPARE(page->id(), entry.id);
                QCOMPARE(page->title(), entry.title());
                QCOMPARE(page->parentWidget(), &parent);
            }
    }

    void aPageBuiltLateShowsTheCurrentScenario()
    {
        MainWindow window(false);
        // Edit while Scaling does not exist, then show it: it draws the edited scenario.
        Scenario edited = window.document()->scenario();
        edited.model.n_layers = 30;
        window.document()->replaceScenario(edited, QStringLiteral("30 layers"));
        QVERIFY(window.document()->isValid());
        QVERIFY(!builtIds(window).contains(QStringLiteral("scaling")));
        QVERIFY(window.selectPage(QStringLiteral("scaling")));
        Page *scaling = window.currentPage();
        QCOMPARE(scaling->id(), QStringLiteral("scaling"));
        QVERIFY(scaling->hasEstimate());
        QCOMPARE(scaling->scenario().model.n_layers, 30);
        const MainWindow::ShownEstimate *shown = window.shownEstimate(scaling);
        QVERIFY(shown);
        QCOMPARE(scenarioToJson(shown->scenario), scenarioToJson(window.document()->estimatedScenario()));
        QCOMPARE(builtIds(window), (QStringList{"overview", "scaling"}));
    }

    void pageAsksForAnEditAfterBeingBuiltLate()
    {
        // The window hears a late page's edit requests (Page::scenarioEditRequested).
        MainWindow window(false);
        Page *layout = window.page(QStringLiteral("layout"));
        QVERIFY(layout);
        Scenario edited = window.document()->scenario();
        edited.training.tokens *= 2;
        const int steps = window.document()->undoStack()->count();
        emit layout->scenarioEditRequested(edited, QStringLiteral("double the tokens"));
        QCOMPARE(window.document()->undoStack()->count(), steps + 1);
        QCOMPARE(window.document()->scenario().training.tokens, edited.training.tokens);
    }

    // The window's TraceSession reaches every page that shows traces, whichever is built first: a
    // trace opened with openTraces (--trace, File > Open Trace…) appears on the Roofline page too.
    void traceSessionIsSharedByThePages()
    {
        MainWindow window(false);
        auto *roofline = qobject_cast<RooflinePage *>(window.page(QStringLiteral("roofline")));
        QVERIFY(roofline);
        QVERIFY(window.openTraces({QStringLiteral(LSE_SOURCE_DIR "/tests/data/traces/hta/sampled_rank-0.json.gz")}));
        QCOMPARE(window.currentPage()->id(), QStringLiteral("trace"));
        auto *trace = qobject_cast<TracePage *>(window.page(QStringLiteral("trace")));
        QVERIFY(trace);
        QCOMPARE(trace->session(), window.traceSession());
        if (trace->loading()) {
            QSignalSpy finished(trace, &TracePage::loadFinished);
            QVERIFY(finished.wait(60000));
        }
        QVERIFY(!window.traceSession()->isEmpty());
        QVERIFY(window.selectPage(QStringLiteral("roofline")));
        QVERIFY(!roofline->traceSeriesName().isEmpty());
        QVERIFY(!window.openTraces({}));
    }

    void unknownPageIsNullAndBuildsNothing()
    {
        MainWindow window(false);
        QVERIFY(window.page(QStringLiteral("no-such-page")) == nullptr);
        QVERIFY(!window.selectPage(QStringLiteral("no-such-page")));
        QVERIFY(!window.selectPage(QStringLiteral("architecture/no-such-tab")));
        QCOMPARE(window.currentPage()->id(), QStringLiteral("overview"));
    }

    void aPageBuiltInPresentationModeIsPresented()
    {
        MainWindow window(false);
        window.setPresentation(true);
        QVERIFY(window.selectPage(QStringLiteral("roofline")));
        QVERIFY(window.currentPage()->presentation());
        // In the presentation font (the window was never shown: see MainWindow::setTheme).
        QCOMPARE(window.currentPage()->font().pointSizeF(), QApplication::font().pointSizeF());
        window.setPresentation(false);
        QVERIFY(!window.currentPage()->presentation());
        // Built after presentation ended: not presented.
        QVERIFY(!window.page(QStringLiteral("memory"))->presentation());
    }

    void aPageBuiltAfterAThemeChangeDrawsInIt()
    {
        // The window is never shown, as for --screenshot and handouts: Qt does not pass a new
        // application palette to a window without a native window.
        MainWindow window(false);
        window.setTheme(Theme::Dark);
        QVERIFY(window.selectPage(QStringLiteral("memory")));
        const QList<ChartView *> charts = window.currentPage()->charts();
        QVERIFY(!charts.isEmpty());
        // The chart's background is the dark palette's, as on a page built before the change.
        const QColor dark_base = QApplication::palette().color(QPalette::Base);
        QVERIFY(dark_base.lightness() < 128);
        QImage image = charts.first()->grab().toImage();
        QVERIFY(!image.isNull());
        const QColor corner = image.pixelColor(2, 2);
        QVERIFY2(corner.lightness() < 128, qPrintable(corner.name()));
        window.setTheme(Theme::Light);
    }

    void aPageBuiltInALessonGetsItsSettingsBack()
    {
        MainWindow window(false);
        QVERIFY(!builtIds(window).contains(QStringLiteral("pipeline")));
        // What the page shows when built outside a lesson.
        QWidget parent;
        Page *fresh = nullptr;
        for (const PageGroup &group : pageCatalog())
            for (const PageEntry &entry : group.pages)
                if (entry.id == QLatin1String("pipeline"))
                    fresh = entry.create(&parent);
        QVERIFY(fresh);
        const QJsonObject defaults = fresh->lessonSettings();
        QVERIFY(defaults.value("schedule").toString() != QLatin1String("gpipe"));

        QString error;
        QVERIFY2(window.startLesson(pipelineLesson(), 0, &error), qPrintable(error));
        Page *pipeline = window.currentPage();
        QCOMPARE(pipeline->id(), QStringLiteral("pipeline"));
        QCOMPARE(pipeline->lessonSettings().value("schedule").toString(), QStringLiteral("gpipe"));
        window.endLesson();
        QCOMPARE(window.currentPage()->id(), QStringLiteral("overview"));
        QCOMPARE(pipeline->lessonSettings(), defaults);
    }

    void exportAllBuildsEveryPage()
    {
        MainWindow window(false);
        window.resize(1024, 700);
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        // Only the first pages: cancelled after three, so three pages were built and written.
        connect(&window, &MainWindow::exportPageStarted, &window, [&window](int index, int) {
            if (index == 3)
                window.cancelExport();
        });
        QString error;
        int written = 0;
        QCOMPARE(window.exportAllPages(folder.path(), &error, &written), MainWindow::ExportResult::Cancelled);
        QCOMPARE(written, 3);
        QCOMPARE(builtIds(window), (QStringList{"overview", "memory", "compute", "time"}));
        QCOMPARE(window.currentPage()->id(), QStringLiteral("overview"));
    }

    void listingPagesAndTabsBuildsThemAll()
    {
        MainWindow window(false);
        const QStringList ids = window.pageAndSectionIds();
        QVERIFY(ids.contains(QStringLiteral("architecture/atlas")));
        QCOMPARE(window.builtPages().size(), window.pageIds().size());
    }
};

QTEST_MAIN(TestMainWindowPages)
#include "test_main_window_pages.moc"
