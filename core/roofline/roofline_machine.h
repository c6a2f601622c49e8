// SPDX-License-Identifier: GPL-3.0-or-later
// One roofline (Williams, Waterman & Patterson 2009, "Roofline: an insightful visual performance
// model for multicore architectures", CACM 52(4)): a compute peak and a memory bandwidth. An
// operator of arithmetic intensity I (FLOPs per byte moved to or from main memory) can run at most
// at min(peak, I · bandwidth); the ridge point peak / bandwidth separates memory- from
// compute-bound operators.
#pragma once

#include "hardware/accelerator.h"
#include "hardware/hardware_catalog.h"
#include "hardware/machine_roofline.h"
#include "scenario/scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lse {

struct RooflineMachine {
    std::string id;    // catalog id ("h100-sxm"), "custom", or "this-cpu"
    std::string name;  // display name, with the dtype, e.g. "NVIDIA H100 SXM (bf16)"
    DType dtype = DType::BF16;  // the format the peak is for
    double peak_flops_per_second = 0;
    double memory_bandwidth_bytes_per_second = 0;
    // On-chip SRAM (shared memory / L1) of one SM: sets the FlashAttention tile. 0 for a CPU, where
    // the roofline then treats attention as tiled with head_dim rows (see flashTileRows).
    std::int64_t sram_bytes_per_sm = 0;
    // Last-level on-chip cache (L2 on a GPU, the detected LLC on this CPU): FlashAttention's repeated
    // K/V tile loads of one head hit here while that head's K and V fit (0: never).
    std::int64_t l2_bytes = 0;

    // peak / bandwidth in FLOP per byte; 0 when the bandwidth is unknown (Williams et al. 2009 §2).
    double ridgePointFlopPerByte() const;
    bool valid() const { return peak_flops_per_second > 0 && memory_bandwidth_bytes_per_second > 0; }
};

// A catalog accelerator's dense peak for `dtype` (0 when it has none) and its HBM bandwidth.
RooflineMachine rooflineMachine(const Accelerator &gpu, DType dtype);
// The scenario's accelerator at its matmul dtype, with the scenario's peak override when set.
RooflineMachine rooflineMachine(const Scenario &scenario);
// This CPU as measured by `llm-explorer-cli machine` (float32 SGEMM peak, STREAM triad bandwidth),
// on all cores or on one.
RooflineMachine rooflineMachine(const MachineRoofline &cpu, bool all_cores);
// Every catalog accelerator with a dense peak for `dtype`, in catalog order.
std::vector<RooflineMachine> catalogRooflineMachines(const HardwareCatalog &catalog, DType dtype);

// min(peak, intensity · bandwidth) (Williams et al. 2009, eq. 1). 0 for an invalid machine.
double attainableFlopsPerSecond(const RooflineMachine &machine, double intensity_flop_per_byte);

}  // namespace lse
