// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "tokenizer/bpe_tokenizer.h"

#include <QString>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lse::gui {

// Reading the merge lists behind the Tokenization page's loaded tokenizers (for the "formed by
// merge k" tooltips; the tokenizers themselves load through core's loadTokenizer()).

// merges.txt in the GPT-2 alphabet → byte-string pairs.
std::vector<std::pair<std::string, std::string>> readMerges(const QString &path);
// The "merges" of a tokenizer.json model → byte-string pairs.
std::vector<std::pair<std::string, std::string>> readJsonMerges(const QString &path);
// GPT-2 files under other names in a folder (vocab.json, merges.txt).
std::optional<std::pair<QString, QString>> gpt2FilesIn(const QString &folder);
// The merges of a loaded tokenizer, read again from the file it came from; empty when the count
// differs from the tokenizer's.
std::vector<std::pair<std::string, std::string>> tooltipMerges(const QString &path, const BpeTokenizer &tokenizer);

}  // namespace lse::gui
