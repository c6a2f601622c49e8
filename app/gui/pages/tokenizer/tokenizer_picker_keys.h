// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace lse::gui::tokenizer_keys {

// The Tokenization page's picker data (stable across refills and languages). Loaded files and
// Hugging Face snapshots get keys of their own, made when they are found.
inline const QString kBytes = QStringLiteral("bytes");
inline const QString kCharacters = QStringLiteral("chars");
inline const QString kWords = QStringLiteral("words");
inline const QString kTrained = QStringLiteral("trained");
inline const QString kCourse = QStringLiteral("course");

}  // namespace lse::gui::tokenizer_keys
