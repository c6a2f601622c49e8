// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/link_profile.h"

#include "common/file_bytes.h"
#include "common/file_writer.h"
#include "common/json_fields.h"
#include "hardware/machine_roofline.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace lse::distributed {

namespace {

constexpr const char *kLinkProfileFormat = "llm-explorer-link-profile";
constexpr int kLinkProfileVersion = 1;

QJsonArray sweepToJson(const std::vector<SweepPoint> &points)
{
    QJsonArray array;
    for (const SweepPoint &point : points)
        array.append(QJsonObject{{"bytes", double(point.bytes)},
                                 {"seconds", point.seconds},
                                 {"algbw_bytes_per_second", point.algorithm_bandwidth_bytes_per_second},
                                 {"busbw_bytes_per_second", point.bus_bandwidth_bytes_per_second}});
    return array;
}

// A sweep array; every unusable entry adds a problem naming it ("all_reduce[2].seconds").
std::vector<SweepPoint> sweepFromJson(const QJsonObject &root, std::string_view key, Problems &problems)
{
    std::vector<SweepPoint> points;
    const QJsonValue value = root.value(QLatin1String(key.data(), qsizetype(key.size())));
    if (value.isUndefined())
        return points;
    if (!value.isArray()) {
        problems.push_back({std::string(key), "type", std::string(key) + ": expected an array, got " + describeJsonValue(value)});
        return points;
    }
    const QJsonArray array = value.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const std::string path = std::string(key) + "[" + std::to_string(i) + "]";
        if (!array[i].isObject()) {
            problems.push_back({path, "type", path + ": expected an object, got " + describeJsonValue(array[i])});
            continue;
        }
        JsonFieldReader reader(array[i].toObject(), path, problems);
        SweepPoint point;
        for (std::string_view field : {"bytes", "seconds"})
            if (!reader.has(field))
                reader.addProblem(field, "required", "missing");
        reader.readCount("bytes", point.bytes);
        reader.readAmount("seconds", point.seconds);
        reader.readAmount("algbw_bytes_per_second", point.algorithm_bandwidth_bytes_per_second);
        reader.readAmount("busbw_bytes_per_second", point.bus_bandwidth_bytes_per_second);
        points.push_back(point);
    }
    return points;
}

}  // namespace

Result<LinkProfile> makeLinkProfile(int ranks, std::vector<SweepPoint> ping_pong, std::vector<SweepPoint> all_reduce)
{
    const Result<parallel::LinkModel> fitted = fitRingAllReduce(all_reduce, ranks);
    if (!fitted)
        return fitted.problems();
    LinkProfile profile;
    profile.ranks = ranks;
    profile.alpha_seconds = fitted->latency_seconds;
    profile.beta_bytes_per_second = fitted->bandwidth_bytes_per_second;
    profile.measured_at = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    profile.ping_pong = std::move(ping_pong);
    profile.all_reduce = std::move(all_reduce);
    return profile;
}

QByteArray linkProfileToJson(const LinkProfile &profile)
{
    const QJsonObject object{{"format", QLatin1String(kLinkProfileFormat)},
                             {"version", kLinkProfileVersion},
                             {"ranks", profile.ranks},
                             {"alpha_seconds", profile.alpha_seconds},
                             {"beta_bytes_per_second", profile.beta_bytes_per_second},
                             {"measured_at", QString::fromStdString(profile.measured_at)},
                             {"ping_pong", sweepToJson(profile.ping_pong)},
                             {"all_reduce", sweepToJson(profile.all_reduce)}};
    return QJsonDocument(object).toJson(QJsonDocument::Indented);
}

Result<LinkProfile> linkProfileFromJson(const QByteArray &json)
{
    Problems problems;
    const std::optional<QJsonObject> root = parseFormattedJson(json, kLinkProfileFormat, kLinkProfileVersion, problems);
    if (!root)
        return problems;
    LinkProfile profile;
    JsonFieldReader reader(*root, "", problems);
    for (std::string_view key : {"ranks", "alpha_seconds", "beta_bytes_per_second", "measured_at"})
        if (!reader.has(key))
            reader.addProblem(key, "required", "missing");
    // A link needs two ends, and the α-β model divides by β (checked only when the field was readable).
    std::size_t known = problems.size();
    reader.readCount("ranks", profile.ranks);
    if (reader.has("ranks") && problems.size() == known && profile.ranks < 2)
        reader.addProblem("ranks", "at_least_two", "a link profile needs at least 2 ranks, got " + std::to_string(profile.ranks));
    reader.readAmount("alpha_seconds", profile.alpha_seconds);
    known = problems.size();
    reader.readAmount("beta_bytes_per_second", profile.beta_bytes_per_second);
    if (reader.has("beta_bytes_per_second") && problems.size() == known && !(profile.beta_bytes_per_second > 0))
        reader.addProblem("beta_bytes_per_second", "positive", "the bandwidth must be > 0");
    reader.readString("measured_at", profile.measured_at);
    profile.ping_pong = sweepFromJson(*root, "ping_pong", problems);
    profile.all_reduce = sweepFromJson(*root, "all_reduce", problems);
    if (!problems.empty())
        return problems;
    return profile;
}

std::string linkProfileCachePath(int ranks)
{
    // The machine roofline's folder: one place holds everything measured on this machine.
    const QString folder = QFileInfo(QString::fromStdString(machineRooflineCachePath())).absolutePath();
    return QDir(folder).filePath(QStringLiteral("link-profile-np%1.json").arg(ranks)).toStdString();
}

Result<std::string> saveLinkProfile(const LinkProfile &profile)
{
    const std::string path = linkProfileCachePath(profile.ranks);
    if (!QDir().mkpath(QFileInfo(QString::fromStdString(path)).absolutePath()))
        return Result<std::string>::failure(path, "write", path + ": cannot create the folder");
    // Every write checked before the file replaces an old profile (as the machine roofline cache).
    const QByteArray json = linkProfileToJson(profile);
    FileWriter file(path);
    file.allowReplacingInput();  // the cache this program read before re-measuring
    if (!file.open() || !file.write(json.constData(), static_cast<std::size_t>(json.size())) || !file.replace())
        return Result<std::string>::failure(path, "write", file.problem().message);
    return path;
}

LinkProfileLookup loadLinkProfile(int ranks)
{
    LinkProfileLookup lookup;
    lookup.path = linkProfileCachePath(ranks);
    if (!QFileInfo::exists(QString::fromStdString(lookup.path)))
        return lookup;  // never measured: not a problem
    // A file that cannot be used is a stale cache: said on one line, ignored, and replaced by the
    // next measurement.
    const auto broken = [&lookup, ranks](const std::string &rule, const std::string &why) {
        lookup.problems.push_back({lookup.path, rule,
                                   lookup.path + ": stale cache, ignored (" + why + "); measure again with mpirun -np " +
                                       std::to_string(ranks) + " llm-explorer-cli links"});
        return lookup;
    };
    const Result<QByteArray> bytes = readFileBytes(lookup.path, FileKind::Config);
    if (!bytes)
        return broken("unreadable", formatProblemsOnOneLine(bytes.problems()));
    Result<LinkProfile> profile = linkProfileFromJson(*bytes);
    if (!profile)
        return broken(profile.problems().front().rule, formatProblemsOnOneLine(profile.problems()));
    if (profile->ranks != ranks)
        return broken("ranks", "holds a profile for " + std::to_string(profile->ranks) + " ranks, not "
                                   + std::to_string(ranks));
    lookup.profile = std::move(profile.value());
    return lookup;
}

}  // namespace lse::distributed
