// SPDX-License-Identifier: GPL-3.0-or-later
// Element-wise fusion: a run of consecutive element-wise operators (residual add → norm, bias →
// activation, softmax → dropout, embedding gather → position add → norm) executed as one kernel
// keeps the intermediate tensors in registers. Each link a → b of the chain saves b's read of a's
// output, and a's write of it unless that output is needed later anyway: the residual stream
// (read again by the next residual add), or, in training, a tensor the backward pass keeps (a
// norm's or activation's input, the softmax output; Korthikanti et al. 2022 §4.1). FLOPs do not
// change. This is the accounting behind fused kernels such as fused add+RMSNorm and fused SwiGLU
// (e.g. Megatron-LM's fused kernels; Liger Kernel). Only the forward pass is fused here.
#include "roofline/step_operators.h"

#include <algorithm>
#include <map>
#include <utility>

namespace lse::roofline_detail {

namespace {

double chainSavings(const StepOp &from, const StepOp &to)
{
    const double shared = std::min(from.op.bytes_written, to.op.bytes_read);
    const bool written_anyway = from.keeps_output || to.saves_input;
    return written_anyway ? shared : 2 * shared;
}

}  // namespace

namespace {

// Which instances form chains depends only on the execution order and each operator's `fusable`
// flag, not on the shapes: the layout search predicts thousands of layouts of one model, so the
// chains are found once per order (walking every layer's operators was a fifth of a search's
// time) and only their FLOPs and bytes are summed per call.
struct ChainStructure {
    std::vector<std::vector<OpInstance>> chains;  // members of each distinct chain
    std::vector<int> counts;                      // instances of each chain
    std::vector<std::vector<int>> singles;        // per group and index: instances in no chain
};

std::vector<int> orderSignature(const Scenario &scenario, const StepOperators &step)
{
    std::vector<int> signature;
    for (OpGroup group : {OpGroup::Embedding, OpGroup::DenseLayer, OpGroup::MoeLayer, OpGroup::Head}) {
        const std::vector<StepOp> &ops = step.group(group);
        signature.push_back(int(ops.size()));
        for (const StepOp &op : ops)
            signature.push_back(op.fusable ? 1 : 0);
    }
    const bool moe = step.moe_layer_count > 0;
    signature.push_back(scenario.model.n_layers);
    for (int layer = 0; layer < scenario.model.n_layers; ++layer)
        signature.push_back(moe && scenario.model.moe.isMoeLayer(layer) ? 1 : 0);
    return signature;
}

ChainStructure findChains(const Scenario &scenario, const StepOperators &step)
{
    const std::vector<OpInstance> order = executionOrder(scenario, step);
    ChainStructure out;
    out.singles.resize(4);
    for (OpGroup group : {OpGroup::Embedding, OpGroup::DenseLayer, OpGroup::MoeLayer, OpGroup::Head})
        out.singles[std::size_t(group)].assign(step.group(group).size(), 0);
    const auto fusable = [&](const OpInstance &instance) { return step.group(instance.group)[instance.index].fusable; };
    std::map<std::vector<std::pair<int, std::size_t>>, std::size_t> index_of;
    std::size_t i = 0;
    while (i < order.size()) {
        std::size_t end = i + 1;
        if (fusable(order[i]))
            while (end < order.size() && fusable(order[end]))
                ++end;
        if (end - i < 2) {
            ++out.singles[std::size_t(order[i].group)][order[i].index];
            i = end;
            continue;
        }
        std::vector<std::pair<int, std::size_t>> key;
        for (std::size_t j = i; j < end; ++j)
            key.emplace_back(int(order[j].group), order[j].index);
        auto found = index_of.find(key);
        if (found == index_of.end()) {
            found = index_of.emplace(key, out.chains.size()).first;
            out.chains.emplace_back(order.begin() + std::ptrdiff_t(i), order.begin() + std::ptrdiff_t(end));
            out.counts.push_back(0);
        }
        ++out.counts[found->second];
        i = end;
    }
    return out;
}

const ChainStructure &chainStructure(const Scenario &scenario, const StepOperators &step)
{
    thread_local std::map<std::vector<int>, ChainStructure> cache;
    std::vector<int> signature = orderSignature(scenario, step);
    auto found = cache.find(signature);
    if (found != cache.end())
        return found->second;
    if (cache.size() >= 64)
        cache.clear();  // a search visits one model; an editing session a few
    return cache.emplace(std::move(signature), findChains(scenario, step)).first->second;
}

}  // namespace

std::vector<FusedChain> fusedChains(const Scenario &scenario, const StepOperators &step,
                                    std::vector<std::vector<int>> *unfused_instances)
{
    const ChainStructure &structure = chainStructure(scenario, step);
    const auto at = [&](const OpInstance &instance) -> const StepOp & {
        return step.group(instance.group)[instance.index];
    };
    std::vector<FusedChain> chains;
    chains.reserve(structure.chains.size());
    for (std::size_t c = 0; c < structure.chains.size(); ++c) {
        FusedChain chain;
        chain.members = structure.chains[c];
        chain.count = structure.counts[c];
        for (std::size_t j = 0; j < chain.members.size(); ++j) {
            const StepOp &op = at(chain.members[j]);
            chain.flops += op.op.flops;
            const double own = op.op.bytes_read + op.op.bytes_written;
            const double saved = j > 0 ? chainSavings(at(chain.members[j - 1]), op) : 0.0;
            chain.unfused_bytes += own;
            chain.fused_bytes -= saved;
            chain.member_fused_bytes.push_back(own - saved);
        }
        chain.fused_bytes += chain.unfused_bytes;
        chains.push_back(std::move(chain));
    }
    if (unfused_instances)
        *unfused_instances = structure.singles;
    return chains;
}

}  // namespace lse::roofline_detail

namespace lse {

std::vector<FusionComparison> fusionComparisons(const Scenario &scenario, const RooflineOptions &options)
{
    using namespace roofline_detail;
    if (!validate(scenario).empty() || options.batch < 0 || options.context_tokens < 0)
        return {};
    const StepOperators step = stepOperators(scenario, stepShapes(scenario, options, 0));
    std::vector<FusionComparison> comparisons;
    for (const FusedChain &chain : fusedChains(scenario, step, nullptr)) {
        FusionComparison comparison;
        for (const OpInstance &member : chain.members) {
            const std::string &name = step.group(member.group)[member.index].name;
            comparison.chain.push_back(name);
            comparison.name += (comparison.name.empty() ? "" : " + ") + name;
        }
        comparison.count = chain.count;
        comparison.flops = chain.flops * chain.count;
        comparison.unfused_bytes = chain.unfused_bytes * chain.count;
        comparison.fused_bytes = chain.fused_bytes * chain.count;
        comparisons.push_back(comparison);
    }
    return comparisons;
}

}  // namespace lse
