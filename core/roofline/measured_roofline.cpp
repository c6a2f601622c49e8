// SPDX-License-Identifier: GPL-3.0-or-later
#include "roofline/measured_roofline.h"


namespace lse {

std::vector<MeasuredRooflinePoint> measuredRooflinePoints(const std::vector<reference::OpRecord> &records,
                                                          const RooflineReport &predicted_same_config)
{
    std::vector<MeasuredRooflinePoint> points;
    for (const reference::OpRecord &record : records) {
        const OpPass pass = record.phase == reference::OpPhase::Forward ? OpPass::Forward : OpPass::Backward;
        // The same name can appear in several rows (dense and MoE layers): add them up.
        double predicted_flops = 0, predicted_bytes = 0;
        for (const RooflineOp &op : predicted_same_config.ops) {
            if (op.pass == pass && op.name == record.name) {
                predicted_flops += op.flops;
                predicted_bytes += op.bytes();
            }
        }
        if (!(predicted_flops > 0) || !(record.flops > 0))
            continue;
        MeasuredRooflinePoint point;
        point.name = record.name;
        point.pass = pass;
        point.flops = record.flops;
        // The profiler sums over steps (and layers): the predicted bytes per FLOP carry over.
        point.bytes = predicted_bytes * record.flops / predicted_flops;
        point.seconds = record.seconds;
        point.intensity_flop_per_byte = point.bytes > 0 ? point.flops / point.bytes : 0;
        point.achieved_flops_per_second = record.seconds > 0 ? record.flops / record.seconds : 0;
        points.push_back(point);
    }
    return points;
}

}  // namespace lse
