// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson file format (core/lessons/lesson.h) and its figures (core/lessons/lesson_figures.h):
// a valid lesson parses, each kind of damage is reported with its step and field, unknown figure
// names are reported with their step, and filled-in figures are the engine's numbers.
#include "problem_matchers.h"
#include "cost/estimate.h"
#include "lessons/lesson.h"
#include "common/number_format.h"
#include "lessons/lesson_figures.h"
#include "scenario/scenario_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QTest>

#include <cmath>

using namespace lse;
using lse::test::hasProblem;

namespace {

const char *const kFixtureLesson = R"json({
  "format": "llm-explorer-lesson",
  "version": 1,
  "id": "resource-accounting",
  "title": {"en": "Resource accounting", "zh_CN": "资源核算"},
  "lecture": "Lecture 2",
  "steps": [
    {
      "page": "time",
      "preset": "llama-3-70b",
      "scenario_changes": [
        {"field": "cluster.gpus", "value": 1024},
        {"field": "training.tokens", "value": 15e12}
      ],
      "page_settings": {"chart": "days"},
      "highlight": {"kind": "chart_series", "target": "days"},
      "text": {"en": "The run takes {time.days} at {time.mfu} MFU.", "zh_CN": "训练需要 {time.days}。"},
      "question": {"en": "How many days?"},
      "answer": {"en": "{time.days}"}
    },
    {
      "page": "architecture/choices",
      "highlight": {"kind": "table_row", "target": "attention"},
      "text": {"en": "Memory per GPU: {memory.total_gb}."}
    }
  ]
})json";

QJsonObject fixtureRoot()
{
    return QJsonDocument::fromJson(kFixtureLesson).object();
}

QByteArray toBytes(const QJsonObject &root)
{
    return QJsonDocument(root).toJson();
}

// The fixture with step `index` changed by `edit`.
template <typename Edit>
QByteArray withStep(int index, Edit edit)
{
    QJsonObject root = fixtureRoot();
    QJsonArray steps = root.value("steps").toArray();
    QJsonObject step = steps.at(index).toObject();
    edit(step);
    steps.replace(index, step);
    root.insert("steps", steps);
    return toBytes(root);
}

}  // namespace

class LessonsTest : public QObject {
    Q_OBJECT

private slots:
    void validFixtureParses()
    {
        const Result<Lesson> lesson = parseLesson(kFixtureLesson);
        QVERIFY2(lesson.ok(), formatProblems(lesson.problems()).c_str());
        QCOMPARE(lesson->id, std::string("resource-accounting"));
        QCOMPARE(lesson->title.zh_CN, std::string("资源核算"));
        QCOMPARE(lesson->lecture, std::string("Lecture 2"));
        QCOMPARE(lesson->steps.size(), std::size_t(2));
        const LessonStep &first = lesson->steps[0];
        QCOMPARE(first.page, std::string("time"));
        QCOMPARE(first.preset.value_or(""), std::string("llama-3-70b"));
        QCOMPARE(first.scenario_changes.size(), std::size_t(2));
        QCOMPARE(first.scenario_changes[0].field, std::string("cluster.gpus"));
        QCOMPARE(first.scenario_changes[0].value.toInt(), 1024);
        QCOMPARE(first.scenario_changes[1].field, std::string("training.tokens"));
        QCOMPARE(first.page_settings.value("chart").toString(), QString("days"));
        QVERIFY(first.highlight.has_value());
        QVERIFY(first.highlight->kind == HighlightKind::ChartSeries);
        QCOMPARE(first.highlight->target, std::string("days"));
        QVERIFY(first.question.has_value());
        QVERIFY(first.answer.has_value());
        QCOMPARE(first.answer->zh_CN, std::string());
        const LessonStep &second = lesson->steps[1];
        QCOMPARE(second.page, std::string("architecture/choices"));
        QVERIFY(!second.preset.has_value());
        QVERIFY(second.scenario_changes.empty());
        QVERIFY(second.highlight->kind == HighlightKind::TableRow);
        QVERIFY(!second.question.has_value());
        QVERIFY(unknownFigures(*lesson).empty());
    }

    void brokenFileNamesStepAndField_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("rule");

        QJsonObject wrongFormat = fixtureRoot();
        wrongFormat.insert("format", "llm-explorer-scenario");
        QTest::newRow("wrong format") << toBytes(wrongFormat) << "file" << "format";
        QJsonObject wrongVersion = fixtureRoot();
        wrongVersion.insert("version", 2);
        QTest::newRow("wrong version") << toBytes(wrongVersion) << "file" << "version";
        QTest::newRow("not json") << QByteArray("{\"format\": ") << "file" << "json";

        QJsonObject noSteps = fixtureRoot();
        noSteps.insert("steps", QJsonArray());
        QTest::newRow("empty steps") << toBytes(noSteps) << "steps" << "count";
        QJsonObject tooMany = fixtureRoot();
        QJsonArray many;
        for (int i = 0; i < kMaxLessonSteps + 1; ++i)
            many.append(fixtureRoot().value("steps").toArray().at(1));
        tooMany.insert("steps", many);
        QTest::newRow("31 steps") << toBytes(tooMany) << "steps" << "count";
        QJsonObject missingSteps = fixtureRoot();
        missingSteps.remove("steps");
        QTest::newRow("missing steps") << toBytes(missingSteps) << "steps" << "required";
        QJsonObject missingTitle = fixtureRoot();
        missingTitle.insert("title", QJsonObject{{"zh_CN", "资源核算"}});
        QTest::newRow("title missing en") << toBytes(missingTitle) << "title.en" << "required";

        QTest::newRow("missing page")
            << withStep(1, [](QJsonObject &step) { step.remove("page"); }) << "steps[1].page" << "required";
        QTest::newRow("empty page")
            << withStep(0, [](QJsonObject &step) { step.insert("page", ""); }) << "steps[0].page" << "required";
        QTest::newRow("page not a string")
            << withStep(0, [](QJsonObject &step) { step.insert("page", 3); }) << "steps[0].page" << "type";
        QTest::newRow("unknown preset") << withStep(0, [](QJsonObject &step) {
            step.insert("preset", "llama-9-1t");
        }) << "steps[0].preset" << "unknown";
        QTest::newRow("highlight not an object")
            << withStep(0, [](QJsonObject &step) { step.insert("highlight", "chart_series"); })
            << "steps[0].highlight" << "type";
        QTest::newRow("bad highlight kind") << withStep(1, [](QJsonObject &step) {
            step.insert("highlight", QJsonObject{{"kind", "arrow"}, {"target", "x"}});
        }) << "steps[1].highlight.kind" << "enum";
        QTest::newRow("highlight without target") << withStep(0, [](QJsonObject &step) {
            step.insert("highlight", QJsonObject{{"kind", "field"}});
        }) << "steps[0].highlight.target" << "required";
        QTest::newRow("step text missing en") << withStep(1, [](QJsonObject &step) {
            step.insert("text", QJsonObject{{"zh_CN", "每个 GPU 的内存"}});
        }) << "steps[1].text.en" << "required";
        QTest::newRow("step text missing")
            << withStep(1, [](QJsonObject &step) { step.remove("text"); }) << "steps[1].text" << "required";
        QTest::newRow("answer without question")
            << withStep(0, [](QJsonObject &step) { step.remove("question"); }) << "steps[0].question" << "required";
        QTest::newRow("empty step") << withStep(0, [](QJsonObject &step) { step = QJsonObject(); })
                                    << "steps[0].page" << "required";
        QJsonObject numberStep = fixtureRoot();
        QJsonArray numberSteps = numberStep.value("steps").toArray();
        numberSteps.replace(1, 7);
        numberStep.insert("steps", numberSteps);
        QTest::newRow("step not an object") << toBytes(numberStep) << "steps[1]" << "type";
        QTest::newRow("question without answer")
            << withStep(0, [](QJsonObject &step) { step.remove("answer"); }) << "steps[0].answer" << "required";
        QTest::newRow("scenario change without value") << withStep(0, [](QJsonObject &step) {
            step.insert("scenario_changes", QJsonArray{QJsonObject{{"field", "training.tp"}}});
        }) << "steps[0].scenario_changes[0].value" << "required";
        QTest::newRow("scenario changes not an array") << withStep(0, [](QJsonObject &step) {
            step.insert("scenario_changes", QJsonObject{{"training.tp", 8}});
        }) << "steps[0].scenario_changes" << "type";
    }

    void brokenFileNamesStepAndField()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, field);
        QFETCH(QString, rule);
        const Result<Lesson> lesson = parseLesson(json);
        QVERIFY(!lesson.ok());
        QVERIFY2(hasProblem(lesson.problems(), field.toStdString(), rule.toStdString()),
                 formatProblems(lesson.problems()).c_str());
    }

    void referencedFiguresAreExtractedInOrder()
    {
        const std::vector<std::string> names =
            referencedFigures("{time.days} days, {not a figure}, {}, {memory.total_gb} and {time.days}");
        const std::vector<std::string> expected = {"time.days", "memory.total_gb", "time.days"};
        QCOMPARE(names, expected);
    }

    void unknownFigureIsReportedWithItsStep()
    {
        QJsonObject root = fixtureRoot();
        QJsonArray steps = root.value("steps").toArray();
        QJsonObject step = steps.at(1).toObject();
        step.insert("text", QJsonObject{{"en", "Fine: {time.days}"}, {"zh_CN", "坏: {time.weeks}"}});
        steps.replace(1, step);
        QJsonObject first = steps.at(0).toObject();
        first.insert("answer", QJsonObject{{"en", "{memory.total_tb}"}});
        steps.replace(0, first);
        root.insert("steps", steps);
        const Result<Lesson> lesson = parseLesson(toBytes(root));
        QVERIFY2(lesson.ok(), formatProblems(lesson.problems()).c_str());
        const Problems problems = unknownFigures(*lesson);
        QCOMPARE(problems.size(), std::size_t(2));
        QVERIFY(hasProblem(problems, "steps[0].answer.en", "unknown_figure"));
        QVERIFY(hasProblem(problems, "steps[1].text.zh_CN", "unknown_figure"));
        QVERIFY(problems[1].message.find("time.weeks") != std::string::npos);
    }

    void fillFiguresPutsInTheEnginesNumber_data()
    {
        QTest::addColumn<QLocale>("locale");
        QTest::newRow("C") << QLocale::c();
        QTest::newRow("German") << QLocale(QLocale::German, QLocale::Germany);
        QTest::newRow("Chinese") << QLocale(QLocale::Chinese, QLocale::China);
    }

    void fillFiguresPutsInTheEnginesNumber()
    {
        QFETCH(QLocale, locale);
        const Result<Estimate> estimated = estimate(defaultScenario());
        QVERIFY2(estimated.ok(), formatProblems(estimated.problems()).c_str());
        const Estimate &engine = *estimated;

        // Units and yes/no are Chinese in a Chinese locale (core has no translator). Written as
        // the pages write them: whole days from 100 on, bytes with an SI prefix at three
        // significant digits, a percentage with a space (none in Chinese), a power of ten.
        const bool chinese = locale.language() == QLocale::Chinese;
        QVERIFY(engine.time.days >= 100 && engine.time.days < 1000);
        const std::string days = locale.toString(engine.time.days, 'f', 0).toStdString() + (chinese ? " 天" : " days");
        const double total_gb = double(engine.memory.total) / 1e9;
        QVERIFY(total_gb >= 10 && total_gb < 100);
        const std::string memory = locale.toString(total_gb, 'f', 1).toStdString() + " GB";
        const std::string mfu = locale.toString(engine.time.mfu * 100.0, 'f', 1).toStdString() + (chinese ? "%" : " %");
        const int exponent = int(std::floor(std::log10(engine.flops.six_nd)));
        QCOMPARE(exponent, 24);
        const std::string six_nd = locale.toString(engine.flops.six_nd / 1e24, 'f', 2).toStdString() + " × 10²⁴ FLOPs";
        const std::string fits = chinese ? (engine.memory.fits ? "是" : "否") : (engine.memory.fits ? "yes" : "no");

        QCOMPARE(fillFigures("{time.days}", engine, locale), days);
        QCOMPARE(fillFigures("Takes {time.days} at {time.mfu} MFU; {memory.total_gb} per GPU, fits: {memory.fits}.",
                             engine, locale),
                 "Takes " + days + " at " + mfu + " MFU; " + memory + " per GPU, fits: " + fits + ".");
        QCOMPARE(fillFigures("6ND = {flops.six_nd}", engine, locale), "6ND = " + six_nd);
        // Unknown names and non-figure braces are left as written.
        QCOMPARE(fillFigures("{time.weeks} {a b} {", engine, locale), std::string("{time.weeks} {a b} {"));
    }

    void scaledFiguresUseModelCardSuffixes()
    {
        const LessonFigure *parameters = findLessonFigure("parameters.total");
        QVERIFY(parameters != nullptr);
        QCOMPARE(formatFigure(*parameters, 70.6e9, QLocale::c()), std::string("70.6 B"));
        QCOMPARE(formatFigure(*parameters, 15e12, QLocale::c()), std::string("15.0 T"));
        QCOMPARE(formatFigure(*parameters, 512, QLocale::c()), std::string("512"));
    }

    // Issue 28, item 18: one value per quantity. 444.5 GFLOP per token is "445 B" on the
    // Architecture page and was "444B" in a lesson (two rounding rules); 6.21e24 FLOPs was
    // "6.21E+24" in a lesson and 6.21 × 10^24 on the pages; the cost was "USD" in a lesson and "(in
    // your currency)" on the Overview.
    void figuresAreWrittenAsThePagesWriteThem()
    {
        const LessonFigure *per_token = findLessonFigure("flops.train_per_token");
        QVERIFY(per_token);
        QCOMPARE(formatFigure(*per_token, 444.5e9, QLocale::c()), std::string("445 B FLOPs"));
        QCOMPARE(formatCount(444.5e9, QLocale::c()), std::string("445 B"));
        const LessonFigure *six_nd = findLessonFigure("flops.six_nd");
        QVERIFY(six_nd);
        QCOMPARE(formatFigure(*six_nd, 6.21e24, QLocale::c()), std::string("6.21 × 10²⁴ FLOPs"));
        QCOMPARE(formatScientific(9.996e24, 3, QLocale::c()), std::string("1.00 × 10²⁵"));
        const LessonFigure *cost = findLessonFigure("time.cost");
        QVERIFY(cost);
        QCOMPARE(formatFigure(*cost, 12'479'263, QLocale::c()), std::string("12.5 M (in your currency)"));
        QCOMPARE(formatFigure(*cost, 12'479'263, QLocale(QLocale::Chinese, QLocale::China)), std::string("12.5 M（货币单位自定）"));
        const LessonFigure *peak = findLessonFigure("time.peak_flops_per_gpu");
        QVERIFY(peak);
        QCOMPARE(formatFigure(*peak, 1.979e15, QLocale::c()), std::string("1.98 PFLOP/s"));
        const LessonFigure *memory = findLessonFigure("memory.total_gb");
        QVERIFY(memory);
        QCOMPARE(formatFigure(*memory, 1.1943e12, QLocale::c()), std::string("1.19 TB"));
        const LessonFigure *days = findLessonFigure("time.days");
        QVERIFY(days);
        QCOMPARE(formatFigure(*days, 253.9, QLocale::c()), std::string("254 days"));
    }

    void everyFigureIsFiniteForTheDefaultScenario()
    {
        const Result<Estimate> estimated = estimate(defaultScenario());
        QVERIFY(estimated.ok());
        for (const LessonFigure &figure : lessonFigures()) {
            QVERIFY2(std::isfinite(figure.value(*estimated)), std::string(figure.name).c_str());
            QCOMPARE(findLessonFigure(figure.name), &figure);
        }
    }
};

QTEST_GUILESS_MAIN(LessonsTest)
#include "test_lessons.moc"
