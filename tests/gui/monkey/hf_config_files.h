// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace lse::monkey {

// Hugging Face config.json files for the monkey's imports, written under `folder`, one subfolder per
// file (the import names the model after its folder): a few real-shaped ones (Llama 2 7B, Llama 3 8B
// with grouped-query attention, Mistral 7B with a sliding window, GPT-2 small, a Mixtral-style MoE) and
// broken ones (truncated JSON, wrong value types, a missing required field, an unsupported family,
// an empty file, binary bytes named config.json, a JSON array, a folder named config.json).
struct HfConfigFiles {
    QStringList valid;
    QStringList broken;
};
// Empty lists with *error naming the path when a file cannot be written.
HfConfigFiles writeHfConfigFiles(const QString &folder, QString *error);

}  // namespace lse::monkey
