// SPDX-License-Identifier: GPL-3.0-or-later
// NumPy .npz archives (reference/npz.h: zip of .npy members, stored or deflated) as the reference
// checks read the course's tensors; every array read must hold shape-product elements and convert.
#include "fuzz_support.h"
#include "reference/npz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace lse;
    const std::string path = fuzz::writeScratchFile("arrays.npz", fuzz::asText(data, size));
    const Result<std::map<std::string, NpyArray>> arrays = readNpz(path);
    if (!arrays) {
        fuzz::checkProblemsNameAField(arrays.problems());
        return 0;
    }
    for (const auto &[name, array] : *arrays) {
        const std::size_t elements = std::size_t(array.elementCount());
        fuzz::check(array.toDouble().size() == elements, "an array converts to the wrong number of doubles");
        fuzz::check(array.toFloat().size() == elements, "an array converts to the wrong number of floats");
    }
    return 0;
}
