// SPDX-License-Identifier: GPL-3.0-or-later
// The shipped lessons (resources/lessons) and lesson files: every shipped lesson passes checkLesson
// (valid scenario at every step, every figure known), has 8–15 steps and is translated; a lesson
// written with lessonToJson reads back the same; saving never leaves a half file.
#include "lessons/lesson_catalog.h"
#include "lessons/lesson_check.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace lse;

namespace {

void requireTranslated(const LocalizedText &text, const std::string &where)
{
    if (text.en.empty() || text.zh_CN.empty())
        QFAIL(qPrintable(QString::fromStdString(where + ": English and Chinese are both required in a shipped lesson")));
}

Lesson sampleLesson()
{
    Lesson lesson;
    lesson.id = "sample";
    lesson.title = {"Sample", "示例"};
    lesson.lecture = "Lecture 2";
    LessonStep first;
    first.page = "time";
    first.preset = "llama-2-7b";
    first.scenario_changes = {{"cluster.gpus", 64}, {"training.flops_model", "6nd"}};
    first.page_settings = QJsonObject{{"phase", "decode"}, {"batch", 8}};
    first.highlight = Highlight{HighlightKind::Field, "training.tokens"};
    first.text = {"It takes {time.days}.", "需要 {time.days}。"};
    first.question = LocalizedText{"How long?", "多久？"};
    first.answer = LocalizedText{"{time.days}", ""};
    LessonStep second;
    second.page = "architecture/choices";
    second.text = {"Second.", ""};
    lesson.steps = {first, second};
    return lesson;
}

}  // namespace

class TestLessonCatalog : public QObject {
    Q_OBJECT
private slots:
    void shippedLessonsAreComplete()
    {
        const std::vector<Lesson> &lessons = builtinLessons();
        // The five the issue names, then one for each later page.
        QVERIFY2(lessons.size() >= 5, qPrintable(QString::number(lessons.size())));
        for (const Lesson &lesson : lessons) {
            const std::string where = "lesson '" + lesson.id + "'";
            QVERIFY2(lesson.steps.size() >= 8 && lesson.steps.size() <= 15,
                     qPrintable(QString::fromStdString(where) + QStringLiteral(": %1 steps").arg(lesson.steps.size())));
            QVERIFY(!lesson.lecture.empty());
            requireTranslated(lesson.title, where + " title");
            for (std::size_t k = 0; k < lesson.steps.size(); ++k) {
                const LessonStep &step = lesson.steps[k];
                const std::string path = where + " steps[" + std::to_string(k) + "]";
                requireTranslated(step.text, path + ".text");
                if (step.question) {
                    requireTranslated(*step.question, path + ".question");
                    requireTranslated(*step.answer, path + ".answer");
                }
            }
            const Problems problems = checkLesson(lesson);
            QVERIFY2(problems.empty(), (where + ":\n" + formatProblems(problems)).c_str());
            QCOMPARE(findBuiltinLesson(lesson.id), &lesson);
        }
    }

    void shippedLessonsCiteTheEngine()
    {
        // A lesson that states no figure at all would not follow the engine; each cites some.
        for (const Lesson &lesson : builtinLessons()) {
            if (lesson.id == "tokenization" || lesson.id == "tensors" || lesson.id == "numbers")
                continue;  // about text and tensors, not the cost engine's figures
            bool cites = false;
            for (const LessonStep &step : lesson.steps)
                cites = cites || step.text.en.find('{') != std::string::npos;
            QVERIFY2(cites, lesson.id.c_str());
        }
    }

    void jsonRoundTrip()
    {
        const Lesson lesson = sampleLesson();
        const Result<Lesson> read = parseLesson(lessonToJson(lesson));
        QVERIFY2(read.ok(), read.ok() ? "" : formatProblems(read.problems()).c_str());
        QCOMPARE(lessonToJson(*read), lessonToJson(lesson));
        QCOMPARE(read->steps[0].scenario_changes.size(), std::size_t(2));
        QCOMPARE(read->steps[0].page_settings.value("batch").toInt(), 8);
        QCOMPARE(read->steps[0].highlight->target, std::string("training.tokens"));
        QCOMPARE(read->steps[0].answer->en, std::string("{time.days}"));
        QVERIFY(!read->steps[1].question.has_value());
    }

    void saveAndLoadFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("lesson.json").toStdString();
        QVERIFY(saveLessonFile(sampleLesson(), path).empty());
        const Result<Lesson> loaded = loadLessonFile(path);
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->id, std::string("sample"));

        // An unwritable target: a problem naming the file, the old file untouched.
        const std::string blocked = dir.filePath("missing-folder/lesson.json").toStdString();
        const Problems problems = saveLessonFile(sampleLesson(), blocked);
        QCOMPARE(problems.size(), std::size_t(1));
        QCOMPARE(problems.front().rule, std::string("write"));
        QVERIFY(problems.front().message.find("missing-folder") != std::string::npos);
    }

    void loadRefusesWhatIsNotALesson()
    {
        QTemporaryDir dir;
        QVERIFY(!loadLessonFile(dir.path().toStdString()).ok());  // a folder
        QCOMPARE(loadLessonFile(dir.filePath("nothing.json").toStdString()).problems().front().rule, std::string("read"));
        QFile binary(dir.filePath("b.json"));
        QVERIFY(binary.open(QIODevice::WriteOnly));
        binary.write(QByteArray("\x89PNG\0\0", 6));
        binary.close();
        QCOMPARE(loadLessonFile(binary.fileName().toStdString()).problems().front().rule, std::string("binary"));
    }

    void chineseFallsBackToEnglish()
    {
        QCOMPARE(localizedText({"Hello", "你好"}, "zh_CN"), std::string("你好"));
        QCOMPARE(localizedText({"Hello", ""}, "zh_CN"), std::string("Hello"));
        QCOMPARE(localizedText({"Hello", "你好"}, "en"), std::string("Hello"));
    }
};

QTEST_APPLESS_MAIN(TestLessonCatalog)
#include "test_lesson_catalog.moc"
