// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "scenario/model_config.h"

#include <QByteArray>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lse {

// One notable published model of resources/atlas/models.json: its architecture as the engine sees
// it, when and by whom it was published, where the numbers come from, and the parameter count its
// authors give beside the engine's count of the same shapes.
struct AtlasEntry {
    std::string id;            // e.g. "llama-2-7b"
    std::string organisation;  // e.g. "Meta"
    std::string family;        // e.g. "Llama": what the family filter offers
    int year = 0;
    int month = 0;  // 1..12, 0 when unknown
    // As published (model card, paper table or checkpoint); nothing when the authors give none.
    std::optional<std::int64_t> published_parameters;
    std::string source;  // paper and table, or the released config's repository and file
    std::string note;    // what the engine approximates or leaves out for this model (may be empty)
    ModelConfig model;   // model.name is the display name
    std::int64_t engine_parameters = 0;         // countParameters(model).total
    std::int64_t engine_active_parameters = 0;  // countParameters(model).active (MoE: per token)

    // (engine - published) / published, or nothing without a published count.
    std::optional<double> parameterDifferenceFraction() const;
    // year + (month - 1) / 12: where the model sits on a time axis (mid-year when the month is unknown).
    double fractionalYear() const;
};

// The atlas file: {"format": "llm-explorer-model-atlas", "version": 1, "models": [{"id",
// "organisation", "family", "year", "month", "published_parameters" (count or null), "source",
// "note", "model": {...as modelToJson}}]}. Every row's model must pass validateModel. Problems name
// the row and the field, e.g. "models[3].model.n_heads" with the row's id in the message.
Result<std::vector<AtlasEntry>> parseModelAtlas(const QByteArray &json);

// The built-in atlas, compiled in as ":/atlas/models.json", in file order (chronological), parsed
// once. A broken built-in atlas is a programming error and aborts with its problems (tests catch it).
const std::vector<AtlasEntry> &builtinModelAtlas();
const AtlasEntry *findAtlasEntry(std::string_view id);

}  // namespace lse
