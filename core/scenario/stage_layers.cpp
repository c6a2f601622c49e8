// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/stage_layers.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <numeric>
#include <string>

namespace lse {

std::vector<int> evenLayerSplit(int layers, int parts)
{
    if (parts < 1)
        return {};
    const int base = std::max(0, layers) / parts;
    int remainder = std::max(0, layers) % parts;
    std::vector<int> split(std::size_t(parts), base);
    // Middle parts from the last one backwards; a remainder larger than the middle ends on the last part.
    for (int part = parts - 2; part >= 1 && remainder > 0; --part, --remainder)
        ++split[std::size_t(part)];
    if (remainder > 0)
        ++split.back();
    return split;
}

int PipelineLayers::mostLoadedStageLayers() const
{
    return stage_layers.empty() ? 0 : stage_layers.at(std::size_t(most_loaded_stage));
}

double PipelineLayers::imbalance() const
{
    if (stage_layers.empty())
        return 1.0;
    const double total = std::accumulate(stage_layers.begin(), stage_layers.end(), 0.0);
    return total > 0 ? mostLoadedStageLayers() * double(stage_layers.size()) / total : 1.0;
}

PipelineLayers pipelineLayers(int n_layers, const ParallelConfig &parallel)
{
    const int pp = std::max(1, parallel.pp);
    const int v = std::max(1, parallel.virtual_stages);
    PipelineLayers layers;
    layers.given = int(parallel.stage_layers.size()) == pp;
    layers.stage_layers = layers.given ? parallel.stage_layers : evenLayerSplit(n_layers, pp);
    const auto most = std::max_element(layers.stage_layers.begin(), layers.stage_layers.end());
    layers.most_loaded_stage = int(most - layers.stage_layers.begin());
    layers.virtual_stages = v;
    return layers;
}

std::vector<int> PipelineLayers::chunkLayers(int stage) const
{
    if (stage < 0 || stage >= int(stage_layers.size()))
        return {};
    return evenLayerSplit(stage_layers[std::size_t(stage)], virtual_stages);
}

int mostLoadedStageLayers(int n_layers, const ParallelConfig &parallel)
{
    const int pp = std::max(1, parallel.pp);
    if (int(parallel.stage_layers.size()) == pp)
        return *std::max_element(parallel.stage_layers.begin(), parallel.stage_layers.end());
    // evenLayerSplit gives every stage ⌊L/p⌋ and some of them one more.
    const int layers = std::max(0, n_layers);
    return layers / pp + (layers % pp != 0 ? 1 : 0);
}

Problems stageLayerProblems(int n_layers, const ParallelConfig &parallel)
{
    Problems problems;
    const std::int64_t chunks = std::int64_t(parallel.pp) * parallel.virtual_stages;
    const std::vector<int> &given = parallel.stage_layers;
    if (given.empty()) {
        if (n_layers > 0 && chunks > n_layers)
            problems.push_back({"model.n_layers", "layers_per_chunk",
                                "model.n_layers " + std::to_string(n_layers) + " is fewer than training.pp·virtual_stages "
                                    + std::to_string(chunks) + "; every pipeline chunk needs at least one layer",
                                {"training.pp", "training.virtual_stages"}});
        return problems;
    }
    if (int(given.size()) != parallel.pp)
        problems.push_back({"training.stage_layers", "length",
                            "training.stage_layers has " + std::to_string(given.size())
                                + " entries; it needs one per pipeline stage (training.pp " + std::to_string(parallel.pp) + ")",
                            {"training.pp"}});
    const std::int64_t sum = std::accumulate(given.begin(), given.end(), std::int64_t(0));
    if (n_layers > 0 && sum != n_layers)
        problems.push_back({"training.stage_layers", "sum",
                            "training.stage_layers sums to " + std::to_string(sum) + "; it must sum to model.n_layers "
                                + std::to_string(n_layers),
                            {"model.n_layers"}});
    const int least = std::max(1, parallel.virtual_stages);
    for (std::size_t stage = 0; stage < given.size(); ++stage)
        if (given[stage] < least) {
            problems.push_back({"training.stage_layers", "minimum",
                                "training.stage_layers[" + std::to_string(stage) + "] is " + std::to_string(given[stage])
                                    + "; every stage needs at least "
                                    + (least == 1 ? std::string("1 layer")
                                                  : "training.virtual_stages " + std::to_string(least)
                                                        + " layers (one per chunk)"),
                                least > 1 ? std::vector<std::string>{"training.virtual_stages"} : std::vector<std::string>{}});
            break;  // one message is enough to say the rule
        }
    return problems;
}

std::string stageLayersText(const std::vector<int> &layers)
{
    std::string text;
    for (int count : layers) {
        if (!text.empty())
            text += ',';
        text += std::to_string(count);
    }
    return text;
}

std::optional<std::vector<int>> parseStageLayers(std::string_view text)
{
    std::vector<int> layers;
    const auto isSpace = [](char c) { return c == ' ' || c == '\t'; };
    const auto trim = [&](std::string_view part) {
        while (!part.empty() && isSpace(part.front()))
            part.remove_prefix(1);
        while (!part.empty() && isSpace(part.back()))
            part.remove_suffix(1);
        return part;
    };
    if (trim(text).empty())
        return layers;
    while (true) {
        const std::size_t comma = text.find(',');
        const std::string_view part = trim(text.substr(0, comma));
        int value = 0;
        const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
        if (part.empty() || error != std::errc() || end != part.data() + part.size() || value < 0)
            return std::nullopt;
        layers.push_back(value);
        if (comma == std::string_view::npos)
            return layers;
        text.remove_prefix(comma + 1);
    }
}

}  // namespace lse
