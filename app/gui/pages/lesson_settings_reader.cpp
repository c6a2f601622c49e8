// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/lesson_settings_reader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>

#include <cmath>

namespace lse::gui {

QString lessonValueText(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String: return QStringLiteral("'%1'").arg(value.toString());
    case QJsonValue::Bool: return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: return QString::number(value.toDouble(), 'g', 12);
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("nothing");
}

LessonSettingsReader::LessonSettingsReader(const QJsonObject &settings) : settings_(settings) {}

void LessonSettingsReader::fail(const QString &key, const QString &rule)
{
    if (problem_.isEmpty())
        problem_ = QStringLiteral("%1: %2").arg(key, rule);
}

void LessonSettingsReader::failWith(const QString &key, const QString &rule, const QJsonValue &value)
{
    fail(key, tr("%1, got %2").arg(rule, lessonValueText(value)));
}

std::optional<int> LessonSettingsReader::integer(const QString &key, int min, int max)
{
    declared_.insert(key);
    if (!settings_.contains(key))
        return std::nullopt;
    const QJsonValue value = settings_.value(key);
    const double number = value.toDouble(std::nan(""));
    if (!value.isDouble() || number != std::floor(number) || number < min || number > max) {
        failWith(key, tr("expected an integer in %1..%2").arg(min).arg(max), value);
        return std::nullopt;
    }
    return int(number);
}

std::optional<double> LessonSettingsReader::number(const QString &key, double min, double max)
{
    declared_.insert(key);
    if (!settings_.contains(key))
        return std::nullopt;
    const QJsonValue value = settings_.value(key);
    const double number = value.toDouble(std::nan(""));
    if (!value.isDouble() || !(number >= min && number <= max)) {
        failWith(key, tr("expected a number in %1..%2").arg(min).arg(max), value);
        return std::nullopt;
    }
    return number;
}

std::optional<QString> LessonSettingsReader::choice(const QString &key, const QStringList &choices)
{
    declared_.insert(key);
    if (!settings_.contains(key))
        return std::nullopt;
    const QJsonValue value = settings_.value(key);
    if (!value.isString() || !choices.contains(value.toString())) {
        failWith(key, tr("expected %1").arg(choices.join(QLatin1Char('|'))), value);
        return std::nullopt;
    }
    return value.toString();
}

std::optional<bool> LessonSettingsReader::boolean(const QString &key)
{
    declared_.insert(key);
    if (!settings_.contains(key))
        return std::nullopt;
    const QJsonValue value = settings_.value(key);
    if (!value.isBool()) {
        failWith(key, tr("expected true|false"), value);
        return std::nullopt;
    }
    return value.toBool();
}

std::optional<QString> LessonSettingsReader::text(const QString &key, int max_length)
{
    declared_.insert(key);
    if (!settings_.contains(key))
        return std::nullopt;
    const QJsonValue value = settings_.value(key);
    if (!value.isString() || value.toString().size() > max_length) {
        failWith(key, tr("expected a text of at most %1 characters").arg(max_length),
                 value.isString() ? QJsonValue(tr("%n character(s)", nullptr, int(value.toString().size())))
                                  : value);
        return std::nullopt;
    }
    return value.toString();
}

std::optional<QList<int>> LessonSettingsReader::integerSet(const QString &key, int min, int max)
{
    declared_.insert(key);
    if (!settings_.contains(key))
        return std::nullopt;
    const QJsonValue value = settings_.value(key);
    QList<int> result;
    bool good = value.isArray() && !value.toArray().isEmpty();
    for (const QJsonValue &item : value.toArray()) {
        const double number = item.toDouble(std::nan(""));
        if (!item.isDouble() || number != std::floor(number) || number < min || number > max
            || result.contains(int(number)))
            good = false;
        else
            result << int(number);
    }
    if (!good) {
        failWith(key, tr("expected a list of distinct integers in %1..%2, at least one").arg(min).arg(max), value);
        return std::nullopt;
    }
    return result;
}

std::optional<QStringList> LessonSettingsReader::choiceSet(const QString &key, const QStringList &choices)
{
    declared_.insert(key);
    if (!settings_.contains(key))
        return std::nullopt;
    const QJsonValue value = settings_.value(key);
    QStringList result;
    bool good = value.isArray() && !value.toArray().isEmpty();
    for (const QJsonValue &item : value.toArray()) {
        if (!item.isString() || !choices.contains(item.toString()) || result.contains(item.toString()))
            good = false;
        else
            result << item.toString();
    }
    if (!good) {
        failWith(key, tr("expected a list of distinct %1, at least one").arg(choices.join(QLatin1Char('|'))), value);
        return std::nullopt;
    }
    return result;
}

bool LessonSettingsReader::finish(QString *error)
{
    if (problem_.isEmpty()) {
        for (auto it = settings_.begin(); it != settings_.end(); ++it) {
            if (!declared_.contains(it.key())) {
                QStringList known(declared_.begin(), declared_.end());
                known.sort();
                fail(it.key(), tr("unknown setting on this page (known: %1)").arg(known.join(QStringLiteral(", "))));
                break;
            }
        }
    }
    if (!problem_.isEmpty() && error)
        *error = problem_;
    return problem_.isEmpty();
}

}  // namespace lse::gui
