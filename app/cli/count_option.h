// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

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

}  // namespace lse::cli
