// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario JSON (scenario/scenario_json.h) as `--scenario FILE` and File > Open read it: a loaded
// scenario is validated and, when valid, estimated, so the cost engine sees every value the loader
// lets through.
#include "cost/estimate.h"
#include "fuzz_support.h"
#include "scenario/scenario_json.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace lse;
    const std::string path = fuzz::writeScratchFile("scenario.json", fuzz::asText(data, size));
    const Result<Scenario> loaded = loadScenarioFile(path);
    if (!loaded) {
        fuzz::checkProblemsNameAField(loaded.problems());
        return 0;
    }
    if (!validate(*loaded).empty())
        return 0;
    const Result<Estimate> figures = estimate(*loaded);
    if (!figures)
        fuzz::checkProblemsNameAField(figures.problems());
    // A saved scenario reads back as itself (the file the app writes on save).
    const Result<Scenario> again = scenarioFromJson(scenarioToJson(*loaded));
    fuzz::check(again.ok(), "a loaded scenario, saved, does not load again");
    return 0;
}
