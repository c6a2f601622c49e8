// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli lessons`: the shipped classroom lessons (core/lessons), a lesson's step texts
// with the engine's figures filled in, and a check of a lesson file for its authors.

#include "commands.h"
#include "output.h"

#include "lessons/lesson_catalog.h"
#include "lessons/lesson_check.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>

namespace lse::cli {

namespace {

QString qstr(const std::string &text) { return QString::fromStdString(text); }

// A built-in lesson's id, or a lesson file's path.
Result<Lesson> lessonNamed(const QString &name)
{
    if (const Lesson *lesson = findBuiltinLesson(name.toStdString()))
        return *lesson;
    if (QFileInfo::exists(name))
        return loadLessonFile(name.toStdString());
    std::string ids;
    for (const Lesson &lesson : builtinLessons())
        ids += (ids.empty() ? "" : ", ") + lesson.id;
    return Result<Lesson>::failure("--show", "unknown",
                                   "--show: '" + name.toStdString() +
                                       "' is neither a built-in lesson (" + ids + ") nor a lesson file");
}

QJsonObject stepJson(int number, const LessonStep &step, const LessonStepState &state, const std::string &language)
{
    const FilledStepText filled = filledStepText(step, state.estimate, language, QLocale(qstr(language)));
    QJsonObject object{{"step", number}, {"page", qstr(step.page)}, {"text", qstr(filled.text)}};
    if (step.question) {
        object.insert("question", qstr(filled.question));
        object.insert("answer", qstr(filled.answer));
    }
    return object;
}

int listLessons(bool json, const std::string &language)
{
    QJsonArray array;
    for (const Lesson &lesson : builtinLessons()) {
        if (json) {
            array.append(QJsonObject{{"id", qstr(lesson.id)},
                                     {"title", qstr(localizedText(lesson.title, language))},
                                     {"lecture", qstr(lesson.lecture)},
                                     {"steps", int(lesson.steps.size())}});
            continue;
        }
        printOut(QStringLiteral("%1\t%2\t%3 steps\t%4\n")
                     .arg(qstr(lesson.id), qstr(localizedText(lesson.title, language)))
                     .arg(lesson.steps.size())
                     .arg(qstr(lesson.lecture)));
    }
    if (json)
        printJson(QJsonObject{{"lessons", array}});
    return kExitOk;
}

}  // namespace

int runLessons(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The classroom lessons: without options, one line per shipped lesson (its id first). --show prints a "
        "lesson's steps with every figure filled in by the engine at that step; --check checks a lesson file "
        "(its format, every step's scenario, every figure its texts cite) and exits 2 with each problem named "
        "by step and field. Pages, page settings and highlight targets are checked by the GUI "
        "(llm-explorer --lesson FILE)."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    const QCommandLineOption show(QStringLiteral("show"),
                                  QStringLiteral("Print the steps of this lesson (a built-in id or a file)."),
                                  QStringLiteral("LESSON"));
    const QCommandLineOption step(QStringLiteral("step"),
                                  QStringLiteral("With --show: only step K (numbered from 1)."), QStringLiteral("K"));
    const QCommandLineOption check(QStringLiteral("check"), QStringLiteral("Check this lesson file."),
                                   QStringLiteral("FILE"));
    const QCommandLineOption lang(QStringLiteral("lang"), QStringLiteral("Language of the texts: en or zh_CN."),
                                  QStringLiteral("LANG"), QStringLiteral("en"));
    for (const QCommandLineOption &option : {help, json, show, step, check, lang})
        parser.addOption(option);
    if (!parser.parse(QStringList{"lessons"} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli lessons [--json] [--lang en|zh_CN] [--show LESSON [--step K]] "
                                "[--check FILE]\n") +
                 parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString() + "'"}});
    const std::string language = parser.value(lang).toStdString();
    if (language != "en" && language != "zh_CN")
        return reportProblems({Problem{"--lang", "enum", "--lang: expected en or zh_CN, got '" + language + "'"}});
    if (parser.isSet(step) && !parser.isSet(show))
        return reportProblems({Problem{"--step", "requires", "--step: needs --show LESSON"}});
    if (parser.isSet(check) && parser.isSet(show))
        return reportProblems({Problem{"--check", "exclusive", "--check: give either --check or --show"}});

    if (parser.isSet(check)) {
        const std::string path = parser.value(check).toStdString();
        Result<Lesson> lesson = loadLessonFile(path);
        if (!lesson)
            return reportProblems(lesson.problems());
        const Problems problems = checkLesson(*lesson);
        if (!problems.empty())
            return reportProblems(problems);
        if (parser.isSet(json))
            printJson(QJsonObject{{"id", qstr(lesson->id)}, {"steps", int(lesson->steps.size())}, {"ok", true}});
        else
            printOut(QStringLiteral("%1: %2 steps, every scenario valid, every figure known\n")
                         .arg(qstr(lesson->id))
                         .arg(lesson->steps.size()));
        return kExitOk;
    }
    if (!parser.isSet(show))
        return listLessons(parser.isSet(json), language);

    Result<Lesson> lesson = lessonNamed(parser.value(show));
    if (!lesson)
        return reportProblems(lesson.problems());
    const int count = int(lesson->steps.size());
    int first = 1;
    int last = count;
    if (parser.isSet(step)) {
        const std::optional<std::int64_t> k = parseCount(parser.value(step));
        if (!k || *k < 1 || *k > count)
            return reportProblems({Problem{"--step", "range",
                                           QStringLiteral("--step: expected a step from 1 to %1 of '%2', got '%3'")
                                               .arg(count)
                                               .arg(qstr(lesson->id), parser.value(step))
                                               .toStdString()}});
        first = last = int(*k);
    }
    const Result<std::vector<LessonStepState>> states = lessonStepStates(*lesson);
    if (!states)
        return reportProblems(states.problems());
    QJsonArray steps;
    for (int number = first; number <= last; ++number) {
        const LessonStep &lesson_step = lesson->steps[std::size_t(number - 1)];
        const QJsonObject object = stepJson(number, lesson_step, (*states)[std::size_t(number - 1)], language);
        if (parser.isSet(json)) {
            steps.append(object);
            continue;
        }
        printOut(QStringLiteral("%1/%2 [%3]\n%4\n").arg(number).arg(count).arg(qstr(lesson_step.page),
                                                                              object.value("text").toString()));
        if (lesson_step.question)
            printOut(QStringLiteral("  Q: %1\n  A: %2\n")
                         .arg(object.value("question").toString(), object.value("answer").toString()));
        printOut(QStringLiteral("\n"));
    }
    if (parser.isSet(json))
        printJson(QJsonObject{{"id", qstr(lesson->id)},
                              {"title", qstr(localizedText(lesson->title, language))},
                              {"step_count", count},
                              {"steps", steps}});
    return kExitOk;
}

}  // namespace lse::cli
