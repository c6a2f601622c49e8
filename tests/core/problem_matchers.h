// SPDX-License-Identifier: GPL-3.0-or-later
// Matching the problems a parser or validator reports, for the core tests.
#pragma once

#include "common/problem.h"

#include <string>

namespace lse::test {

// Whether `problems` has one on `field` breaking `rule` whose message names the field.
inline bool hasProblem(const Problems &problems, const std::string &field, const std::string &rule)
{
    for (const Problem &problem : problems)
        if (problem.field == field && problem.rule == rule && problem.message.find(field) != std::string::npos)
            return true;
    return false;
}

}  // namespace lse::test
