// SPDX-License-Identifier: GPL-3.0-or-later
#include "numbers/gradient_histogram.h"

#include "numbers/reference_gradient_source.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace lse::numbers {

std::int64_t Log2Histogram::total() const
{
    std::int64_t sum = zero_count + non_finite_count;
    for (std::int64_t c : counts)
        sum += c;
    return sum;
}

std::int64_t Log2Histogram::countAt(int exponent) const
{
    if (exponent < min_exponent || exponent > max_exponent)
        return 0;
    return counts[std::size_t(exponent - min_exponent)];
}

int log2Bucket(double value)
{
    int exponent = 0;
    std::frexp(value, &exponent);  // |value| = m·2^exponent with 0.5 ≤ m < 1
    return exponent - 1;
}

Log2Histogram log2Histogram(std::span<const float> values, double scale)
{
    Log2Histogram h;
    int lo = INT_MAX;
    int hi = INT_MIN;
    std::vector<int> buckets;
    buckets.reserve(values.size());
    for (float v : values) {
        const double x = double(v) * scale;
        if (!std::isfinite(x)) {
            ++h.non_finite_count;
        } else if (x == 0) {
            ++h.zero_count;
        } else {
            const int k = log2Bucket(x);
            lo = std::min(lo, k);
            hi = std::max(hi, k);
            buckets.push_back(k);
        }
    }
    if (buckets.empty())
        return h;
    h.min_exponent = lo;
    h.max_exponent = hi;
    h.counts.assign(std::size_t(hi - lo + 1), 0);
    for (int k : buckets)
        ++h.counts[std::size_t(k - lo)];
    return h;
}

FormatRange formatRange(FormatId format)
{
    const FloatFormat &f = floatFormat(format);
    return FormatRange{format, f.name, f.min_subnormal, f.min_normal, f.max};
}

namespace {
double fraction(std::int64_t part, std::int64_t whole) { return whole > 0 ? double(part) / double(whole) : 0.0; }
}

double CastStatistics::flushedFraction() const { return fraction(flushed, non_zero); }
double CastStatistics::subnormalFraction() const { return fraction(subnormal, non_zero); }
double CastStatistics::overflowFraction() const { return fraction(overflow, non_zero); }

CastStatistics castStatistics(std::span<const float> values, FormatId format, double scale)
{
    CastStatistics s;
    s.format = format;
    s.scale = scale;
    s.values = std::int64_t(values.size());
    for (float v : values) {
        const double x = double(v) * scale;
        if (!std::isfinite(x)) {
            ++s.non_finite;
            continue;
        }
        if (v == 0)
            continue;
        ++s.non_zero;
        const Rounded r = roundToFormat(format, x);
        if (r.overflow)
            ++s.overflow;
        else if (r.underflow_to_zero || r.stored == 0)
            ++s.flushed;
        else if (r.subnormal)
            ++s.subnormal;
    }
    return s;
}

Result<GradientSnapshot> collectReferenceGradients(const GradientSnapshotOptions &options,
                                                   const GradientProgressCallback &progress,
                                                   const std::atomic<bool> *cancel)
{
    GradientSourceOptions source_options;
    source_options.steps = options.steps;
    source_options.seed = options.seed;
    source_options.text_bytes = options.text_bytes;
    if (progress)
        progress(0, options.steps, 0);
    Result<std::unique_ptr<ReferenceGradientSource>> created = ReferenceGradientSource::create(source_options, cancel);
    GradientSnapshot snapshot;
    if (!created) {
        if (cancel && cancel->load()) {
            snapshot.cancelled = true;
            return snapshot;
        }
        return created.problems();
    }
    ReferenceGradientSource &source = *created.value();
    snapshot.parameter_count = source.parameterCount();
    for (int step = 0; step < options.steps; ++step) {
        if (cancel && cancel->load()) {
            snapshot.cancelled = true;
            break;
        }
        Result<reference::StepReport> taken = source.step();
        if (!taken)
            return taken.problems();
        snapshot.steps = taken.value().step;
        snapshot.loss = taken.value().loss;
        if (progress)
            progress(snapshot.steps, options.steps, snapshot.loss);
    }
    if (snapshot.steps > 0) {
        const std::span<const float> g = source.gradients();
        snapshot.gradients.assign(g.begin(), g.end());
        snapshot.histogram = log2Histogram(snapshot.gradients);
    }
    return snapshot;
}

}  // namespace lse::numbers
