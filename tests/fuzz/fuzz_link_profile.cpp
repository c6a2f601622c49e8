// SPDX-License-Identifier: GPL-3.0-or-later
// The measured link profile (distributed/link_profile.h) as `train --dp 2` looks it up in the cache
// folder: a broken file is ignored with a reason, never used.
#include "distributed/link_profile.h"
#include "fuzz_support.h"

#include <cstdlib>
#include <filesystem>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace lse;
    constexpr int kRanks = 2;
    static const bool cacheInScratch = [] {
        // linkProfileCachePath() follows $LSE_CACHE_DIR, so the lookup reads the scratch folder.
        return ::setenv("LSE_CACHE_DIR", fuzz::scratchFolderPath().c_str(), 1) == 0;
    }();
    fuzz::check(cacheInScratch, "LSE_CACHE_DIR could not be set");
    const std::string path = distributed::linkProfileCachePath(kRanks);
    fuzz::writeScratchFile(std::filesystem::path(path).filename().string(), fuzz::asText(data, size));

    const distributed::LinkProfileLookup lookup = distributed::loadLinkProfile(kRanks);
    fuzz::check(lookup.path == path, "the lookup read another file");
    if (!lookup.profile) {
        fuzz::checkProblemsNameAField(lookup.problems);
        return 0;
    }
    const distributed::LinkProfile &profile = *lookup.profile;
    fuzz::check(profile.ranks == kRanks, "a profile for another rank count was used");
    fuzz::check(profile.beta_bytes_per_second > 0 && profile.alpha_seconds >= 0, "a profile with an unusable link was used");
    const Result<distributed::LinkProfile> again = distributed::linkProfileFromJson(distributed::linkProfileToJson(profile));
    fuzz::check(again.ok(), "a profile read, saved, does not read again");
    return 0;
}
