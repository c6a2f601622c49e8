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

std::vector<FusedChain> fusedChains(const Scenario &scenario, const StepOperators &step,
                                    std::vector<std::vector<int>> *unfused_instances)
{
    const std::vector<OpInstance> order = executionOrder(scenario, step);
    std::vector<std::vector<int>> singles(4);
    for (OpGroup group : {OpGroup::Embedding, OpGroup::DenseLayer, OpGroup::MoeLayer, OpGroup::Head})
        singles[std::size_t(group)].assign(step.group(group).size(), 0);
    const auto at = [&](const OpInstance &instance) -> const StepOp & {
        return step.group(instance.group)[instance.index];
    };

    std::vector<FusedChain> chains;
    std::map<std::vector<std::pair<int, std::size_t>>, std::size_t> index_of;
    std::size_t i = 0;
    while (i < order.size()) {
        std::size_t end = i + 1;
        if (at(order[i]).fusable)
            while (end < order.size() && at(order[end]).fusable)
                ++end;
        if (end - i < 2) {
            ++singles[std::size_t(order[i].group)][order[i].index];
            i = end;
            continue;
        }
        std::vector<std::pair<int, std::size_t>> key;
        for (std::size_t j = i; j < end; ++j)
            key.emplace_back(int(order[j].group), order[j].index);
        auto found = index_of.find(key);
        if (found == index_of.end()) {
            FusedChain chain;
            for (std::size_t j = i; j < end; ++j) {
                const StepOp &op = at(order[j]);
                chain.members.push_back(order[j]);
                chain.flops += op.op.flops;
                const double own = op.op.bytes_read + op.op.bytes_written;
                const double saved = j > i ? chainSavings(at(order[j - 1]), op) : 0.0;
                chain.unfused_bytes += own;
                chain.fused_bytes -= saved;
                chain.member_fused_bytes.push_back(own - saved);
            }
            chain.fused_bytes += chain.unfused_bytes;
            found = index_of.emplace(key, chains.size()).first;
            chains.push_back(chain);
        }
        ++chains[found->second].count;
        i = end;
    }
    if (unfused_instances)
        *unfused_instances = std::move(singles);
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
