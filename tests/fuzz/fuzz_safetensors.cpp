// SPDX-License-Identifier: GPL-3.0-or-later
// safetensors checkpoints (reference/safetensors.h) read from a file as `generate --checkpoint`
// and the checkpoint check read them; every tensor read must hold shape-product elements.
#include "fuzz_support.h"
#include "reference/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace lse;
    const std::string path = fuzz::writeScratchFile("model.safetensors", fuzz::asText(data, size));
    const Result<SafetensorsFile> file = readSafetensors(path);
    if (!file) {
        fuzz::checkProblemsNameAField(file.problems());
        return 0;
    }
    for (const SafeTensor &tensor : file->tensors) {
        const std::optional<int> elementBytes = safetensorsDtypeSize(tensor.dtype);
        fuzz::check(elementBytes.has_value(), "a tensor of an unknown dtype was read");
        fuzz::check(tensor.bytes.size() == std::size_t(tensor.elementCount()) * std::size_t(*elementBytes),
                    "a tensor's bytes do not match its shape and dtype");
        // safeTensorToFloat converts F32 and F64 only (empty for other dtypes).
        if (tensor.dtype == "F32" || tensor.dtype == "F64")
            fuzz::check(safeTensorToFloat(tensor).size() == std::size_t(tensor.elementCount()),
                        "a float tensor converts to the wrong number of elements");
        fuzz::check(file->find(tensor.name) != nullptr, "a tensor read cannot be found by its name");
    }
    return 0;
}
