// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_catalog.h"

#include "common/file_bytes.h"
#include "common/file_writer.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace lse {

namespace {

constexpr const char *kBuiltinLessonDir = ":/lessons";

std::vector<Lesson> loadBuiltinLessons()
{
    std::vector<Lesson> lessons;
    // Sorted by name: the files are numbered in the order of the course ("01-tokenization.json").
    const QStringList files =
        QDir(kBuiltinLessonDir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString &file_name : files) {
        QFile file(QStringLiteral("%1/%2").arg(QLatin1String(kBuiltinLessonDir), file_name));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read built-in lesson %s", qPrintable(file_name));
        Result<Lesson> lesson = parseLesson(file.readAll());
        if (!lesson)
            qFatal("built-in lesson %s is broken:\n%s", qPrintable(file_name),
                   formatProblems(lesson.problems()).c_str());
        if (!file_name.endsWith(QStringLiteral("-%1.json").arg(QString::fromStdString(lesson->id))))
            qFatal("built-in lesson %s declares id '%s'; the file must be named NN-<id>.json", qPrintable(file_name),
                   lesson->id.c_str());
        lessons.push_back(std::move(lesson.value()));
    }
    return lessons;
}

QJsonObject localizedToJson(const LocalizedText &text)
{
    QJsonObject object{{"en", QString::fromStdString(text.en)}};
    if (!text.zh_CN.empty())
        object.insert("zh_CN", QString::fromStdString(text.zh_CN));
    return object;
}

QJsonObject stepToJson(const LessonStep &step)
{
    QJsonObject object{{"page", QString::fromStdString(step.page)}};
    if (step.preset)
        object.insert("preset", QString::fromStdString(*step.preset));
    if (!step.scenario_changes.empty()) {
        QJsonArray changes;
        for (const ScenarioChange &change : step.scenario_changes)
            changes.append(QJsonObject{{"field", QString::fromStdString(change.field)}, {"value", change.value}});
        object.insert("scenario_changes", changes);
    }
    if (!step.page_settings.isEmpty())
        object.insert("page_settings", step.page_settings);
    if (step.highlight)
        object.insert("highlight", QJsonObject{{"kind", QString::fromUtf8(toString(step.highlight->kind).data())},
                                               {"target", QString::fromStdString(step.highlight->target)}});
    object.insert("text", localizedToJson(step.text));
    if (step.question)
        object.insert("question", localizedToJson(*step.question));
    if (step.answer)
        object.insert("answer", localizedToJson(*step.answer));
    return object;
}

}  // namespace

const std::vector<Lesson> &builtinLessons()
{
    static const std::vector<Lesson> lessons = loadBuiltinLessons();
    return lessons;
}

const Lesson *findBuiltinLesson(std::string_view id)
{
    for (const Lesson &lesson : builtinLessons())
        if (lesson.id == id)
            return &lesson;
    return nullptr;
}

Result<Lesson> loadLessonFile(const std::string &path)
{
    Result<QByteArray> read = readFileBytes(path, FileKind::Config);
    if (!read) {
        Problem problem = read.problems().front();
        return Problems{{"file", problem.rule == "unreadable" ? "read" : problem.rule, "file: " + problem.message}};
    }
    if (std::optional<Problem> problem = textFileProblem(*read, path)) {
        problem->message = "file: " + problem->message;
        return Problems{*problem};
    }
    return parseLesson(*read);
}

QByteArray lessonToJson(const Lesson &lesson)
{
    QJsonArray steps;
    for (const LessonStep &step : lesson.steps)
        steps.append(stepToJson(step));
    const QJsonObject root{{"format", kLessonFormat},
                           {"version", kLessonVersion},
                           {"id", QString::fromStdString(lesson.id)},
                           {"title", localizedToJson(lesson.title)},
                           {"lecture", QString::fromStdString(lesson.lecture)},
                           {"steps", steps}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

Problems saveLessonFile(const Lesson &lesson, const std::string &path, InputReplacement replacement)
{
    const QByteArray bytes = lessonToJson(lesson);
    const Result<bool> written =
        writeFileReplacing(path, std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), replacement);
    if (!written) {
        const Problem &problem = written.problems().front();
        return Problems{{"file", problem.rule == "unwritable" ? "write" : problem.rule, "file: " + problem.message}};
    }
    return {};
}

std::string localizedText(const LocalizedText &text, std::string_view language)
{
    if (language == "zh_CN" && !text.zh_CN.empty())
        return text.zh_CN;
    return text.en;
}

}  // namespace lse
