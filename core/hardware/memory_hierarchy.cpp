// SPDX-License-Identifier: GPL-3.0-or-later
#include "hardware/memory_hierarchy.h"

#include <algorithm>
#include <array>

namespace lse {

namespace {

constexpr std::int64_t kKiB = 1024;
constexpr double kGB = 1e9;
constexpr double kTB = 1e12;

// PCI Express Base Specification: x16 link, 128b/130b encoding, one direction.
constexpr double kPcieGen4x16 = 16e9 * 16 * 128.0 / 130.0 / 8;  // 31.5 GB/s
constexpr double kPcieGen5x16 = 32e9 * 16 * 128.0 / 130.0 / 8;  // 63.0 GB/s
// One PCIe Gen4 x4 data-centre NVMe drive reads at about 7 GB/s (the x4 link's 7.9 GB/s ceiling).
constexpr double kNvmeDriveBandwidth = 7e9;

// What the catalog does not carry, per catalog id. 0 / empty = not published.
struct PlatformFigures {
    const char *id;
    const char *compute_unit;
    const char *matrix_unit;
    int matrix_units_per_sm;
    std::int64_t register_bytes_per_sm;
    // FP32 FLOP per clock per SM for the catalog's fp32 figure: gives the clock (fp32 / SMs / this).
    double fp32_flop_per_clock_per_sm;
    double shared_bytes_per_clock_per_sm;  // shared memory / LDS bandwidth
    double l2_bytes_per_clock;             // whole chip
    bool l2_bandwidth_published;           // false: an assumed per-clock figure (approximate)
    const char *host_link;
    double host_link_bandwidth;
    double host_ram_bytes_per_gpu;
    double nvme_bytes_per_gpu;
    bool host_published;  // false: a typical server, not a reference system (approximate)
    const char *source;
};

// NVIDIA: 64 K 32-bit registers (256 KiB) per SM for every compute capability here (CUDA C++
// Programming Guide, "Technical Specifications per Compute Capability"); 32 shared-memory banks of
// 4 bytes per clock = 128 B/clk/SM (same guide, "Shared Memory"); 4 tensor cores per SM (A100, H100,
// Ada, Blackwell architecture whitepapers). FP32 lanes: 64 per SM on GA100, 128 on GH100, AD102 and
// Blackwell (whitepapers) -> 128 / 256 FLOP per clock. L2: the A100 whitepaper gives 5,120 B/clk;
// later whitepapers give no per-clock figure, so that value is assumed (approximate).
constexpr const char *kNvidiaOnChip =
    "CUDA C++ Programming Guide (64 K 32-bit registers per SM; 32 banks x 4 B/clk shared memory); NVIDIA "
    "architecture whitepapers (4 tensor cores per SM; FP32 lanes per SM give the clock from the FP32 peak)";

constexpr std::array<PlatformFigures, 10> kPlatforms = {{
    {"a100-sxm-40gb", "SM", "tensor core", 4, 256 * kKiB, 128, 128, 5120, true, "PCIe Gen4 x16", kPcieGen4x16,
     1 * kTB / 8, 15 * kTB / 8, true,
     "NVIDIA A100 Tensor Core GPU Architecture whitepaper (L2 read bandwidth 5,120 B/clk, PCIe Gen4); NVIDIA DGX "
     "A100 User Guide (320 GB system: 1 TB RAM, 15 TB NVMe per 8 GPUs)"},
    {"a100-sxm-80gb", "SM", "tensor core", 4, 256 * kKiB, 128, 128, 5120, true, "PCIe Gen4 x16", kPcieGen4x16,
     2 * kTB / 8, 30 * kTB / 8, true,
     "NVIDIA A100 Tensor Core GPU Architecture whitepaper (L2 read bandwidth 5,120 B/clk, PCIe Gen4); NVIDIA DGX "
     "A100 User Guide (640 GB system: 2 TB RAM, 30 TB NVMe per 8 GPUs)"},
    {"h100-sxm", "SM", "tensor core", 4, 256 * kKiB, 256, 128, 5120, false, "PCIe Gen5 x16", kPcieGen5x16,
     2 * kTB / 8, 8 * 3.84 * kTB / 8, true,
     "NVIDIA H100 Tensor Core GPU Architecture whitepaper (PCIe Gen5); NVIDIA DGX H100 User Guide (2 TB RAM, "
     "8x 3.84 TB NVMe per 8 GPUs)"},
    {"h100-pcie", "SM", "tensor core", 4, 256 * kKiB, 256, 128, 5120, false, "PCIe Gen5 x16", kPcieGen5x16,
     2 * kTB / 8, 3.84 * kTB, false,
     "NVIDIA H100 Tensor Core GPU Architecture whitepaper (PCIe Gen5); host: approximate, a typical 8-GPU server "
     "with 2 TB RAM and one 3.84 TB NVMe drive per GPU"},
    {"h200-sxm", "SM", "tensor core", 4, 256 * kKiB, 256, 128, 5120, false, "PCIe Gen5 x16", kPcieGen5x16,
     2 * kTB / 8, 8 * 3.84 * kTB / 8, true,
     "NVIDIA H100 Tensor Core GPU Architecture whitepaper (GH100, PCIe Gen5); NVIDIA DGX H200 User Guide (2 TB "
     "RAM, 8x 3.84 TB NVMe per 8 GPUs)"},
    {"b200", "SM", "tensor core", 4, 256 * kKiB, 256, 128, 5120, false, "PCIe Gen5 x16", kPcieGen5x16,
     2 * kTB / 8, 8 * 3.84 * kTB / 8, true,
     "NVIDIA Blackwell architecture technical brief (4 tensor cores per SM); NVIDIA DGX B200 User Guide (2 TB "
     "RAM, 8x 3.84 TB NVMe per 8 GPUs, PCIe Gen5)"},
    // CDNA3: 4 matrix cores per CU, 512 KiB vector registers per CU, LDS 128 B/clk per CU, L2 2 KiB/clk
    // per XCD x 8 XCDs; matrix FP32 256 FLOP/clk/CU (163.4 TFLOPS at 2.1 GHz on 304 CUs).
    {"mi300x", "CU", "matrix core", 4, 512 * kKiB, 256, 128, 8 * 2048, false, "PCIe Gen5 x16", kPcieGen5x16,
     2 * kTB / 8, 3.84 * kTB, false,
     "AMD CDNA 3 Instruction Set Architecture / CDNA 3 white paper (4 matrix cores per CU, LDS 128 B/clk, L2 "
     "2 KB/clk per XCD, approximate); ROCm 'AMD GPU specifications' (512 KiB VGPR per CU); host: approximate, a "
     "typical 8-GPU server with 2 TB RAM and one 3.84 TB NVMe drive per GPU"},
    // TPU v5p: 4 MXUs per TensorCore (Google Cloud TPU system architecture); nothing else published.
    {"tpu-v5p", "TensorCore", "MXU", 4, 0, 0, 0, 0, false, "", 0, 0, 0, false,
     "Google Cloud TPU documentation, 'TPU system architecture' (4 MXUs per TensorCore); on-chip memory, host "
     "RAM and storage per chip are not published"},
    {"l40s", "SM", "tensor core", 4, 256 * kKiB, 256, 128, 5120, false, "PCIe Gen4 x16", kPcieGen4x16,
     2 * kTB / 8, 3.84 * kTB, false,
     "NVIDIA Ada Lovelace GPU Architecture whitepaper (4 tensor cores and 128 FP32 lanes per SM); NVIDIA L40S "
     "datasheet (PCIe Gen4 x16); host: approximate, a typical 8-GPU server with 2 TB RAM and one 3.84 TB NVMe "
     "drive per GPU"},
    {"rtx-4090", "SM", "tensor core", 4, 256 * kKiB, 256, 128, 5120, false, "PCIe Gen4 x16", kPcieGen4x16,
     128 * kGB, 2 * kTB, false,
     "NVIDIA Ada Lovelace GPU Architecture whitepaper (4 tensor cores and 128 FP32 lanes per SM, PCIe Gen4); "
     "host: approximate, a workstation with 128 GB RAM and a 2 TB NVMe drive"},
}};

const PlatformFigures *platformFor(const std::string &id)
{
    for (const PlatformFigures &figures : kPlatforms)
        if (id == figures.id)
            return &figures;
    return nullptr;
}

}  // namespace

std::string_view toString(MemoryLevelKind kind)
{
    switch (kind) {
    case MemoryLevelKind::Registers:
        return "registers";
    case MemoryLevelKind::Sram:
        return "sram";
    case MemoryLevelKind::L2:
        return "l2";
    case MemoryLevelKind::Hbm:
        return "hbm";
    case MemoryLevelKind::HostRam:
        return "host_ram";
    case MemoryLevelKind::Nvme:
        return "nvme";
    case MemoryLevelKind::Network:
        return "network";
    }
    return "hbm";
}

AcceleratorAnatomy anatomyOf(const Accelerator &accelerator)
{
    AcceleratorAnatomy anatomy;
    anatomy.id = accelerator.id;
    anatomy.name = accelerator.name;
    anatomy.sm_count = accelerator.sm_count;
    anatomy.sram_bytes = accelerator.sram_bytes;
    anatomy.sram_bytes_per_sm = accelerator.sm_count > 0 ? accelerator.sram_bytes / accelerator.sm_count : 0;
    anatomy.l2_bytes = accelerator.l2_bytes;
    anatomy.hbm_bytes = accelerator.memory_bytes;
    anatomy.hbm_bandwidth_bytes_per_second = accelerator.memory_bandwidth_bytes_per_second;
    anatomy.intra_node_bandwidth_bytes_per_second = accelerator.intra_node_bandwidth_bytes_per_second;
    anatomy.inter_node_bandwidth_bytes_per_second = accelerator.inter_node_bandwidth_bytes_per_second;
    anatomy.compute_unit_name = accelerator.vendor == "AMD" ? "CU" : "SM";
    anatomy.matrix_unit_name = accelerator.vendor == "AMD" ? "matrix core" : "tensor core";
    anatomy.source = "catalog: " + accelerator.source;

    const PlatformFigures *figures = platformFor(accelerator.id);
    if (figures == nullptr)
        return anatomy;
    anatomy.compute_unit_name = figures->compute_unit;
    anatomy.matrix_unit_name = figures->matrix_unit;
    anatomy.matrix_units_per_sm = figures->matrix_units_per_sm;
    anatomy.matrix_units = figures->matrix_units_per_sm * accelerator.sm_count;
    anatomy.register_bytes_per_sm = figures->register_bytes_per_sm;
    anatomy.host_link = figures->host_link;
    anatomy.host_link_bandwidth_bytes_per_second = figures->host_link_bandwidth;
    if (figures->fp32_flop_per_clock_per_sm > 0 && accelerator.sm_count > 0)
        anatomy.clock_hz = accelerator.dense_peak.fp32_flops_per_second /
                           (accelerator.sm_count * figures->fp32_flop_per_clock_per_sm);
    anatomy.source = std::string(figures->source) + "; " + kNvidiaOnChip + "; catalog: " + accelerator.source;
    if (accelerator.vendor != "NVIDIA")
        anatomy.source = std::string(figures->source) + "; catalog: " + accelerator.source;
    return anatomy;
}

std::vector<MemoryLevel> memoryHierarchy(const Accelerator &accelerator)
{
    const AcceleratorAnatomy anatomy = anatomyOf(accelerator);
    const PlatformFigures *figures = platformFor(accelerator.id);
    const double clock = anatomy.clock_hz;
    const double sms = accelerator.sm_count;

    // Latencies: orders of magnitude only. Microbenchmarks (Jia et al. 2018, "Dissecting the NVIDIA
    // Volta GPU Architecture via Microbenchmarking"; Jia et al. 2019, Turing; Luo et al. 2024,
    // "Benchmarking and Dissecting the Nvidia Hopper GPU Architecture") measure tens of cycles for
    // shared memory, a few hundred for L2 and several hundred for HBM at 1.4-2 GHz.
    const char *latency_note = "latency: order of magnitude (Jia et al. 2018/2019; Luo et al. 2024 microbenchmarks)";

    std::vector<MemoryLevel> levels;
    MemoryLevel registers;
    registers.kind = MemoryLevelKind::Registers;
    registers.name = "Registers";
    registers.analogy = "the chef's hands";
    registers.latency_seconds = 1e-9;
    registers.approximate = true;
    if (figures != nullptr && figures->register_bytes_per_sm > 0) {
        registers.capacity_bytes = double(figures->register_bytes_per_sm) * sms;
        // Operand reads that keep the FP32 units busy: 3 operands x 4 bytes per FMA (2 FLOP), i.e.
        // 6 bytes per FP32 FLOP at the catalog's FP32 peak. Tensor-core operands come on top.
        registers.bandwidth_bytes_per_second = 6.0 * accelerator.dense_peak.fp32_flops_per_second;
    }
    registers.source = "register file per SM x SMs; bandwidth approximate: 3 operands x 4 B per FP32 FMA at the FP32 "
                       "peak (a lower bound); " + std::string(latency_note);
    levels.push_back(registers);

    MemoryLevel sram;
    sram.kind = MemoryLevelKind::Sram;
    sram.name = "SRAM (shared memory / L1)";
    sram.analogy = "the cutting board";
    sram.capacity_bytes = double(accelerator.sram_bytes);
    sram.latency_seconds = 20e-9;
    sram.approximate = true;
    if (figures != nullptr && clock > 0)
        sram.bandwidth_bytes_per_second = figures->shared_bytes_per_clock_per_sm * sms * clock;
    sram.source = "capacity: catalog sram_bytes; bandwidth approximate: 128 B/clk per SM x SMs x clock implied by the "
                  "FP32 peak (CUDA C++ Programming Guide, 'Shared Memory'; AMD CDNA 3 white paper for LDS); " +
                  std::string(latency_note);
    levels.push_back(sram);

    MemoryLevel l2;
    l2.kind = MemoryLevelKind::L2;
    l2.name = "L2 cache";
    l2.analogy = "the spice rack";
    l2.capacity_bytes = double(accelerator.l2_bytes);
    l2.latency_seconds = 150e-9;
    l2.approximate = figures == nullptr || !figures->l2_bandwidth_published;
    if (figures != nullptr && clock > 0)
        l2.bandwidth_bytes_per_second = figures->l2_bytes_per_clock * clock;
    l2.source = figures != nullptr && figures->l2_bandwidth_published
                    ? "capacity: catalog l2_bytes; bandwidth: 5,120 B/clk (NVIDIA A100 whitepaper) x clock; " +
                          std::string(latency_note)
                    : "capacity: catalog l2_bytes; bandwidth approximate: not published, the A100 whitepaper's "
                      "5,120 B/clk (AMD: 2 KB/clk per XCD) assumed x clock; " + std::string(latency_note);
    levels.push_back(l2);

    MemoryLevel hbm;
    hbm.kind = MemoryLevelKind::Hbm;
    hbm.name = "HBM (VRAM)";
    hbm.analogy = "the chef's prep table";
    hbm.capacity_bytes = double(accelerator.memory_bytes);
    hbm.bandwidth_bytes_per_second = accelerator.memory_bandwidth_bytes_per_second;
    hbm.latency_seconds = 500e-9;
    hbm.source = "catalog: " + accelerator.source + "; " + latency_note;
    levels.push_back(hbm);

    MemoryLevel host;
    host.kind = MemoryLevelKind::HostRam;
    host.name = "Host RAM";
    host.analogy = "the kitchen counter";
    host.latency_seconds = 1e-6;
    MemoryLevel nvme;
    nvme.kind = MemoryLevelKind::Nvme;
    nvme.name = "NVMe SSD";
    nvme.analogy = "the pantry";
    nvme.latency_seconds = 100e-6;
    if (figures != nullptr) {
        host.capacity_bytes = figures->host_ram_bytes_per_gpu;
        host.bandwidth_bytes_per_second = figures->host_link_bandwidth;
        host.approximate = !figures->host_published;
        nvme.capacity_bytes = figures->nvme_bytes_per_gpu;
        nvme.bandwidth_bytes_per_second = figures->nvme_bytes_per_gpu > 0 ? kNvmeDriveBandwidth : 0;
        nvme.approximate = true;
        host.source = std::string("per GPU = the node's RAM / its GPUs, through the GPU's ") + figures->host_link +
                      " link (PCI Express Base Specification: 31.5 / 63 GB/s per direction for Gen4 / Gen5 x16); " +
                      figures->source;
        nvme.source = std::string("per GPU = the node's drives / its GPUs; bandwidth approximate: about one PCIe Gen4 "
                                  "x4 drive (~7 GB/s) per GPU; ") + figures->source;
    }
    levels.push_back(host);
    levels.push_back(nvme);

    MemoryLevel network;
    network.kind = MemoryLevelKind::Network;
    network.name = "Network";
    network.analogy = "the delivery van";
    network.capacity_bytes = 0;  // a link to other nodes and remote storage, not a store of its own
    network.bandwidth_bytes_per_second = accelerator.inter_node_bandwidth_bytes_per_second;
    network.latency_seconds = 5e-6;
    network.source = "catalog inter_node_bandwidth (one NIC per GPU, see the catalog note); RDMA latency: order of "
                     "magnitude";
    levels.push_back(network);
    return levels;
}

}  // namespace lse
