// SPDX-License-Identifier: GPL-3.0-or-later
// Hugging Face config.json import (scenario/hf_import.h) as `--hf-config FILE` and the editor's
// import read it; an imported model is validated as the editor does.
#include "fuzz_support.h"
#include "scenario/hf_import.h"
#include "scenario/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace lse;
    const std::string path = fuzz::writeScratchFile("config.json", fuzz::asText(data, size));
    const Result<ModelConfig> imported = loadHuggingFaceConfigFile(path);
    if (!imported) {
        fuzz::checkProblemsNameAField(imported.problems());
        return 0;
    }
    fuzz::check(!imported->name.empty(), "an imported model has no name");
    for (const Problem &problem : validateModel(*imported))
        fuzz::check(!problem.field.empty() && !problem.rule.empty(), "a validation problem names no field or rule");
    return 0;
}
