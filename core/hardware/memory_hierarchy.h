// SPDX-License-Identifier: GPL-3.0-or-later
// An accelerator's anatomy (compute units, matrix units, on-chip memory, links) and the memory
// hierarchy one GPU sees, from registers down to NVMe and the network, as capacity and bandwidth.
// Catalog figures (core/hardware/accelerator.h) are used where they exist; what the catalog lacks
// (register file, matrix units per SM, on-chip bandwidths, host RAM, NVMe) comes from a small table
// in memory_hierarchy.cpp whose every entry names its source and says when it is approximate.
// 0 always means "not published / unknown", never a guess.
#pragma once

#include "hardware/accelerator.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lse {

struct AcceleratorAnatomy {
    std::string id;
    std::string name;
    std::string compute_unit_name;  // "SM" (NVIDIA), "CU" (AMD), "TensorCore" (TPU)
    std::string matrix_unit_name;   // "tensor core", "matrix core", "MXU"
    int sm_count = 0;
    int matrix_units_per_sm = 0;  // 0 = not published
    int matrix_units = 0;         // sm_count · matrix_units_per_sm; 0 = not published
    std::int64_t register_bytes_per_sm = 0;  // register file of one SM; 0 = not published
    std::int64_t sram_bytes_per_sm = 0;      // catalog sram_bytes / sm_count; 0 = not published
    std::int64_t sram_bytes = 0;             // catalog
    std::int64_t l2_bytes = 0;               // catalog; 0 = not published
    std::int64_t hbm_bytes = 0;              // catalog memory_bytes
    double hbm_bandwidth_bytes_per_second = 0;
    double intra_node_bandwidth_bytes_per_second = 0;  // NVLink / Infinity Fabric / ICI, one direction
    double inter_node_bandwidth_bytes_per_second = 0;  // network per GPU, one direction
    std::string host_link;                             // e.g. "PCIe Gen5 x16"; empty = not published
    double host_link_bandwidth_bytes_per_second = 0;   // one direction; 0 = not published
    // Core clock implied by the catalog's FP32 peak: fp32 / (SMs · FP32 FLOP per clock per SM).
    // 0 when the architecture's FP32 rate per SM is not known.
    double clock_hz = 0;
    std::string source;  // where the figures that are not catalog fields come from
};

enum class MemoryLevelKind { Registers, Sram, L2, Hbm, HostRam, Nvme, Network };
std::string_view toString(MemoryLevelKind kind);  // "registers", "sram", "l2", "hbm", "host_ram", "nvme", "network"

// One level as seen from the GPU's SMs. Capacity and bandwidth are per GPU (a node's host RAM and
// drives divided by its GPUs); bandwidth is what reaches the SMs (host RAM: the PCIe link).
struct MemoryLevel {
    MemoryLevelKind kind = MemoryLevelKind::Hbm;
    std::string name;                   // English display name, e.g. "L2 cache"
    double capacity_bytes = 0;          // 0 = unknown, or not a store (the network is a link)
    double bandwidth_bytes_per_second = 0;  // 0 = unknown
    double latency_seconds = 0;         // order of magnitude only; 0 = unknown
    std::string analogy;                // the course's kitchen: "the spice rack", ...
    std::string source;                 // figures' origin; "approximate" marks estimates
    bool approximate = false;           // capacity or bandwidth is an estimate, not a datasheet figure
};

AcceleratorAnatomy anatomyOf(const Accelerator &accelerator);

// Registers, SRAM, L2, HBM, host RAM, NVMe, network, in that order (always all seven; unknown
// figures are 0). Bandwidth falls down to NVMe; capacity rises from SRAM down to NVMe. Two honest
// exceptions: an NVIDIA SM's register file (256 KB) is larger than its shared memory, and one
// GPU's network share (25–50 GB/s) is faster than one NVMe drive (~7 GB/s).
std::vector<MemoryLevel> memoryHierarchy(const Accelerator &accelerator);

}  // namespace lse
