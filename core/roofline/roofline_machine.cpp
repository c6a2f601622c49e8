// SPDX-License-Identifier: GPL-3.0-or-later
#include "roofline/roofline_machine.h"

#include <algorithm>

namespace lse {

double RooflineMachine::ridgePointFlopPerByte() const
{
    return memory_bandwidth_bytes_per_second > 0 ? peak_flops_per_second / memory_bandwidth_bytes_per_second : 0;
}

RooflineMachine rooflineMachine(const Accelerator &gpu, DType dtype)
{
    RooflineMachine machine;
    machine.id = gpu.id;
    machine.name = gpu.name + " (" + std::string(toString(dtype)) + ")";
    machine.dtype = dtype;
    machine.peak_flops_per_second = gpu.dense_peak.forDType(dtype);
    machine.memory_bandwidth_bytes_per_second = gpu.memory_bandwidth_bytes_per_second;
    // The catalog gives the SRAM of the whole chip; one thread block sees one SM's share.
    machine.sram_bytes_per_sm = gpu.sm_count > 0 ? gpu.sram_bytes / gpu.sm_count : 0;
    machine.l2_bytes = gpu.l2_bytes;
    return machine;
}

RooflineMachine rooflineMachine(const Scenario &scenario)
{
    RooflineMachine machine =
        rooflineMachine(scenario.cluster.accelerator, scenario.training.precision.matmul_dtype);
    if (scenario.cluster.peak_flops_per_second_override)
        machine.peak_flops_per_second = *scenario.cluster.peak_flops_per_second_override;
    return machine;
}

RooflineMachine rooflineMachine(const MachineRoofline &cpu, bool all_cores)
{
    RooflineMachine machine;
    machine.id = "this-cpu";
    machine.name = cpu.cpu_model.empty() ? std::string("this CPU") : cpu.cpu_model;
    machine.name += all_cores ? " (fp32, " + std::to_string(cpu.threads_used) + " threads)" : std::string(" (fp32, 1 core)");
    machine.dtype = DType::FP32;  // the SGEMM peak is float32
    machine.peak_flops_per_second = all_cores ? cpu.peak_flops_per_s_all_cores : cpu.peak_flops_per_s_one_core;
    machine.memory_bandwidth_bytes_per_second =
        all_cores ? cpu.bandwidth_bytes_per_s_all_cores : cpu.bandwidth_bytes_per_s_one_core;
    machine.sram_bytes_per_sm = 0;
    machine.l2_bytes = std::int64_t(cpu.last_level_cache_bytes);
    return machine;
}

std::vector<RooflineMachine> catalogRooflineMachines(const HardwareCatalog &catalog, DType dtype)
{
    std::vector<RooflineMachine> machines;
    for (const Accelerator &gpu : catalog.accelerators)
        if (gpu.dense_peak.forDType(dtype) > 0)
            machines.push_back(rooflineMachine(gpu, dtype));
    return machines;
}

double attainableFlopsPerSecond(const RooflineMachine &machine, double intensity_flop_per_byte)
{
    if (!machine.valid() || !(intensity_flop_per_byte > 0))
        return 0;
    return std::min(machine.peak_flops_per_second, intensity_flop_per_byte * machine.memory_bandwidth_bytes_per_second);
}

}  // namespace lse
