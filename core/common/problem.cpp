// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/problem.h"

namespace lse {

std::string formatProblems(const Problems &problems)
{
    std::string text;
    for (const Problem &problem : problems) {
        text += problem.field;
        text += ": ";
        text += problem.message;
        text += " [";
        text += problem.rule;
        text += "]\n";
    }
    return text;
}

}  // namespace lse
