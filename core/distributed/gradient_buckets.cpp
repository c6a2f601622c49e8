// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/gradient_buckets.h"

#include <algorithm>

namespace lse::distributed {

std::vector<ShardRange> gradientBuckets(std::int64_t arena_elements, std::int64_t bucket_elements)
{
    std::vector<ShardRange> buckets;
    const std::int64_t size = std::max<std::int64_t>(1, bucket_elements);
    for (std::int64_t end = arena_elements; end > 0; end -= size) {
        const std::int64_t begin = std::max<std::int64_t>(0, end - size);
        buckets.push_back(ShardRange{begin, end - begin});
    }
    return buckets;
}

BucketedAllReduce::BucketedAllReduce(Communicator &communicator, float *arena, std::vector<ShardRange> buckets)
    : communicator_(communicator), arena_(arena), buckets_(std::move(buckets))
{
    pending_.reserve(buckets_.size());
}

void BucketedAllReduce::startNext()
{
    const ShardRange &bucket = buckets_[next_++];
    pending_.push_back(communicator_.startAllReduceSum(arena_ + bucket.offset, bucket.count));
}

void BucketedAllReduce::gradientsReadyFrom(std::int64_t ready_from)
{
    while (next_ < buckets_.size() && buckets_[next_].offset >= ready_from) {
        startNext();
        ++started_during_backward_;
    }
}

std::size_t BucketedAllReduce::finish()
{
    const std::size_t during_backward = started_during_backward_;
    while (next_ < buckets_.size())
        startNext();
    for (const std::unique_ptr<CollectiveHandle> &handle : pending_)
        handle->wait();
    pending_.clear();
    next_ = 0;
    started_during_backward_ = 0;
    return during_backward;
}

}  // namespace lse::distributed
