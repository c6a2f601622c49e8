// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/number_text.h"
#include "common/problem.h"
#include "output.h"

#include <QCommandLineParser>
#include <QString>

#include <cstdint>
#include <optional>

namespace lse::cli {

// A whole-number flag in [minimum, 1e9] (`train`, `ablate`): `out` unchanged when the flag is absent;
// otherwise a problem naming --name when the value is not such a number.
template <typename Int>
void intOption(const QCommandLineParser &parser, const QString &name, std::int64_t minimum, Int &out, Problems &problems)
{
    if (!parser.isSet(name))
        return;
    const std::optional<std::int64_t> value = parseCount(parser.value(name));
    if (!value || *value < minimum || *value > 1'000'000'000) {
        problems.push_back(Problem{"--" + name.toStdString(), "integer",
                                   QStringLiteral("--%1 '%2' is not a whole number >= %3").arg(name, parser.value(name)).arg(minimum)
                                       .toStdString()});
        return;
    }
    out = Int(*value);
}

// A count flag (bytes, parameters, tokens, ranks...): whole and in [minimum, maximum], in
// parseCount's syntax (4096, 256M, 1e9). Nothing when the flag is absent or refused; a refusal is
// a problem {"--name", "count"} quoting the value as typed and saying why (countRefusal: not a
// number, negative, a fraction such as 2.5 or 1e-30) or the range.
inline std::optional<std::int64_t> countFlag(const QCommandLineParser &parser, const QString &name, std::int64_t minimum,
                                             std::int64_t maximum, Problems &problems)
{
    if (!parser.isSet(name))
        return std::nullopt;
    const QString text = parser.value(name);
    const std::optional<std::int64_t> value = parseCount(text);
    if (!value) {
        problems.push_back(Problem{"--" + name.toStdString(), "count", QStringLiteral("--%1 %2").arg(name, countRefusal(text)).toStdString()});
        return std::nullopt;
    }
    if (*value < minimum || *value > maximum) {
        // 1e18 rather than "1000000T".
        const auto shown = [](std::int64_t v) {
            return v >= 1'000'000'000'000'000 ? QString::number(double(v), 'g', 3).replace(QLatin1String("e+"), QLatin1String("e"))
                                              : QString::fromStdString(formatCountText(v));
        };
        problems.push_back(Problem{"--" + name.toStdString(), "count",
                                   QStringLiteral("--%1 '%2' must be a whole number from %3 to %4")
                                       .arg(name, text, shown(minimum), shown(maximum))
                                       .toStdString()});
        return std::nullopt;
    }
    return value;
}

}  // namespace lse::cli
