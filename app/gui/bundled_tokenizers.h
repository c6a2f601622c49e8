// SPDX-License-Identifier: GPL-3.0-or-later
// The GPT-2 tokenizer (OpenAI's vocab.json + merges.txt, MIT licence; resources/tokenizers/gpt2/)
// ships inside the application as a Qt resource, so the Tokenization page and its lesson work in a
// fresh clone and in an installed copy without the course folder. Core's loaders read files by path
// (size limits, regular files only), so the resource is copied once into a cache folder.
#pragma once

#include <QString>

namespace lse::gui {

// Resource folder of the bundled GPT-2 files (":/tokenizers/gpt2").
QString bundledGpt2ResourceDir();

// A folder holding vocab.json + merges.txt byte-equal to the bundled ones: `cacheRoot` (default: the
// application's cache location) + "/tokenizers/gpt2", written when absent or different. Empty, with
// the reason in `error`, when the folder cannot be written.
QString bundledGpt2Dir(const QString &cacheRoot = {}, QString *error = nullptr);

}  // namespace lse::gui
