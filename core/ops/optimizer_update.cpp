// SPDX-License-Identifier: GPL-3.0-or-later
#include "ops/optimizer_update.h"

namespace lse::ops {

//   SGD θ -= η·g: 2. Momentum (PyTorch) b = μ·b + g, θ -= η·b: 4.
//   Adam (Kingma & Ba 2015, Alg. 1): m = β1·m + (1-β1)·g 3, v = β2·v + (1-β2)·g² 4, the two bias
//   corrections 2, m̂ / (√v̂ + ε) 3, θ -= η·u 2: 14. AdamW (Loshchilov & Hutter 2019, Alg. 2) adds the
//   decoupled decay θ -= η·λ·θ: 16. Adam8bit (Dettmers et al. 2022): AdamW + dequantising and
//   requantising m and v, 2 each: 20. Adafactor (Shazeer & Stern 2018, Alg. 4, no momentum): g² + ε 2,
//   row and column averages 2, v̂ = R·C / ΣR 2, g / √v̂ 2, update clipping 2, θ -= η·u 2: 12.
double optimizerFlopsPerParameter(Optimizer optimizer)
{
    switch (optimizer) {
    case Optimizer::SGD: return 2;
    case Optimizer::Momentum: return 4;
    case Optimizer::Adam: return 14;
    case Optimizer::AdamW: return 16;
    case Optimizer::Adam8bit: return 20;
    case Optimizer::Adafactor: return 12;
    }
    return 16;
}

OptimizerUpdateCost optimizerUpdatePerParameter(Optimizer optimizer, const PrecisionConfig &precision,
                                                double state_bytes_per_parameter)
{
    const double weight = bytesPerElement(precision.weight_dtype);
    const double gradient = precision.fp32_gradient_accumulation ? 4.0 : double(bytesPerElement(precision.gradient_dtype));
    OptimizerUpdateCost cost;
    cost.flops = optimizerFlopsPerParameter(optimizer);
    if (precision.master_weights) {
        cost.bytes_read = gradient + state_bytes_per_parameter + 4;
        cost.bytes_written = state_bytes_per_parameter + 4 + weight;
    } else {
        cost.bytes_read = gradient + state_bytes_per_parameter + weight;
        cost.bytes_written = state_bytes_per_parameter + weight;
    }
    return cost;
}

}  // namespace lse::ops
