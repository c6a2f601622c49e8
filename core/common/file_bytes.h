// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"

#include <QByteArray>

#include <string>

namespace lse {

// The whole file, or one problem {field: path, rule: "unreadable"} saying why it cannot be opened.
Result<QByteArray> readFileBytes(const std::string &path);

}  // namespace lse
