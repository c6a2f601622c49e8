// SPDX-License-Identifier: GPL-3.0-or-later
// The main of a harness in builds without libFuzzer (g++, the default and asan presets): feeds
// every file named on the command line, or found in a folder named there, to LLVMFuzzerTestOneInput
// once, so CTest replays the seed corpora and the inputs fuzzing found. A run that finds no input
// fails, so a moved corpus folder cannot pass silently.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);

namespace {

std::vector<std::filesystem::path> inputsNamedBy(const std::filesystem::path &arg)
{
    std::vector<std::filesystem::path> inputs;
    if (std::filesystem::is_directory(arg)) {
        for (const auto &entry : std::filesystem::recursive_directory_iterator(arg))
            if (entry.is_regular_file())
                inputs.push_back(entry.path());
    } else if (std::filesystem::is_regular_file(arg)) {
        inputs.push_back(arg);
    }
    std::sort(inputs.begin(), inputs.end());  // the same order on every machine
    return inputs;
}

}  // namespace

int main(int argc, char **argv)
{
    std::size_t replayed = 0;
    for (int i = 1; i < argc; ++i) {
        for (const std::filesystem::path &path : inputsNamedBy(argv[i])) {
            std::ifstream in(path, std::ios::binary);
            const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::fprintf(stderr, "replaying %s (%zu bytes)\n", path.c_str(), bytes.size());
            // A zero-length vector's data() may be null; libFuzzer passes a valid pointer.
            static const std::uint8_t empty = 0;
            LLVMFuzzerTestOneInput(bytes.empty() ? &empty : reinterpret_cast<const std::uint8_t *>(bytes.data()),
                                   bytes.size());
            ++replayed;
        }
    }
    std::printf("replayed %zu inputs\n", replayed);
    if (replayed == 0) {
        std::fprintf(stderr, "no input found in the arguments (a corpus folder or files)\n");
        return 1;
    }
    return 0;
}
