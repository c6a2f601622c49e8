// SPDX-License-Identifier: GPL-3.0-or-later
#include "document/autosave_record.h"

#include "scenario/scenario_json.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

namespace lse::gui {

namespace {

constexpr char kFormat[] = "llm-explorer-autosave";
constexpr int kFormatVersion = 1;

}  // namespace

QByteArray AutosaveFormat::toJson(const AutosaveRecord &record)
{
    QJsonObject object;
    object.insert(QStringLiteral("format"), QLatin1String(kFormat));
    object.insert(QStringLiteral("format_version"), kFormatVersion);
    object.insert(QStringLiteral("document_path"), record.document_path);
    object.insert(QStringLiteral("saved_at"), record.saved_at_utc.toUTC().toString(Qt::ISODateWithMs));
    object.insert(QStringLiteral("app_version"), record.app_version);
    object.insert(QStringLiteral("pid"), record.pid);
    // The scenario exactly as a scenario file holds it, so the same reader (and its checks) apply.
    object.insert(QStringLiteral("scenario"), QJsonDocument::fromJson(scenarioToJson(record.scenario)).object());
    return QJsonDocument(object).toJson(QJsonDocument::Indented);
}

std::optional<AutosaveRecord> AutosaveFormat::fromJson(const QByteArray &json, const QString &file_name, QString *error)
{
    const auto fail = [&](const QString &rule) -> std::optional<AutosaveRecord> {
        if (error)
            *error = tr("%1: %2").arg(file_name, rule);
        return std::nullopt;
    };
    QJsonParseError parse_error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parse_error);
    if (parse_error.error != QJsonParseError::NoError)
        return fail(tr("not valid JSON (%1 at offset %2)").arg(parse_error.errorString()).arg(parse_error.offset));
    if (!document.isObject())
        return fail(tr("an autosave must be a JSON object"));
    const QJsonObject object = document.object();
    if (object.value(QStringLiteral("format")).toString() != QLatin1String(kFormat))
        return fail(tr("\"format\" must be \"%1\"").arg(QLatin1String(kFormat)));
    const int version = object.value(QStringLiteral("format_version")).toInt(-1);
    if (version < 1 || version > kFormatVersion)
        return fail(tr("\"format_version\" must be 1 to %1").arg(kFormatVersion));
    if (!object.value(QStringLiteral("document_path")).isString())
        return fail(tr("\"document_path\" must be a string (empty for an untitled document)"));
    const QDateTime saved_at =
        QDateTime::fromString(object.value(QStringLiteral("saved_at")).toString(), Qt::ISODateWithMs);
    if (!saved_at.isValid())
        return fail(tr("\"saved_at\" must be an ISO 8601 time"));
    if (!object.value(QStringLiteral("scenario")).isObject())
        return fail(tr("\"scenario\" must be a scenario object"));
    const Result<Scenario> scenario =
        scenarioFromJson(QJsonDocument(object.value(QStringLiteral("scenario")).toObject()).toJson());
    if (!scenario)
        return fail(tr("\"scenario\" is not a valid scenario: %1")
                        .arg(QString::fromStdString(formatProblems(scenario.problems())).trimmed()));
    AutosaveRecord record;
    record.document_path = object.value(QStringLiteral("document_path")).toString();
    record.saved_at_utc = saved_at.toUTC();
    record.app_version = object.value(QStringLiteral("app_version")).toString();
    record.pid = qint64(object.value(QStringLiteral("pid")).toDouble());
    record.scenario = *scenario;
    return record;
}

}  // namespace lse::gui
