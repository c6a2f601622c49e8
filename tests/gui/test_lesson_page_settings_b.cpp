// SPDX-License-Identifier: GPL-3.0-or-later
// Lesson settings, highlight regions and step animations of the parallelism pages (layout,
// collectives, zero, pipeline, search), the tokenization page and the reference-run page
// (docs/lesson-pages-parallelism.md).

#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "pages/reference/reference_run_page.h"
#include "pages/tokenizer/tokenization_page.h"
#include "pages/parallel/collectives_page.h"
#include "pages/parallel/layout_page.h"
#include "pages/parallel/pipeline_page.h"
#include "pages/parallel/search_page.h"
#include "pages/parallel/step_player.h"
#include "pages/parallel/zero_page.h"
#include "scenario/scenario_json.h"

#include <QFile>
#include <QJsonDocument>
#include <QLabel>
#include <QListWidget>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <memory>

using namespace lse;
using namespace lse::gui;

namespace {

QJsonObject json(const char *text)
{
    QJsonParseError parse_error;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray(text), &parse_error);
    if (!document.isObject())
        qFatal("bad test JSON %s: %s", text, qPrintable(parse_error.errorString()));
    return document.object();
}

QString settingsText(const QJsonObject &settings)
{
    return QString::fromUtf8(QJsonDocument(settings).toJson(QJsonDocument::Compact));
}

// One page of this suite inside a parent of a realistic size, fed the default scenario's
// estimate the way the main window does (except Search, whose estimate starts a search).
struct PageUnderTest {
    std::unique_ptr<QWidget> parent;
    Page *page = nullptr;
};

PageUnderTest makePage(const QString &id)
{
    PageUnderTest made;
    made.parent = std::make_unique<QWidget>();
    made.parent->resize(1280, 900);
    QWidget *parent = made.parent.get();
    if (id == QLatin1String("layout"))
        made.page = new LayoutPage(parent);
    else if (id == QLatin1String("collectives"))
        made.page = new CollectivesPage(parent);
    else if (id == QLatin1String("zero"))
        made.page = new ZeroPage(parent);
    else if (id == QLatin1String("pipeline"))
        made.page = new PipelinePage(parent);
    else if (id == QLatin1String("search"))
        made.page = new SearchPage(parent);
    else if (id == QLatin1String("tokenization"))
        made.page = new TokenizationPage(parent);
    else if (id == QLatin1String("reference_run"))
        made.page = new ReferenceRunPage(parent);
    if (!made.page)
        qFatal("no page %s", qPrintable(id));
    made.page->resize(1280, 900);
    if (id != QLatin1String("search")) {
        const Scenario scenario = defaultScenario();
        const auto estimated = estimate(scenario);
        if (estimated.ok())
            made.page->showEstimate(scenario, estimated.value());
    }
    return made;
}

ChartView *chartWithId(const Page &page, const QString &id)
{
    for (ChartView *chart : page.charts())
        if (chart->id() == id)
            return chart;
    return nullptr;
}

// The page sections of docs/lesson-pages-parallelism.md: page id → (regions, charts), from the
// lines "Regions: `a`, `b`" and "Charts: `id` (...)" under "## Page `id`".
struct DocumentedPage {
    QStringList regions;
    QStringList charts;
};

QMap<QString, DocumentedPage> documentedPages()
{
    QMap<QString, DocumentedPage> pages;
    QFile file(QStringLiteral(LSE_SOURCE_DIR "/docs/lesson-pages-parallelism.md"));
    if (!file.open(QIODevice::ReadOnly))
        return pages;
    const QRegularExpression heading(QStringLiteral("^## Page `([a-z_]+)`"));
    const QRegularExpression quoted(QStringLiteral("`([^`]+)`"));
    QString current;
    for (const QString &line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'))) {
        if (const auto match = heading.match(line); match.hasMatch()) {
            current = match.captured(1);
            pages[current];
            continue;
        }
        QStringList *list = nullptr;
        if (line.startsWith(QLatin1String("Regions:")))
            list = &pages[current].regions;
        else if (line.startsWith(QLatin1String("Charts:")))
            list = &pages[current].charts;
        if (!list || current.isEmpty())
            continue;
        for (auto it = quoted.globalMatch(line); it.hasNext();)
            *list << it.next().captured(1);
    }
    return pages;
}

}  // namespace

class TestLessonPageSettingsB : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(cache_.isValid());
        qputenv("LSE_CACHE_DIR", cache_.path().toUtf8());
    }

    // lessonSettings() → applyLessonSettings() is a no-op, before and after a lesson's change; a
    // change is visible in lessonSettings(); "animate" is accepted by every page.
    void roundTrip_data()
    {
        QTest::addColumn<QString>("page");
        QTest::addColumn<QString>("change");
        QTest::addRow("layout") << "layout" << R"({"colour_by": "tp", "rank": 3})";
        QTest::addRow("collectives")
            << "collectives"
            << R"({"collective": "all_gather", "algorithm": "ring", "ranks": 6, "bytes": 1000000, "link": "inter_node", "step": 2})";
        QTest::addRow("zero") << "zero" << R"({"stage": 2, "dp": 16})";
        QTest::addRow("pipeline") << "pipeline" << R"({"schedule": "gpipe", "stages": 4, "microbatches": 8, "step": 5})";
        QTest::addRow("search") << "search" << R"({"top": 5, "zero_stages": [1, 3], "recomputations": ["full"]})";
        QTest::addRow("tokenization")
            << "tokenization"
            << R"({"text": "hello world hello", "tokenizer": "characters", "compare": false, "show_whitespace": true, "vocab_size": 300, "special_token": "<|end|>"})";
        QTest::addRow("reference_run")
            << "reference_run"
            << R"({"preset": "reference-small", "steps": 50, "prompt": "Once", "max_tokens": 30, "temperature": 1.2, "top_k": 5})";
    }

    void roundTrip()
    {
        QFETCH(QString, page);
        QFETCH(QString, change);
        PageUnderTest made = makePage(page);
        const QJsonObject initial = made.page->lessonSettings();
        QVERIFY(!initial.isEmpty());
        QString error;
        QVERIFY2(made.page->applyLessonSettings(initial, &error), qPrintable(error));
        QCOMPARE(settingsText(made.page->lessonSettings()), settingsText(initial));

        const QJsonObject wanted = json(change.toUtf8().constData());
        QVERIFY2(made.page->applyLessonSettings(wanted, &error), qPrintable(error));
        const QJsonObject changed = made.page->lessonSettings();
        for (auto it = wanted.begin(); it != wanted.end(); ++it)
            QVERIFY2(changed.value(it.key()) == it.value(), qPrintable(it.key() + ": " + settingsText(changed)));
        QVERIFY2(made.page->applyLessonSettings(changed, &error), qPrintable(error));
        QCOMPARE(settingsText(made.page->lessonSettings()), settingsText(changed));

        QVERIFY2(made.page->applyLessonSettings(json(R"({"animate": true})"), &error), qPrintable(error));
        QCOMPARE(settingsText(made.page->lessonSettings()), settingsText(changed));
        QVERIFY2(made.page->applyLessonSettings(initial, &error), qPrintable(error));
        QCOMPARE(settingsText(made.page->lessonSettings()), settingsText(initial));
    }

    // A bad key or value changes nothing and the message names the key.
    void refusesBadSettings_data()
    {
        QTest::addColumn<QString>("page");
        QTest::addColumn<QString>("settings");
        QTest::addColumn<QString>("key");
        const QStringList pages = {"layout", "collectives", "zero", "pipeline", "search", "tokenization", "reference_run"};
        for (const QString &page : pages) {
            QTest::addRow("%s unknown key", qPrintable(page)) << page << R"({"bogus": 1})" << "bogus";
            QTest::addRow("%s animate not a bool", qPrintable(page)) << page << R"({"animate": "yes"})" << "animate";
        }
        QTest::addRow("layout dimension") << "layout" << R"({"colour_by": "xx"})" << "colour_by";
        QTest::addRow("layout rank") << "layout" << R"({"colour_by": "pp", "rank": 100000})" << "rank";
        QTest::addRow("collectives type") << "collectives" << R"({"ranks": "8"})" << "ranks";
        QTest::addRow("collectives range") << "collectives" << R"({"ranks": 40})" << "ranks";
        QTest::addRow("collectives name") << "collectives" << R"({"collective": "All-Reduce"})" << "collective";
        QTest::addRow("collectives size") << "collectives" << R"({"bytes": 12345})" << "bytes";
        QTest::addRow("collectives step") << "collectives" << R"({"collective": "broadcast", "step": 999})" << "step";
        QTest::addRow("zero stage") << "zero" << R"({"stage": 4})" << "stage";
        QTest::addRow("zero step against stage") << "zero" << R"({"stage": 1, "step": 2})" << "step";
        QTest::addRow("zero dp") << "zero" << R"({"dp": 0})" << "dp";
        QTest::addRow("pipeline schedule") << "pipeline" << R"({"schedule": "1F1B"})" << "schedule";
        QTest::addRow("pipeline fraction") << "pipeline" << R"({"microbatches": 1.5})" << "microbatches";
        QTest::addRow("pipeline step") << "pipeline" << R"({"stages": 2, "schedule": "gpipe", "step": 100000})" << "step";
        QTest::addRow("search empty stages") << "search" << R"({"zero_stages": []})" << "zero_stages";
        QTest::addRow("search repeated stage") << "search" << R"({"zero_stages": [1, 1]})" << "zero_stages";
        QTest::addRow("search recomputation") << "search" << R"({"recomputations": ["some"]})" << "recomputations";
        QTest::addRow("search top") << "search" << R"({"top": 0})" << "top";
        QTest::addRow("tokenization tokenizer") << "tokenization" << R"({"tokenizer": "gpt3"})" << "tokenizer";
        QTest::addRow("tokenization untrained step") << "tokenization" << R"({"text": "abc", "step": 3})" << "step";
        QTest::addRow("tokenization vocabulary") << "tokenization" << R"({"vocab_size": 10})" << "vocab_size";
        QTest::addRow("tokenization text type") << "tokenization" << R"({"text": 5})" << "text";
        QTest::addRow("reference_run preset") << "reference_run" << R"({"preset": "huge"})" << "preset";
        QTest::addRow("reference_run temperature") << "reference_run" << R"({"temperature": 9})" << "temperature";
        QTest::addRow("reference_run steps") << "reference_run" << R"({"steps": 0})" << "steps";
        QTest::addRow("reference_run text") << "reference_run" << R"({"prompt": "x", "text": "nope"})" << "text";
    }

    void refusesBadSettings()
    {
        QFETCH(QString, page);
        QFETCH(QString, settings);
        QFETCH(QString, key);
        PageUnderTest made = makePage(page);
        const QString before = settingsText(made.page->lessonSettings());
        QString error;
        QVERIFY(!made.page->applyLessonSettings(json(settings.toUtf8().constData()), &error));
        QVERIFY2(error.startsWith(key + QLatin1String(": ")), qPrintable(error));
        QCOMPARE(settingsText(made.page->lessonSettings()), before);
    }

    // A setting changes what the page shows (the chart data, the labels), not only the control.
    void settingsChangeWhatThePageShows()
    {
        QString error;
        {
            PageUnderTest made = makePage(QStringLiteral("collectives"));
            auto *page = static_cast<CollectivesPage *>(made.page);
            const QString before = chartWithId(*page, QStringLiteral("collective-steps"))->toCsv();
            QVERIFY2(page->applyLessonSettings(json(R"({"collective": "broadcast", "algorithm": "tree", "ranks": 8})"), &error),
                     qPrintable(error));
            QVERIFY(page->simulation().op == parallel::CollectiveOp::Broadcast);
            QVERIFY(chartWithId(*page, QStringLiteral("collective-steps"))->toCsv() != before);
        }
        {
            PageUnderTest made = makePage(QStringLiteral("pipeline"));
            auto *page = static_cast<PipelinePage *>(made.page);
            QVERIFY(page->applyLessonSettings(json(R"({"schedule": "1f1b", "stages": 4, "microbatches": 8})"), &error));
            const QString bubble = page->findChild<QLabel *>(QStringLiteral("bubble-fraction"))->text();
            QVERIFY(page->applyLessonSettings(json(R"({"schedule": "zb_h1"})"), &error));
            QVERIFY(page->timeline().schedule == parallel::PipelineScheduleKind::ZeroBubble);
            QVERIFY(page->findChild<QLabel *>(QStringLiteral("bubble-fraction"))->text() != bubble);
        }
        {
            PageUnderTest made = makePage(QStringLiteral("zero"));
            auto *page = static_cast<ZeroPage *>(made.page);
            QVERIFY(page->applyLessonSettings(json(R"({"stage": 0})"), &error));
            const QString summary = page->findChild<QLabel *>(QStringLiteral("zeroSummary"))->text();
            QVERIFY(page->applyLessonSettings(json(R"({"stage": 3})"), &error));
            QCOMPARE(page->player()->currentStep(), 3);
            QVERIFY(page->findChild<QLabel *>(QStringLiteral("zeroSummary"))->text() != summary);
        }
        {
            PageUnderTest made = makePage(QStringLiteral("layout"));
            auto *page = static_cast<LayoutPage *>(made.page);
            QVERIFY(page->applyLessonSettings(json(R"({"colour_by": "tp"})"), &error));
            const QString grid = chartWithId(*page, QStringLiteral("device-mesh"))->toCsv();
            QVERIFY(page->applyLessonSettings(json(R"({"colour_by": "pp", "rank": 1})"), &error));
            QCOMPARE(page->hoveredRank(), std::optional<int>(1));
            QVERIFY(chartWithId(*page, QStringLiteral("device-mesh"))->toCsv() != grid);
        }
        {
            PageUnderTest made = makePage(QStringLiteral("tokenization"));
            auto *page = static_cast<TokenizationPage *>(made.page);
            QVERIFY(page->applyLessonSettings(json(R"({"text": "abcd", "tokenizer": "characters"})"), &error));
            QCOMPARE(page->tokenLabels().size(), 4);
            QVERIFY(page->applyLessonSettings(json(R"({"tokenizer": "bytes", "text": "é"})"), &error));
            QCOMPARE(page->tokenLabels().size(), 2);  // one character, two UTF-8 bytes
        }
        {
            PageUnderTest made = makePage(QStringLiteral("reference_run"));
            auto *page = static_cast<ReferenceRunPage *>(made.page);
            QVERIFY(page->applyLessonSettings(json(R"({"preset": "reference-tiny"})"), &error));
            const QString shape = page->findChild<QLabel *>(QStringLiteral("model-shape"))->text();
            QVERIFY(page->applyLessonSettings(json(R"({"preset": "reference-small"})"), &error));
            QVERIFY(page->findChild<QLabel *>(QStringLiteral("model-shape"))->text() != shape);
            QCOMPARE(page->state(), ReferenceRunPage::State::Idle);  // settings never start a run
        }
        {
            PageUnderTest made = makePage(QStringLiteral("search"));
            auto *page = static_cast<SearchPage *>(made.page);
            QVERIFY(page->applyLessonSettings(json(R"({"top": 3, "zero_stages": [3, 1]})"), &error));
            QCOMPARE(page->searchOptions().top, 3);
            QCOMPARE(page->searchOptions().zero_stages, (std::vector<int>{1, 3}));
        }
    }

    // restart → step 0 and not playing; advance → one step per call, false at the last one.
    void stepAnimations_data()
    {
        QTest::addColumn<QString>("page");
        QTest::addRow("collectives") << "collectives";
        QTest::addRow("zero") << "zero";
        QTest::addRow("pipeline") << "pipeline";
    }

    void stepAnimations()
    {
        QFETCH(QString, page);
        PageUnderTest made = makePage(page);
        auto *player = made.page->findChild<StepPlayer *>(QStringLiteral("step-player"));
        QVERIFY(player);
        QVERIFY(player->stepCount() >= 2);
        QString error;
        QVERIFY2(made.page->applyLessonSettings(json(R"({"step": 2})"), &error), qPrintable(error));
        QCOMPARE(player->currentStep(), 2);

        QSignalSpy spy(player, &StepPlayer::currentStepChanged);
        player->setPlaying(true);
        QVERIFY(made.page->restartLessonAnimation());
        QCOMPARE(player->currentStep(), 0);
        QVERIFY(!player->isPlaying());
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy.takeFirst().at(0).toInt(), 0);

        int advanced = 0;
        while (made.page->advanceLessonAnimation()) {
            ++advanced;
            QCOMPARE(spy.size(), 1);
            QCOMPARE(spy.takeFirst().at(0).toInt(), advanced);
            QVERIFY(advanced <= player->stepCount());
        }
        QCOMPARE(advanced, player->stepCount());
        QCOMPARE(player->currentStep(), player->stepCount());
        QVERIFY(!made.page->advanceLessonAnimation());
        QCOMPARE(spy.size(), 0);
    }

    // The BPE merge replay: nothing to animate before a training; "train": true trains before the
    // step shows (issue 28, item 2: a training finishing later made walked and jumped steps differ);
    // then restart shows no merges and each advance one more.
    void mergeReplayAnimation()
    {
        PageUnderTest made = makePage(QStringLiteral("tokenization"));
        auto *page = static_cast<TokenizationPage *>(made.page);
        QVERIFY(!page->restartLessonAnimation());
        QVERIFY(!page->advanceLessonAnimation());
        QSignalSpy finished(page, &TokenizationPage::trainingFinished);
        QString error;
        QVERIFY2(page->applyLessonSettings(json(R"({"text": "low lower lowest newer newest wider widest", "vocab_size": 264, "train": true})"),
                                           &error),
                 qPrintable(error));
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        // The same inputs again: trained already, nothing to do.
        QVERIFY(page->applyLessonSettings(json(R"({"train": true})"), &error));
        QCOMPARE(finished.size(), 1);
        const int merges = int(page->trainedResult()->merges.size());
        QVERIFY(merges >= 2);

        QSignalSpy replay(page->replaySlider(), &QSlider::valueChanged);
        QVERIFY(page->restartLessonAnimation());
        QCOMPARE(page->replaySlider()->value(), 0);
        QCOMPARE(replay.size(), 1);
        replay.clear();
        int advanced = 0;
        while (page->advanceLessonAnimation()) {
            ++advanced;
            QCOMPARE(replay.size(), 1);
            QCOMPARE(replay.takeFirst().at(0).toInt(), advanced);
            QVERIFY(advanced <= merges);
        }
        QCOMPARE(advanced, merges);
        QCOMPARE(page->mergeList()->currentRow(), merges - 1);
        QVERIFY(page->applyLessonSettings(json(R"({"step": 1, "tokenizer": "trained"})"), &error));
        QCOMPARE(page->replaySlider()->value(), 1);
        QCOMPARE(page->lessonSettings().value(QStringLiteral("step")).toInt(), 1);
    }

    // Every region and chart the document lists for a page exists on it.
    void documentedTargetsExist()
    {
        const QMap<QString, DocumentedPage> pages = documentedPages();
        QCOMPARE(pages.keys(), (QStringList{"collectives", "layout", "pipeline", "reference_run", "search", "tokenization", "zero"}));
        for (auto it = pages.begin(); it != pages.end(); ++it) {
            PageUnderTest made = makePage(it.key());
            QVERIFY2(!it->regions.isEmpty(), qPrintable(it.key()));
            for (const QString &region : it->regions)
                QVERIFY2(made.page->findChild<QWidget *>(region), qPrintable(it.key() + ": " + region));
            for (const QString &chart : it->charts)
                QVERIFY2(chartWithId(*made.page, chart), qPrintable(it.key() + ": " + chart));
        }
    }

private:
    QTemporaryDir cache_;
};

QTEST_MAIN(TestLessonPageSettingsB)
#include "test_lesson_page_settings_b.moc"
