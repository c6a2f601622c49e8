// SPDX-License-Identifier: GPL-3.0-or-later
#include "inference/quantisation_savings.h"

namespace lse::inference {

Result<QuantisationSavings> quantisationSavings(const ServingInputs &inputs)
{
    ServingInputs chosen_inputs = inputs;
    chosen_inputs.speculative.reset();
    ServingInputs sixteen_inputs = chosen_inputs;
    const ServingFormat sixteen = inputs.activations == ServingFormat::BF16 ? ServingFormat::BF16 : ServingFormat::FP16;
    sixteen_inputs.weights = sixteen;
    sixteen_inputs.activations = sixteen;
    sixteen_inputs.kv_cache = sixteen;
    const Result<ServingReport> chosen = serve(chosen_inputs);
    if (!chosen)
        return chosen.problems();
    const Result<ServingReport> baseline = serve(sixteen_inputs);
    if (!baseline)
        return baseline.problems();

    QuantisationSavings savings;
    const auto add = [&](const char *tensor, ServingFormat format, double bytes_per_element, double chosen_bytes,
                         double sixteen_bytes) {
        TensorSaving row;
        row.tensor = tensor;
        row.format = format;
        row.sixteen_bit_format = sixteen;
        row.bytes_per_element = bytes_per_element;
        row.sixteen_bit_bytes_per_element = elementBytes(sixteen);
        row.bytes_per_gpu = chosen_bytes;
        row.sixteen_bit_bytes_per_gpu = sixteen_bytes;
        row.saved_bytes_per_gpu = sixteen_bytes - chosen_bytes;
        savings.tensors.push_back(row);
    };
    add("weights", inputs.weights, weightBytesPerElement(inputs.weights), chosen->memory.weights_bytes,
        baseline->memory.weights_bytes);
    add("kv_cache", inputs.kv_cache, elementBytes(inputs.kv_cache), chosen->memory.kv_cache_bytes,
        baseline->memory.kv_cache_bytes);
    add("activations", inputs.activations, elementBytes(inputs.activations), chosen->memory.activation_bytes,
        baseline->memory.activation_bytes);
    savings.compute_format = chosen->compute_format;
    savings.sixteen_bit_compute_format = baseline->compute_format;
    savings.max_batch = chosen->max_batch;
    savings.sixteen_bit_max_batch = baseline->max_batch;
    savings.ttft_seconds = chosen->ttft_seconds;
    savings.sixteen_bit_ttft_seconds = baseline->ttft_seconds;
    savings.tpot_seconds = chosen->tpot_seconds;
    savings.sixteen_bit_tpot_seconds = baseline->tpot_seconds;
    savings.fits = chosen->memory.fits;
    savings.sixteen_bit_fits = baseline->memory.fits;
    return savings;
}

}  // namespace lse::inference
