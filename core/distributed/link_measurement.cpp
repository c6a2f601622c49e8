// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/link_measurement.h"

#include <algorithm>

#include <chrono>
#include <stdexcept>
#include <string>

namespace lse::distributed {

namespace {

constexpr std::int64_t kFloatBytes = sizeof(float);

void checkOptions(const SweepOptions &options)
{
    if (options.iterations < 1)
        throw std::invalid_argument("iterations must be >= 1, got " + std::to_string(options.iterations));
    if (options.warmup_iterations < 0)
        throw std::invalid_argument("warmup_iterations must be >= 0, got "
                                    + std::to_string(options.warmup_iterations));
    for (std::int64_t bytes : options.message_bytes)
        if (bytes <= 0 || bytes % kFloatBytes != 0)
            throw std::invalid_argument("message_bytes must be positive multiples of 4 (float buffers), got "
                                        + std::to_string(bytes));
}

// The middle of the timed iterations: on a shared machine one descheduled iteration would move a
// mean (and could make a small message look slower than a large one, which the fit then refuses).
double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

SweepPoint point(std::int64_t bytes, double seconds, double bus_factor)
{
    SweepPoint result;
    result.bytes = bytes;
    result.seconds = seconds;
    result.algorithm_bandwidth_bytes_per_second = seconds > 0 ? double(bytes) / seconds : 0;
    result.bus_bandwidth_bytes_per_second = result.algorithm_bandwidth_bytes_per_second * bus_factor;
    return result;
}

struct Line {
    double intercept = 0;
    double slope = 0;
};

// Weighted least squares of t on V with weights 1/t², i.e. relative residuals. A sweep spans six
// decades of size and three of time; ordinary least squares lets the largest sizes decide alone,
// so one of them slowed by another process drives the intercept below zero (α = 0) and every
// latency-bound collective is predicted to take no time. Relative residuals weigh each size alike;
// exact α-β times are still fitted exactly.
Result<Line> fitLine(const std::vector<double> &volumes, const std::vector<double> &seconds)
{
    auto weight = [&](std::size_t i) { return seconds[i] > 0 ? 1.0 / (seconds[i] * seconds[i]) : 0.0; };
    double total_weight = 0, mean_v = 0, mean_t = 0;
    for (std::size_t i = 0; i < volumes.size(); ++i) {
        total_weight += weight(i);
        mean_v += weight(i) * volumes[i];
        mean_t += weight(i) * seconds[i];
    }
    if (total_weight > 0) {
        mean_v /= total_weight;
        mean_t /= total_weight;
    }
    double covariance = 0, variance = 0;
    for (std::size_t i = 0; i < volumes.size(); ++i) {
        covariance += weight(i) * (volumes[i] - mean_v) * (seconds[i] - mean_t);
        variance += weight(i) * (volumes[i] - mean_v) * (volumes[i] - mean_v);
    }
    if (volumes.size() < 2 || !(variance > 0))
        return Result<Line>::failure("points", "distinct_sizes",
                                     "points: the fit needs at least two different message sizes, got "
                                         + std::to_string(volumes.size()) + " point(s)");
    const double slope = covariance / variance;
    if (!(slope > 0))
        return Result<Line>::failure("points", "bandwidth_positive",
                                     "points: time does not grow with message size (slope "
                                         + std::to_string(slope) + " s/B), so no bandwidth can be fitted");
    return Line{mean_t - slope * mean_v, slope};
}

Result<parallel::LinkModel> fit(const std::vector<SweepPoint> &points, double steps, double volume_per_byte)
{
    std::vector<double> volumes, seconds;
    for (const SweepPoint &sweep_point : points) {
        volumes.push_back(double(sweep_point.bytes) * volume_per_byte);
        seconds.push_back(sweep_point.seconds);
    }
    const Result<Line> line = fitLine(volumes, seconds);
    if (!line)
        return line.problems();
    parallel::LinkModel link;
    link.latency_seconds = line->intercept > 0 ? line->intercept / steps : 0;
    link.bandwidth_bytes_per_second = 1.0 / line->slope;
    return link;
}

using Clock = std::chrono::steady_clock;

}  // namespace

std::vector<std::int64_t> defaultSweepBytes()
{
    std::vector<std::int64_t> sizes;
    for (std::int64_t bytes = 4; bytes <= (std::int64_t(4) << 20); bytes *= 4)
        sizes.push_back(bytes);
    return sizes;
}

std::vector<SweepPoint> measurePingPong(Communicator &communicator, const SweepOptions &options)
{
    if (communicator.size() != 2)
        throw std::invalid_argument("ping-pong: ranks must be 2, got " + std::to_string(communicator.size()));
    checkOptions(options);
    std::vector<SweepPoint> points;
    for (std::int64_t bytes : options.message_bytes) {
        std::vector<float> message(static_cast<std::size_t>(bytes / kFloatBytes), 1.0f);
        const std::int64_t count = bytes / kFloatBytes;
        auto roundTrip = [&] {
            communicator.broadcast(message.data(), count, 0);
            communicator.broadcast(message.data(), count, 1);
        };
        for (int i = 0; i < options.warmup_iterations; ++i)
            roundTrip();
        communicator.barrier();
        std::vector<double> round_trips;
        for (int i = 0; i < options.iterations; ++i) {
            const auto started = Clock::now();
            roundTrip();
            round_trips.push_back(std::chrono::duration<double>(Clock::now() - started).count());
        }
        points.push_back(point(bytes, median(round_trips) / 2, 1.0));
        if (options.point_measured)
            options.point_measured(bytes);
    }
    communicator.takeRecords();
    return points;
}

std::vector<SweepPoint> measureAllReduce(Communicator &communicator, const SweepOptions &options)
{
    checkOptions(options);
    const double bus_factor = parallel::busBandwidthFactor(parallel::CollectiveOp::AllReduce, communicator.size());
    std::vector<SweepPoint> points;
    for (std::int64_t bytes : options.message_bytes) {
        const std::int64_t count = bytes / kFloatBytes;
        std::vector<float> buffer(static_cast<std::size_t>(count), 1.0f);
        for (int i = 0; i < options.warmup_iterations; ++i)
            communicator.allReduceSum(buffer.data(), count);
        communicator.barrier();
        communicator.takeRecords();
        for (int i = 0; i < options.iterations; ++i)
            communicator.allReduceSum(buffer.data(), count);
        std::vector<double> times;
        for (const CollectiveRecord &record : communicator.takeRecords())
            times.push_back(record.seconds);
        points.push_back(point(bytes, median(times), bus_factor));
        if (options.point_measured)
            options.point_measured(bytes);
    }
    return points;
}

Result<parallel::LinkModel> fitPingPong(const std::vector<SweepPoint> &points) { return fit(points, 1.0, 1.0); }

Result<parallel::LinkModel> fitRingAllReduce(const std::vector<SweepPoint> &points, int ranks)
{
    if (ranks < 2)
        return Result<parallel::LinkModel>::failure(
            "ranks", "at_least_two", "ranks: an all-reduce needs at least 2 ranks to measure a link, got "
                                         + std::to_string(ranks));
    // Patarasuk & Yuan 2009: 2(n-1) steps, each sending S/n bytes.
    const double steps = 2.0 * (ranks - 1);
    return fit(points, steps, steps / ranks);
}

}  // namespace lse::distributed
