// SPDX-License-Identifier: GPL-3.0-or-later
// This machine's measured link for one rank count (issue 19): the α-β fit of a ping-pong and ring
// all-reduce sweep, kept beside the machine roofline cache so that `train --dp N` can set the
// α-β prediction of each collective beside its measured time.
#pragma once

#include "common/problem.h"
#include "distributed/link_measurement.h"
#include "parallel/collectives.h"

#include <QByteArray>

#include <optional>
#include <string>
#include <vector>

namespace lse::distributed {

struct LinkProfile {
    int ranks = 0;                     // processes of the sweep; the profile predicts runs of this size
    double alpha_seconds = 0;          // latency per ring step, fitted to the all-reduce sweep
    double beta_bytes_per_second = 0;  // bandwidth per rank, fitted to the all-reduce sweep
    std::string measured_at;           // ISO 8601, UTC
    std::vector<SweepPoint> ping_pong;   // 2 ranks only; empty otherwise
    std::vector<SweepPoint> all_reduce;  // the sweep α and β were fitted to

    parallel::LinkModel link() const { return {beta_bytes_per_second, alpha_seconds}; }
};

// The profile of a finished sweep: α and β from fitRingAllReduce (its problems otherwise), the
// time now.
Result<LinkProfile> makeLinkProfile(int ranks, std::vector<SweepPoint> ping_pong, std::vector<SweepPoint> all_reduce);

// JSON with the struct's field names plus "format" and "version"; each sweep point as
// {bytes, seconds, algbw_bytes_per_second, busbw_bytes_per_second}.
QByteArray linkProfileToJson(const LinkProfile &profile);
// Problems name the field: "ranks" (>= 2), "beta_bytes_per_second" (> 0), "alpha_seconds" (>= 0),
// "all_reduce[i].bytes" ..., or "file" for text that is not a link profile.
Result<LinkProfile> linkProfileFromJson(const QByteArray &json);

// <the machine roofline's cache folder>/link-profile-np<ranks>.json ($LSE_CACHE_DIR in tests).
std::string linkProfileCachePath(int ranks);

// Writes the profile to linkProfileCachePath(profile.ranks) atomically; returns the path.
Result<std::string> saveLinkProfile(const LinkProfile &profile);

// What loading a cached profile found.
struct LinkProfileLookup {
    std::string path;
    std::optional<LinkProfile> profile;  // nothing when the file is missing or broken
    Problems problems;                   // a broken file: why it was ignored (field = the path)
};
LinkProfileLookup loadLinkProfile(int ranks);

}  // namespace lse::distributed
