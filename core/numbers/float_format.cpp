// SPDX-License-Identifier: GPL-3.0-or-later
#include "numbers/float_format.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lse::numbers {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// A binary floating-point format from its definition (IEEE 754-2019 §3.3; OCP OFP8 v1.0).
FloatFormat binaryFormat(FormatId id, std::string name, int exponentBits, int mantissaBits, SpecialValues special)
{
    FloatFormat f{};
    f.id = id;
    f.name = std::move(name);
    f.bits = 1 + exponentBits + mantissaBits;
    f.exponent_bits = exponentBits;
    f.mantissa_bits = mantissaBits;
    f.bias = (1 << (exponentBits - 1)) - 1;
    f.special = special;
    f.has_infinity = special == SpecialValues::InfinityAndNaN;
    f.is_integer = false;
    f.min_exponent = 1 - f.bias;
    const int allOnes = (1 << exponentBits) - 1;
    if (special == SpecialValues::InfinityAndNaN) {
        // The all-ones exponent is reserved: max = (2 − 2^−m)·2^emax with emax = 2^e − 2 − bias.
        f.max_exponent = allOnes - 1 - f.bias;
        f.max = (2.0 - std::ldexp(1.0, -mantissaBits)) * std::ldexp(1.0, f.max_exponent);
    } else {
        // E4M3: the all-ones exponent holds numbers except mantissa all ones (NaN), so the largest
        // mantissa is 1…10: max = (2 − 2^(1−m))·2^emax with emax = 2^e − 1 − bias (OCP: 448).
        f.max_exponent = allOnes - f.bias;
        f.max = (2.0 - std::ldexp(1.0, 1 - mantissaBits)) * std::ldexp(1.0, f.max_exponent);
    }
    f.lowest = -f.max;
    f.min_normal = std::ldexp(1.0, f.min_exponent);
    f.min_subnormal = std::ldexp(1.0, f.min_exponent - mantissaBits);
    f.epsilon = std::ldexp(1.0, -mantissaBits);
    f.decimal_digits = (mantissaBits + 1) * std::log10(2.0);
    return f;
}

// Two's complement 8-bit integers used for symmetric quantisation: no exponent, no special values.
FloatFormat int8Format()
{
    FloatFormat f{};
    f.id = FormatId::INT8;
    f.name = "int8";
    f.bits = 8;
    f.exponent_bits = 0;
    f.mantissa_bits = 7;
    f.bias = 0;
    f.has_infinity = false;
    f.is_integer = true;
    f.special = SpecialValues::None;
    f.min_exponent = 0;
    f.max_exponent = 6;
    f.max = std::ldexp(1.0, f.bits - 1) - 1.0;  // 127
    f.lowest = -std::ldexp(1.0, f.bits - 1);    // −128
    f.min_normal = kNaN;
    f.min_subnormal = kNaN;
    f.epsilon = kNaN;
    f.decimal_digits = kNaN;
    return f;
}

std::vector<FloatFormat> buildFormats()
{
    return {
        binaryFormat(FormatId::FP32, "fp32", 8, 23, SpecialValues::InfinityAndNaN),
        binaryFormat(FormatId::TF32, "tf32", 8, 10, SpecialValues::InfinityAndNaN),
        binaryFormat(FormatId::BF16, "bf16", 8, 7, SpecialValues::InfinityAndNaN),
        binaryFormat(FormatId::FP16, "fp16", 5, 10, SpecialValues::InfinityAndNaN),
        binaryFormat(FormatId::FP8_E4M3, "fp8-e4m3", 4, 3, SpecialValues::NaNOnly),
        binaryFormat(FormatId::FP8_E5M2, "fp8-e5m2", 5, 2, SpecialValues::InfinityAndNaN),
        int8Format(),
    };
}

std::uint32_t signBit(const FloatFormat &f, bool negative)
{
    return negative ? (std::uint32_t{1} << (f.bits - 1)) : 0u;
}

std::uint32_t exponentMask(const FloatFormat &f)
{
    return (std::uint32_t{1} << f.exponent_bits) - 1u;
}

// A quiet NaN: IEEE sets the mantissa's top bit (§6.2.1); OCP E4M3 has only S.1111.111.
std::uint32_t nanBits(const FloatFormat &f, bool negative)
{
    const std::uint32_t mantissa = f.special == SpecialValues::NaNOnly ? (std::uint32_t{1} << f.mantissa_bits) - 1u
                                                                       : std::uint32_t{1} << (f.mantissa_bits - 1);
    return signBit(f, negative) | (exponentMask(f) << f.mantissa_bits) | mantissa;
}

// The pattern of a finite non-negative value that the format represents exactly.
std::uint32_t finiteBits(const FloatFormat &f, double magnitude)
{
    if (magnitude == 0.0)
        return 0;
    if (magnitude < f.min_normal)
        return static_cast<std::uint32_t>(magnitude / f.min_subnormal);
    int exponent = 0;
    const double fraction = std::frexp(magnitude, &exponent);  // magnitude = fraction·2^exponent, fraction ∈ [0.5, 1)
    const int unbiased = exponent - 1;
    const auto mantissa = static_cast<std::uint32_t>(std::ldexp(fraction * 2.0 - 1.0, f.mantissa_bits));
    return (static_cast<std::uint32_t>(unbiased + f.bias) << f.mantissa_bits) | mantissa;
}

Rounded overflowResult(const FloatFormat &f, bool negative, OverflowMode mode)
{
    Rounded r{};
    r.overflow = true;
    if (mode == OverflowMode::Saturate) {
        r.stored = negative ? -f.max : f.max;
        r.bits = signBit(f, negative) | finiteBits(f, f.max);
    } else if (f.has_infinity) {
        r.stored = negative ? -kInf : kInf;
        r.bits = signBit(f, negative) | (exponentMask(f) << f.mantissa_bits);
    } else {
        r.stored = kNaN;
        r.bits = nanBits(f, negative);
    }
    return r;
}

Rounded roundBinary(const FloatFormat &f, double value, OverflowMode mode)
{
    const bool negative = std::signbit(value);
    if (std::isnan(value))
        return Rounded{kNaN, nanBits(f, negative), false, false, false};
    if (std::isinf(value)) {
        if (f.has_infinity && mode == OverflowMode::Standard)
            return Rounded{value, signBit(f, negative) | (exponentMask(f) << f.mantissa_bits), false, false, false};
        return overflowResult(f, negative, mode);
    }
    const double magnitude = std::abs(value);
    if (magnitude == 0.0)
        return Rounded{value, signBit(f, negative), false, false, false};

    // The quantum (spacing) at this magnitude: 2^(E − m) with E = max(floor(log2 |x|), emin). The
    // exponent is not capped above, so a value past max rounds as if the range went on and overflow
    // is decided after rounding (IEEE 754-2019 §7.4).
    int exponent = 0;
    std::frexp(magnitude, &exponent);
    const int binade = std::max(exponent - 1, f.min_exponent);
    const int quantumExponent = binade - f.mantissa_bits;
    // Scaling by a power of two is exact, and so is rint on the result: ties go to the even integer
    // under the default rounding mode (round to nearest, ties to even).
    const double steps = std::nearbyint(std::ldexp(magnitude, -quantumExponent));
    const double rounded = std::ldexp(steps, quantumExponent);
    if (rounded > f.max)
        return overflowResult(f, negative, mode);

    Rounded r{};
    r.stored = negative ? -rounded : rounded;
    r.bits = signBit(f, negative) | finiteBits(f, rounded);
    r.underflow_to_zero = rounded == 0.0;
    r.subnormal = rounded != 0.0 && rounded < f.min_normal;
    return r;
}

}  // namespace

const std::vector<FloatFormat> &allFormats()
{
    static const std::vector<FloatFormat> formats = buildFormats();
    return formats;
}

const FloatFormat &floatFormat(FormatId id)
{
    for (const FloatFormat &f : allFormats())
        if (f.id == id)
            return f;
    return allFormats().front();  // unreachable: every FormatId is in allFormats()
}

std::optional<FormatId> formatFromName(std::string_view name)
{
    for (const FloatFormat &f : allFormats())
        if (f.name == name)
            return f.id;
    return std::nullopt;
}

std::string formatNames()
{
    std::string names;
    for (const FloatFormat &f : allFormats())
        names += (names.empty() ? "" : ", ") + f.name;
    return names;
}

Rounded roundToFormat(FormatId id, double value, OverflowMode mode)
{
    const FloatFormat &f = floatFormat(id);
    if (f.is_integer)
        return roundToInt8(value, 1.0);
    return roundBinary(f, value, mode);
}

Rounded roundToInt8(double value, double scale)
{
    const FloatFormat &f = floatFormat(FormatId::INT8);
    Rounded r{};
    if (std::isnan(value) || !(scale > 0.0) || !std::isfinite(scale)) {
        r.stored = kNaN;  // an integer has no NaN; nothing meaningful is stored
        return r;
    }
    const double steps = std::nearbyint(value / scale);  // ties to even
    const double clamped = std::clamp(steps, f.lowest, f.max);
    r.overflow = clamped != steps;
    r.stored = clamped * scale;
    r.bits = static_cast<std::uint32_t>(static_cast<std::uint8_t>(static_cast<std::int8_t>(clamped)));
    r.underflow_to_zero = value != 0.0 && clamped == 0.0;
    return r;
}

BitField bitField(const FloatFormat &format, int index)
{
    if (index == 0)
        return BitField::Sign;
    return index <= format.exponent_bits ? BitField::Exponent : BitField::Mantissa;
}

double decodeBits(FormatId id, std::uint32_t bits)
{
    const FloatFormat &f = floatFormat(id);
    if (f.is_integer)
        return static_cast<double>(static_cast<std::int8_t>(static_cast<std::uint8_t>(bits & 0xFFu)));
    const std::uint32_t mantissaMask = (std::uint32_t{1} << f.mantissa_bits) - 1u;
    const bool negative = ((bits >> (f.bits - 1)) & 1u) != 0;
    const std::uint32_t exponentField = (bits >> f.mantissa_bits) & exponentMask(f);
    const std::uint32_t mantissa = bits & mantissaMask;
    double magnitude = 0.0;
    if (exponentField == exponentMask(f) && f.special == SpecialValues::InfinityAndNaN)
        magnitude = mantissa == 0 ? kInf : kNaN;
    else if (exponentField == exponentMask(f) && mantissa == mantissaMask && f.special == SpecialValues::NaNOnly)
        magnitude = kNaN;
    else if (exponentField == 0)
        magnitude = std::ldexp(static_cast<double>(mantissa), f.min_exponent - f.mantissa_bits);
    else
        magnitude = std::ldexp(static_cast<double>(mantissa | (mantissaMask + 1u)),
                               static_cast<int>(exponentField) - f.bias - f.mantissa_bits);
    return negative ? -magnitude : magnitude;
}

std::string bitString(FormatId id, std::uint32_t bits)
{
    const FloatFormat &f = floatFormat(id);
    std::string text(static_cast<std::size_t>(f.bits), '0');
    for (int i = 0; i < f.bits; ++i)
        if ((bits >> (f.bits - 1 - i)) & 1u)
            text[static_cast<std::size_t>(i)] = '1';
    return text;
}

double absoluteError(double value, double stored)
{
    return std::abs(stored - value);
}

double relativeError(double value, double stored)
{
    if (value == 0.0)
        return stored == 0.0 ? 0.0 : kInf;
    return std::abs(stored - value) / std::abs(value);
}

}  // namespace lse::numbers
