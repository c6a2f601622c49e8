// SPDX-License-Identifier: GPL-3.0-or-later
// Number formats against their definitions (IEEE 754-2019 §3.3 for binary32/binary16, Google's
// bfloat16, NVIDIA's TF32, OCP OFP8 spec v1.0 for E4M3/E5M2) and rounding against independent
// conversions: the hardware's float → _Float16 and double → float, a round-to-nearest-even on a
// float's bits for BF16 and TF32, and a slow nearest-of-all-256-codes search for FP8.

#include "numbers/float_format.h"
#include "numbers/number_line.h"

#include <QTest>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace lse::numbers;

namespace {

std::uint32_t floatBits(float value)
{
    return std::bit_cast<std::uint32_t>(value);
}

std::uint16_t halfBits(_Float16 value)
{
    return std::bit_cast<std::uint16_t>(value);
}

_Float16 halfFromBits(std::uint16_t bits)
{
    return std::bit_cast<_Float16>(bits);
}

// Round-to-nearest-even of a float to its top `keptBits` bits, written on the bits (the classic
// "add 0x7FFF plus the lowest kept bit" trick); the carry into the exponent handles the binade step
// and overflow to infinity. NaN is not passed in.
std::uint32_t roundFloatBitsToNearestEven(float value, int droppedBits)
{
    const std::uint32_t u = floatBits(value);
    const std::uint32_t half = (std::uint32_t{1} << (droppedBits - 1)) - 1u;
    const std::uint32_t lowestKept = (u >> droppedBits) & 1u;
    return (u + half + lowestKept) >> droppedBits;
}

// The value of an FP8 code straight from the OCP OFP8 v1.0 format definitions (E4M3 bias 7, no
// infinities, S.1111.111 NaN; E5M2 bias 15, IEEE-like), written independently of decodeBits.
double referenceFp8Value(FormatId id, unsigned code)
{
    const bool e4m3 = id == FormatId::FP8_E4M3;
    const unsigned mantissaBits = e4m3 ? 3 : 2;
    const unsigned exponent = (code >> mantissaBits) & (e4m3 ? 0xFu : 0x1Fu);
    const unsigned mantissa = code & ((1u << mantissaBits) - 1u);
    const int bias = e4m3 ? 7 : 15;
    const double sign = (code & 0x80u) ? -1.0 : 1.0;
    if (e4m3 && exponent == 0xF && mantissa == 0x7)
        return std::numeric_limits<double>::quiet_NaN();
    if (!e4m3 && exponent == 0x1F)
        return mantissa == 0 ? sign * std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
    const double scale = std::pow(2.0, exponent == 0 ? 1 - bias : static_cast<int>(exponent) - bias);
    const double significand = (exponent == 0 ? 0.0 : 1.0) + mantissa / std::pow(2.0, mantissaBits);
    return sign * significand * scale;
}

struct ReferenceFp8 {
    double stored;
    unsigned code;  // 0x100 when overflow handling decides (no finite code)
};

// The slow reference: among the finite codes of x's sign plus one virtual code just beyond max (the
// value the next mantissa would have with an unbounded exponent), the nearest; ties to the even
// mantissa. Landing on the virtual code is an overflow: ±inf (E5M2), NaN (E4M3), or ±max saturating.
ReferenceFp8 referenceFp8Round(FormatId id, double x, bool saturate)
{
    const bool e4m3 = id == FormatId::FP8_E4M3;
    const bool negative = std::signbit(x);
    double bestDistance = std::numeric_limits<double>::infinity();
    unsigned bestCode = 0;
    double bestValue = 0;
    double maxValue = 0;
    unsigned maxCode = 0;
    for (unsigned magnitudeCode = 0; magnitudeCode < 0x80; ++magnitudeCode) {
        const unsigned code = magnitudeCode | (negative ? 0x80u : 0u);
        const double value = referenceFp8Value(id, code);
        if (!std::isfinite(value))
            continue;
        if (std::abs(value) > maxValue) {
            maxValue = std::abs(value);
            maxCode = code;
        }
        const double distance = std::abs(value - x);
        if (distance < bestDistance || (distance == bestDistance && (code & 1u) == 0)) {
            bestDistance = distance;
            bestCode = code;
            bestValue = value;
        }
    }
    // The virtual next value: max plus max's binade ulp; its mantissa is odd for E4M3 (1.111·2^8)
    // and even for E5M2 (1.00·2^16 after the carry).
    const double ulpAtMax = e4m3 ? 32.0 : 8192.0;
    const double beyond = (negative ? -1.0 : 1.0) * (maxValue + ulpAtMax);
    const bool beyondIsEven = !e4m3;
    const double beyondDistance = std::abs(beyond - x);
    // At or past the virtual value it is the nearest (the distances may round equal in double there).
    const bool overflow = std::abs(x) >= std::abs(beyond) || beyondDistance < bestDistance
                          || (beyondDistance == bestDistance && beyondIsEven);
    if (!overflow)
        return {bestValue, bestCode};
    if (saturate)
        return {negative ? -maxValue : maxValue, maxCode};
    if (e4m3)
        return {std::numeric_limits<double>::quiet_NaN(), (negative ? 0x80u : 0u) | 0x7Fu};
    return {negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity(),
            (negative ? 0x80u : 0u) | 0x7Cu};
}

bool sameValue(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
}

// Every positive finite value of an FP8 format, their midpoints and the doubles just beside them,
// mirrored to negative, plus random magnitudes across and beyond the range.
std::vector<double> fp8Probes(FormatId id)
{
    std::vector<double> probes;
    std::vector<double> finite;
    for (unsigned code = 0; code < 0x80; ++code) {
        const double value = referenceFp8Value(id, code);
        if (std::isfinite(value))
            finite.push_back(value);
    }
    const double maxValue = finite.back();
    finite.push_back(maxValue + (id == FormatId::FP8_E4M3 ? 32.0 : 8192.0));
    for (std::size_t i = 0; i + 1 < finite.size(); ++i) {
        const double mid = (finite[i] + finite[i + 1]) / 2;
        for (double v : {finite[i], mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e300),
                         std::nextafter(finite[i], 1e300)})
            probes.push_back(v);
    }
    std::mt19937_64 random(16);
    std::uniform_real_distribution<double> log2Magnitude(-14.0, 18.0);
    for (int i = 0; i < 20000; ++i)
        probes.push_back(std::exp2(log2Magnitude(random)));
    for (double v : {1e-30, 1e30, 464.0, 480.0, 479.99, 464.0001, 57344.0, 61440.0, 61439.9, 65536.0})
        probes.push_back(v);
    const std::size_t positive = probes.size();
    for (std::size_t i = 0; i < positive; ++i)
        probes.push_back(-probes[i]);
    return probes;
}

}  // namespace

class TestFloatFormats : public QObject {
    Q_OBJECT

private slots:
    void fp32EqualsNumericLimitsOfFloat()
    {
        const FloatFormat &f = floatFormat(FormatId::FP32);
        QCOMPARE(f.bits, 32);
        QCOMPARE(f.max, double(std::numeric_limits<float>::max()));
        QCOMPARE(f.lowest, double(std::numeric_limits<float>::lowest()));
        QCOMPARE(f.min_normal, double(std::numeric_limits<float>::min()));
        QCOMPARE(f.min_subnormal, double(std::numeric_limits<float>::denorm_min()));
        QCOMPARE(f.epsilon, double(std::numeric_limits<float>::epsilon()));
        QCOMPARE(f.mantissa_bits + 1, std::numeric_limits<float>::digits);
        QCOMPARE(f.max_exponent + 1, std::numeric_limits<float>::max_exponent);
        QCOMPARE(f.min_exponent + 1, std::numeric_limits<float>::min_exponent);
    }

    void propertiesEqualTheDefinitions()
    {
        const FloatFormat &bf16 = floatFormat(FormatId::BF16);
        QCOMPARE(bf16.bits, 16);
        QVERIFY(std::abs(bf16.max - 3.3895e38) / 3.3895e38 < 1e-4);
        QCOMPARE(bf16.max, double(std::bit_cast<float>(std::uint32_t{0x7F7F0000})));
        QCOMPARE(bf16.min_normal, double(std::numeric_limits<float>::min()));
        QCOMPARE(bf16.epsilon, std::ldexp(1.0, -7));

        const FloatFormat &fp16 = floatFormat(FormatId::FP16);
        QCOMPARE(fp16.max, 65504.0);
        QCOMPARE(fp16.min_normal, std::ldexp(1.0, -14));
        QCOMPARE(fp16.min_subnormal, std::ldexp(1.0, -24));
        QCOMPARE(fp16.epsilon, std::ldexp(1.0, -10));
        QCOMPARE(fp16.bias, 15);

        const FloatFormat &tf32 = floatFormat(FormatId::TF32);
        QCOMPARE(tf32.bits, 19);
        QCOMPARE(tf32.epsilon, std::ldexp(1.0, -10));
        QCOMPARE(tf32.min_normal, double(std::numeric_limits<float>::min()));

        const FloatFormat &e4m3 = floatFormat(FormatId::FP8_E4M3);
        QCOMPARE(e4m3.bias, 7);
        QCOMPARE(e4m3.max, 448.0);
        QCOMPARE(e4m3.min_normal, std::ldexp(1.0, -6));
        QCOMPARE(e4m3.min_subnormal, std::ldexp(1.0, -9));
        QVERIFY(!e4m3.has_infinity);

        const FloatFormat &e5m2 = floatFormat(FormatId::FP8_E5M2);
        QCOMPARE(e5m2.max, 57344.0);
        QCOMPARE(e5m2.min_normal, std::ldexp(1.0, -14));
        QCOMPARE(e5m2.min_subnormal, std::ldexp(1.0, -16));
        QVERIFY(e5m2.has_infinity);

        const FloatFormat &int8 = floatFormat(FormatId::INT8);
        QCOMPARE(int8.max, 127.0);
        QCOMPARE(int8.lowest, -128.0);
        QVERIFY(int8.is_integer);
        QVERIFY(std::isnan(int8.min_normal) && std::isnan(int8.min_subnormal) && std::isnan(int8.epsilon));
    }

    void namesRoundTrip()
    {
        const char *names[] = {"fp32", "tf32", "bf16", "fp16", "fp8-e4m3", "fp8-e5m2", "int8"};
        QCOMPARE(allFormats().size(), std::size(names));
        for (const char *name : names) {
            const auto id = formatFromName(name);
            QVERIFY2(id.has_value(), name);
            QCOMPARE(floatFormat(*id).name, std::string(name));
        }
        QVERIFY(!formatFromName("fp64").has_value());
        QVERIFY(!formatFromName("").has_value());
    }

    // Every FP16 pattern decodes as the hardware's _Float16 does and rounds back to itself.
    void everyFp16PatternDecodesAndRoundTrips()
    {
        for (std::uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
            const double hardware = double(halfFromBits(static_cast<std::uint16_t>(bits)));
            const double decoded = decodeBits(FormatId::FP16, bits);
            QVERIFY2(sameValue(decoded, hardware), qPrintable(QString::number(bits, 16)));
            if (std::isnan(hardware))
                continue;
            const Rounded r = roundToFormat(FormatId::FP16, hardware);
            QCOMPARE(r.bits, bits);
            QVERIFY(!r.overflow && !r.underflow_to_zero);
        }
    }

    // Between every pair of neighbouring FP16 values: the midpoint (a tie → even) and the floats just
    // below and above it round as the hardware float → _Float16 conversion does.
    void fp16RoundingBetweenNeighboursMatchesHardware()
    {
        int ties = 0;
        for (std::uint32_t bits = 0; bits < 0x7C00; ++bits) {
            for (const bool negative : {false, true}) {
                const std::uint32_t low = bits | (negative ? 0x8000u : 0u);
                const double a = decodeBits(FormatId::FP16, low);
                const double b = decodeBits(FormatId::FP16, low + 1);
                const float mid = float((a + b) / 2);
                QCOMPARE(double(mid), (a + b) / 2);  // exact in float: FP16 needs 12 significant bits
                for (const float probe : {mid, std::nextafter(mid, -INFINITY), std::nextafter(mid, INFINITY)}) {
                    const std::uint16_t expected = halfBits(static_cast<_Float16>(probe));
                    const Rounded r = roundToFormat(FormatId::FP16, probe);
                    if (r.bits != expected)
                        QFAIL(qPrintable(QString("%1 -> %2, hardware %3").arg(double(probe), 0, 'g', 17)
                                             .arg(r.bits, 0, 16).arg(expected, 0, 16)));
                    QVERIFY(sameValue(r.stored, double(halfFromBits(expected))));
                }
                ++ties;
            }
        }
        QCOMPARE(ties, 2 * 0x7C00);
        // Overflow decided after rounding: 65519.99 rounds down to max, 65520 is a tie whose even
        // neighbour is 2^16 → inf.
        QCOMPARE(roundToFormat(FormatId::FP16, 65519.99).stored, 65504.0);
        QVERIFY(!roundToFormat(FormatId::FP16, 65519.99).overflow);
        QVERIFY(std::isinf(roundToFormat(FormatId::FP16, 65520.0).stored));
        QVERIFY(roundToFormat(FormatId::FP16, 65520.0).overflow);
        QCOMPARE(roundToFormat(FormatId::FP16, 65520.0, OverflowMode::Saturate).stored, 65504.0);
        QCOMPARE(halfBits(static_cast<_Float16>(65520.0f)), std::uint16_t(roundToFormat(FormatId::FP16, 65520.0).bits));
        // Below half the smallest subnormal: flushed to zero, flagged.
        const Rounded tiny = roundToFormat(FormatId::FP16, std::ldexp(1.0, -26));
        QCOMPARE(tiny.stored, 0.0);
        QVERIFY(tiny.underflow_to_zero);
        QVERIFY(roundToFormat(FormatId::FP16, std::ldexp(1.0, -20)).subnormal);
    }

    // Every BF16 pattern is the top half of a float: decoding and round trip against that float.
    void everyBf16PatternDecodesAndRoundTrips()
    {
        for (std::uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
            const double hardware = double(std::bit_cast<float>(bits << 16));
            QVERIFY(sameValue(decodeBits(FormatId::BF16, bits), hardware));
            if (std::isnan(hardware))
                continue;
            QCOMPARE(roundToFormat(FormatId::BF16, hardware).bits, bits);
        }
    }

    void bf16RoundingBetweenNeighboursMatchesBitRounding()
    {
        for (std::uint32_t bits = 0; bits < 0x7F80; ++bits) {
            for (const bool negative : {false, true}) {
                const std::uint32_t low = bits | (negative ? 0x8000u : 0u);
                const float mid = std::bit_cast<float>((low << 16) | 0x8000u);  // exactly halfway
                const double next = decodeBits(FormatId::BF16, low + 1);
                if (std::isfinite(next))
                    QCOMPARE(double(mid), (decodeBits(FormatId::BF16, low) + next) / 2);
                for (const float probe : {mid, std::nextafter(mid, -INFINITY), std::nextafter(mid, INFINITY)}) {
                    const std::uint32_t expected = roundFloatBitsToNearestEven(probe, 16);
                    const Rounded r = roundToFormat(FormatId::BF16, probe);
                    if (r.bits != expected)
                        QFAIL(qPrintable(QString("%1 -> %2, expected %3").arg(double(probe), 0, 'g', 17)
                                             .arg(r.bits, 0, 16).arg(expected, 0, 16)));
                    QCOMPARE(r.overflow, std::isinf(decodeBits(FormatId::BF16, expected)));
                }
            }
        }
    }

    // TF32 keeps a float's top 19 bits; random floats of every binade against the bit rounding.
    void tf32RoundingMatchesBitRounding()
    {
        std::mt19937 random(32);
        for (int i = 0; i < 2'000'000; ++i) {
            const float probe = std::bit_cast<float>(static_cast<std::uint32_t>(random()));
            if (std::isnan(probe))
                continue;
            const std::uint32_t expected = roundFloatBitsToNearestEven(probe, 13);
            QCOMPARE(roundToFormat(FormatId::TF32, probe).bits, expected);
        }
    }

    // FP32 from double: the hardware's double → float conversion, subnormals and overflow included.
    void fp32RoundingMatchesHardware()
    {
        std::mt19937_64 random(64);
        std::uniform_real_distribution<double> log2Magnitude(-152.0, 130.0);
        for (int i = 0; i < 1'000'000; ++i) {
            const double sign = (random() & 1u) ? -1.0 : 1.0;
            const double probe = sign * std::exp2(log2Magnitude(random));
            const float hardware = static_cast<float>(probe);
            const Rounded r = roundToFormat(FormatId::FP32, probe);
            QCOMPARE(r.bits, floatBits(hardware));
            QVERIFY(sameValue(r.stored, double(hardware)));
        }
    }

    void fp8MatchesTheSlowReference_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<bool>("saturate");
        QTest::newRow("e4m3") << int(FormatId::FP8_E4M3) << false;
        QTest::newRow("e4m3 saturating") << int(FormatId::FP8_E4M3) << true;
        QTest::newRow("e5m2") << int(FormatId::FP8_E5M2) << false;
        QTest::newRow("e5m2 saturating") << int(FormatId::FP8_E5M2) << true;
    }

    void fp8MatchesTheSlowReference()
    {
        QFETCH(int, format);
        QFETCH(bool, saturate);
        const auto id = static_cast<FormatId>(format);
        for (unsigned code = 0; code < 256; ++code)
            QVERIFY(sameValue(decodeBits(id, code), referenceFp8Value(id, code)));
        for (const double probe : fp8Probes(id)) {
            const ReferenceFp8 expected = referenceFp8Round(id, probe, saturate);
            const Rounded r = roundToFormat(id, probe, saturate ? OverflowMode::Saturate : OverflowMode::Standard);
            if (!sameValue(r.stored, expected.stored) || r.bits != expected.code)
                QFAIL(qPrintable(QString("%1 -> %2 (%3), reference %4 (%5)").arg(probe, 0, 'g', 17)
                                     .arg(r.stored).arg(r.bits, 0, 16).arg(expected.stored).arg(expected.code, 0, 16)));
        }
    }

    void e4m3OverflowIsDecidedAfterRounding()
    {
        QCOMPARE(roundToFormat(FormatId::FP8_E4M3, 464.0).stored, 448.0);  // a tie: 1.110·2^8 is even
        QVERIFY(!roundToFormat(FormatId::FP8_E4M3, 464.0).overflow);
        const Rounded nan = roundToFormat(FormatId::FP8_E4M3, 480.0);
        QVERIFY(std::isnan(nan.stored));
        QVERIFY(nan.overflow);
        QCOMPARE(nan.bits, 0x7Fu);
        QCOMPARE(roundToFormat(FormatId::FP8_E4M3, -480.0).bits, 0xFFu);
        const Rounded saturated = roundToFormat(FormatId::FP8_E4M3, 480.0, OverflowMode::Saturate);
        QCOMPARE(saturated.stored, 448.0);
        QCOMPARE(saturated.bits, 0x7Eu);
        QVERIFY(saturated.overflow);
        QVERIFY(std::isnan(roundToFormat(FormatId::FP8_E4M3, INFINITY).stored));
        QCOMPARE(roundToFormat(FormatId::FP8_E4M3, -INFINITY, OverflowMode::Saturate).stored, -448.0);
        QVERIFY(std::isinf(roundToFormat(FormatId::FP8_E5M2, 61440.0).stored));  // tie → 2^16 (even) → inf
        QCOMPARE(roundToFormat(FormatId::FP8_E5M2, 61439.0).stored, 57344.0);
    }

    void nanStaysNaN()
    {
        for (const FloatFormat &f : allFormats()) {
            const Rounded r = roundToFormat(f.id, std::numeric_limits<double>::quiet_NaN());
            QVERIFY2(std::isnan(r.stored), f.name.c_str());
            if (!f.is_integer)
                QVERIFY2(std::isnan(decodeBits(f.id, r.bits)), f.name.c_str());
        }
    }

    void int8IsSymmetricQuantisationWithClamping()
    {
        QCOMPARE(roundToFormat(FormatId::INT8, 2.5).stored, 2.0);
        QCOMPARE(roundToFormat(FormatId::INT8, 3.5).stored, 4.0);
        QCOMPARE(roundToFormat(FormatId::INT8, -2.5).stored, -2.0);
        QCOMPARE(roundToFormat(FormatId::INT8, -1.0).bits, 0xFFu);
        QCOMPARE(roundToFormat(FormatId::INT8, 127.4).stored, 127.0);
        QVERIFY(!roundToFormat(FormatId::INT8, 127.4).overflow);
        QCOMPARE(roundToFormat(FormatId::INT8, 200.0).stored, 127.0);
        QVERIFY(roundToFormat(FormatId::INT8, 200.0).overflow);
        QCOMPARE(roundToFormat(FormatId::INT8, -200.0).stored, -128.0);
        QCOMPARE(roundToFormat(FormatId::INT8, -200.0).bits, 0x80u);
        QVERIFY(roundToFormat(FormatId::INT8, 0.3).underflow_to_zero);
        QCOMPARE(roundToInt8(1.3, 0.5).stored, 1.5);
        QCOMPARE(roundToInt8(100.0, 0.5).stored, 63.5);
        for (std::uint32_t bits = 0; bits < 256; ++bits)
            QCOMPARE(roundToFormat(FormatId::INT8, decodeBits(FormatId::INT8, bits)).bits, bits);
    }

    void bitStringsAndErrors()
    {
        QCOMPARE(bitString(FormatId::FP16, roundToFormat(FormatId::FP16, 1.0).bits), std::string("0011110000000000"));
        QCOMPARE(bitString(FormatId::TF32, roundToFormat(FormatId::TF32, -2.0).bits), std::string("1100000000000000000"));
        QCOMPARE(bitString(FormatId::FP8_E4M3, 0x7E).size(), std::size_t(8));
        const FloatFormat &bf16 = floatFormat(FormatId::BF16);
        QCOMPARE(bitField(bf16, 0), BitField::Sign);
        QCOMPARE(bitField(bf16, 1), BitField::Exponent);
        QCOMPARE(bitField(bf16, 8), BitField::Exponent);
        QCOMPARE(bitField(bf16, 9), BitField::Mantissa);
        QCOMPARE(bitField(bf16, 15), BitField::Mantissa);
        QCOMPARE(bitField(floatFormat(FormatId::INT8), 1), BitField::Mantissa);
        QCOMPARE(absoluteError(0.1, 0.125), 0.025);
        QCOMPARE(relativeError(0.5, 0.25), 0.5);
        QCOMPARE(relativeError(0.0, 0.0), 0.0);
        QVERIFY(std::isinf(absoluteError(1e6, INFINITY)));
    }

    // The number line's spacing is the gap to the next FP16 value, for every positive finite FP16 value.
    void spacingIsTheGapToTheNextValue()
    {
        for (std::uint32_t bits = 1; bits < 0x7BFF; ++bits) {
            const double value = decodeBits(FormatId::FP16, bits);
            QCOMPARE(spacingAt(FormatId::FP16, value), decodeBits(FormatId::FP16, bits + 1) - value);
        }
        QCOMPARE(spacingAt(FormatId::BF16, 1.0), std::ldexp(1.0, -7));
        // Relative spacing: 1 at the smallest subnormal, between 2^−m−1 and 2^−m over the normal range.
        for (const FloatFormat &f : allFormats()) {
            if (f.is_integer)
                continue;
            const std::vector<SpacingPoint> relative = relativeSpacingCurve(f.id);
            QCOMPARE(relative.front().spacing, 1.0);
            for (const SpacingPoint &point : relative)
                if (point.magnitude >= f.min_normal)
                    QVERIFY(point.spacing <= f.epsilon && point.spacing >= f.epsilon / 2);
        }
        QCOMPARE(spacingAt(FormatId::FP32, 1.0), double(std::numeric_limits<float>::epsilon()));
        QVERIFY(std::isnan(spacingAt(FormatId::FP16, 1e6)));
        for (const FloatFormat &f : allFormats()) {
            const std::vector<SpacingPoint> curve = spacingCurve(f.id);
            QVERIFY(curve.size() >= 2);
            QCOMPARE(curve.back().magnitude, f.max);
            if (!f.is_integer)
                QCOMPARE(curve.front().magnitude, f.min_subnormal);
            for (std::size_t i = 1; i < curve.size(); ++i) {
                QVERIFY(curve[i].magnitude >= curve[i - 1].magnitude);
                QVERIFY(curve[i].spacing >= curve[i - 1].spacing);
                // Inside a flat step of the curve the spacing is the format's ulp there.
                if (curve[i].spacing == curve[i - 1].spacing && curve[i].magnitude > curve[i - 1].magnitude) {
                    const double inside = std::sqrt(curve[i].magnitude * curve[i - 1].magnitude);
                    QCOMPARE(spacingAt(f.id, inside), curve[i].spacing);
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestFloatFormats)
#include "test_float_formats.moc"
