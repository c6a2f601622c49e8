// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/problem.h"

namespace lse {

std::string formatProblems(const Problems &problems)
{
    std::string text;
    for (const Problem &problem : problems) {
        // Messages usually start with their field already; don't say it twice.
        if (problem.message.compare(0, problem.field.size(), problem.field) != 0) {
            text += problem.field;
            text += ": ";
        }
        text += problem.message;
        text += " [";
        text += problem.rule;
        text += "]\n";
    }
    return text;
}

std::string formatProblemsOnOneLine(const Problems &problems)
{
    std::string text;
    for (const Problem &problem : problems) {
        if (!text.empty())
            text += "; ";
        if (problem.message.compare(0, problem.field.size(), problem.field) != 0)
            text += problem.field + ": ";
        text += problem.message;
    }
    // A message of several lines (none should have them) still makes one line.
    for (char &c : text)
        if (c == '\n')
            c = ' ';
    return text;
}

}  // namespace lse
