// SPDX-License-Identifier: GPL-3.0-or-later
#include "output.h"

#include <QJsonArray>

#include "commands.h"

#include "common/number_text.h"

#include <QJsonDocument>

#include <cmath>
#include <cstdio>

namespace lse::cli {

void printOut(const QString &text)
{
    std::fputs(text.toUtf8().constData(), stdout);
}

void printError(const QString &text)
{
    std::fputs(text.toUtf8().constData(), stderr);
}

QJsonObject withAdjustments(QJsonObject object, const std::vector<std::string> &adjustments)
{
    QJsonArray changes;
    for (const std::string &adjustment : adjustments)
        changes.append(QString::fromStdString(adjustment));
    object.insert(QStringLiteral("adjustments"), changes);
    return object;
}

void printJson(const QJsonObject &object)
{
    printOut(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented)));
}

int reportProblems(const Problems &problems)
{
    printError(QStringLiteral("error: %1 problem%2 with the input:\n")
                   .arg(problems.size())
                   .arg(problems.size() == 1 ? "" : "s"));
    printError(QString::fromStdString(formatProblems(problems)));
    return kExitBadInput;
}

namespace {

QString withPrefix(double value, const char *unit, double base)
{
    static const char *const prefixes[] = {"", "k", "M", "G", "T", "P", "E", "Z", "Y"};
    if (value == 0)
        return QStringLiteral("0 %1").arg(unit);
    int index = 0;
    double scaled = value;
    while (std::fabs(scaled) >= base && index < 8) {
        scaled /= base;
        ++index;
    }
    const int decimals = std::fabs(scaled) >= 100 ? 1 : std::fabs(scaled) >= 10 ? 2 : 3;
    return QStringLiteral("%1 %2%3").arg(scaled, 0, 'f', decimals).arg(prefixes[index]).arg(unit);
}

}  // namespace

QString formatCount(double value) { return withPrefix(value, "", 1000).trimmed(); }
QString formatBytes(double bytes) { return withPrefix(bytes, "B", 1000); }
QString formatFlops(double flops) { return QStringLiteral("%1 (%2)").arg(withPrefix(flops, "FLOP", 1000)).arg(flops, 0, 'e', 3); }

QString formatSeconds(double seconds)
{
    if (seconds < 1e-3)
        return QStringLiteral("%1 µs").arg(seconds * 1e6, 0, 'f', 1);
    if (seconds < 1)
        return QStringLiteral("%1 ms").arg(seconds * 1e3, 0, 'f', 2);
    if (seconds < 3600)
        return QStringLiteral("%1 s").arg(seconds, 0, 'f', 2);
    if (seconds < 86400 * 2)
        return QStringLiteral("%1 h").arg(seconds / 3600, 0, 'f', 2);
    return QStringLiteral("%1 days").arg(seconds / 86400, 0, 'f', 1);
}

std::optional<double> parseNumber(const QString &text) { return parseNumberText(text.toStdString()); }

std::optional<std::int64_t> parseCount(const QString &text) { return parseCountText(text.toStdString()); }

}  // namespace lse::cli
