// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 28, item 2: a lesson step looks the same however it is reached. For every shipped lesson
// the page settings of each step, walked to from the first step, equal those of the same step
// jumped to (`--lesson NAME --step K` starts the lesson at K) and of the step gone back to from a
// later one. (cpu-training --step 5 used to show the tiny preset, walking 3 -> 5 cs336-tinystories.)
#include "test_shard.h"
#include "lessons/lesson_catalog.h"
#include "lessons/lesson_controller.h"
#include "lessons/lesson_page_settings.h"
#include "main_window.h"
#include "pages/page.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace lse;
using namespace lse::gui;

namespace {

struct Shown {
    QString page;
    QJsonObject settings;
};

Shown shown(MainWindow &window)
{
    QCoreApplication::processEvents();
    Page *page = window.currentPage();
    return {window.currentPageAndSection(), page ? page->lessonSettings() : QJsonObject()};
}

QString describe(const Shown &a, const Shown &b)
{
    return a.page + QStringLiteral(": ") + QString::fromUtf8(QJsonDocument(a.settings).toJson(QJsonDocument::Compact))
        + QStringLiteral("\n  vs ") + b.page + QStringLiteral(": ")
        + QString::fromUtf8(QJsonDocument(b.settings).toJson(QJsonDocument::Compact));
}

}  // namespace

class TestLessonStepJumps : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // The roofline's "this CPU" reads a measurement cache: an empty one, never the user's.
        QVERIFY(cache_.isValid());
        qputenv("LSE_CACHE_DIR", cache_.path().toUtf8());
    }

    // The core rule: a step stands for the settings of every step so far on its page and section.
    void settingsOfTheStepsSoFarOnThePage()
    {
        if (!lse::test::isFirstShard())
            QSKIP("runs in shard 0");
        const Lesson *lesson = findBuiltinLesson("cpu-training");
        QVERIFY(lesson);
        // Step 5 (index 4) sets nothing itself; steps 1 and 3 chose the preset, text and step count.
        QVERIFY(lesson->steps[4].page_settings.isEmpty());
        const std::vector<QJsonObject> fifth = pageSettingsWalkedTo(*lesson, 4);
        QCOMPARE(fifth.size(), std::size_t(4));  // steps 1, 3, 4, 5 show the Reference run page
        QCOMPARE(fifth[0].value("preset").toString(), QStringLiteral("cs336-tinystories"));
        QCOMPARE(fifth[1].value("steps").toInt(), 200);
        // "animate" belongs to its own step only.
        const Lesson *parallelism = findBuiltinLesson("parallelism");
        QVERIFY(parallelism);
        for (const QJsonObject &settings : pageSettingsWalkedTo(*parallelism, 1))
            QVERIFY(!settings.contains("animate"));
        QCOMPARE(pageSettingsWalkedTo(*parallelism, 1).front().value("ranks").toInt(), 4);
        // Another section of the same page is another page here.
        const Lesson *architecture = findBuiltinLesson("architecture");
        QVERIFY(architecture);
        QCOMPARE(pageSettingsWalkedTo(*architecture, 2).size(), std::size_t(1));  // choices after atlas
    }

    void walkedAndJumpedStepsLookAlike_data()
    {
        QTest::addColumn<QString>("id");
        int row = 0;
        for (const Lesson &lesson : builtinLessons())
            if (lse::test::rowInThisShard(row++))  // split across CTest entries (test_shard.h)
                QTest::newRow(lesson.id.c_str()) << QString::fromStdString(lesson.id);
    }

    void walkedAndJumpedStepsLookAlike()
    {
        QFETCH(QString, id);
        const Lesson *lesson = findBuiltinLesson(id.toStdString());
        QVERIFY(lesson);
        const int steps = int(lesson->steps.size());
        MainWindow window(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;

        // Walked: Next from the first step.
        QVERIFY2(window.startLesson(*lesson, 0, &error), qPrintable(error));
        std::vector<Shown> walked{shown(window)};
        for (int k = 1; k < steps; ++k) {
            QVERIFY(window.lessonController()->goToStep(k));
            walked.push_back(shown(window));
        }
        window.endLesson();

        // Jumped: the lesson started at each step, from the last to the first (so every jump but
        // the first comes from a later step of the same lesson).
        for (int k = steps - 1; k >= 0; --k) {
            QVERIFY2(window.startLesson(*lesson, k, &error), qPrintable(error));
            const Shown jumped = shown(window);
            const Shown &expected = walked[std::size_t(k)];
            QVERIFY2(jumped.page == expected.page && jumped.settings == expected.settings,
                     qPrintable(QStringLiteral("%1 step %2 jumped to, then walked to:\n  ").arg(id).arg(k + 1)
                                + describe(jumped, expected)));
        }
        window.endLesson();
    }

private:
    QTemporaryDir cache_;
};

QTEST_MAIN(TestLessonStepJumps)
#include "test_lesson_step_jumps.moc"
