// SPDX-License-Identifier: GPL-3.0-or-later
// Bucketed all-reduce of a gradient arena, as PyTorch DDP does it (Li et al., "PyTorch
// Distributed", VLDB 2020, §3.2.3): the arena is cut into buckets of about bucket_bytes, laid out
// from the arena's end because backward produces the last layers' gradients first, and each
// bucket's all-reduce starts (non-blocking) as soon as backward has finished every gradient in it.
#pragma once

#include "distributed/communicator.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace lse::distributed {

// Buckets of `bucket_elements` (the last one, at the arena's start, may be shorter) in the order
// backward completes them: the first bucket ends at the arena's end.
std::vector<ShardRange> gradientBuckets(std::int64_t arena_elements, std::int64_t bucket_elements);

class BucketedAllReduce {
public:
    BucketedAllReduce(Communicator &communicator, float *arena, std::vector<ShardRange> buckets);

    // Backward reports that gradients from element `ready_from` to the arena's end are final:
    // every bucket lying wholly inside that stretch and not yet started is started now.
    void gradientsReadyFrom(std::int64_t ready_from);
    // Starts what backward has not signalled (none when it signalled the whole arena) and waits
    // for every bucket; ready for the next step afterwards. Returns how many buckets were started
    // from gradientsReadyFrom, i.e. during backward, in this step.
    std::size_t finish();

    std::size_t bucketCount() const { return buckets_.size(); }

private:
    void startNext();

    Communicator &communicator_;
    float *arena_;
    std::vector<ShardRange> buckets_;
    std::vector<std::unique_ptr<CollectiveHandle>> pending_;
    std::size_t next_ = 0;
    std::size_t started_during_backward_ = 0;
};

}  // namespace lse::distributed
