// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/truncated_normal.h"

#include <array>
#include <cmath>

namespace lse::reference {

namespace {

constexpr int kLayers = 256;
constexpr double kTruncation = 3.0;

// SplitMix64's output function (Steele, Lea & Flood 2014): a bijective mix of 64 bits.
constexpr std::uint64_t mix64(std::uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t state) : state_(state) {}
    std::uint64_t next() { return mix64(state_ += 0x9E3779B97F4A7C15ull); }

private:
    std::uint64_t state_;
};

double density(double x) { return std::exp(-0.5 * x * x); }  // unnormalised: the ziggurat's f

// The 256 layers of equal area v under f (Marsaglia & Tsang 2000, §2 and their constants for
// n = 256): edge[0] = v / f(r) is the base layer's width (rectangle plus tail), edge[1] = r, then
// edge[i + 1] = f⁻¹(v / edge[i] + f(edge[i])), and edge[256] = 0, the peak.
struct Ziggurat {
    std::array<double, kLayers + 1> edge{};
    std::array<double, kLayers + 1> height{};  // f(edge[i])
    std::array<double, kLayers> unit{};         // edge[i] · 2⁻⁵³: a signed 54-bit integer times it is in (-edge[i], edge[i])

    Ziggurat()
    {
        const double r = 3.6541528853610088, v = 4.92867323399e-3;
        edge[0] = v / density(r);
        edge[1] = r;
        for (int i = 1; i < kLayers - 1; ++i) {
            const double y = v / edge[std::size_t(i)] + density(edge[std::size_t(i)]);
            edge[std::size_t(i) + 1] = y < 1 ? std::sqrt(-2.0 * std::log(y)) : 0.0;
        }
        edge[kLayers] = 0;
        for (int i = 0; i <= kLayers; ++i)
            height[std::size_t(i)] = density(edge[std::size_t(i)]);
        for (int i = 0; i < kLayers; ++i)
            unit[std::size_t(i)] = edge[std::size_t(i)] * 0x1.0p-53;
    }
};

const Ziggurat &ziggurat()
{
    static const Ziggurat table;
    return table;
}

// One draw of N(0, 1) truncated to [-3, 3].
[[gnu::always_inline]] inline double truncatedNormal(SplitMix64 &random, const Ziggurat &z)
{
    for (;;) {
        const std::uint64_t bits = random.next();
        const auto layer = std::size_t(bits & (kLayers - 1));
        // The top 54 bits as a signed integer in [-2⁵³, 2⁵³): x uniform in (-edge, edge).
        const double x = double(std::int64_t(bits) >> 10) * z.unit[layer];
        const double magnitude = std::abs(x);
        if (magnitude < z.edge[layer + 1]) {
            if (magnitude <= kTruncation)
                return x;
            continue;  // inside the ziggurat but beyond the truncation: only the lowest layers
        }
        if (layer == 0)
            continue;  // the tail, |x| > r > 3: truncated away
        // The wedge between the layer's rectangle and the curve: accept under f.
        const double y = z.height[layer] + double(random.next() >> 11) * 0x1.0p-53 * (z.height[layer + 1] - z.height[layer]);
        if (y < density(x) && magnitude <= kTruncation)
            return x;
    }
}

}  // namespace

std::uint64_t truncatedNormalStream(std::uint64_t seed, std::uint64_t index)
{
    return mix64(mix64(seed ^ 0x6A09E667F3BCC909ull) + 0x9E3779B97F4A7C15ull * (index + 1));
}

template <typename S>
void fillTruncatedNormal(S *data, std::int64_t n, double scale, std::uint64_t stream)
{
    const Ziggurat &z = ziggurat();
    const std::int64_t blocks = (n + kTruncatedNormalBlock - 1) / kTruncatedNormalBlock;
#pragma omp parallel for schedule(dynamic, 1) if (blocks > 1)
    for (std::int64_t block = 0; block < blocks; ++block) {
        SplitMix64 random(mix64(stream + 0xD1B54A32D192ED03ull * std::uint64_t(block + 1)));
        const std::int64_t end = std::min(n, (block + 1) * kTruncatedNormalBlock);
        for (std::int64_t i = block * kTruncatedNormalBlock; i < end; ++i)
            data[i] = S(scale * truncatedNormal(random, z));
    }
}

template void fillTruncatedNormal<float>(float *, std::int64_t, double, std::uint64_t);
template void fillTruncatedNormal<double>(double *, std::int64_t, double, std::uint64_t);

}  // namespace lse::reference
