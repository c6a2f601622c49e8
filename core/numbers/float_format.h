// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lse::numbers {

enum class FormatId { FP32, TF32, BF16, FP16, FP8_E4M3, FP8_E5M2, INT8 };

// How a format spends its all-ones exponent (IEEE 754-2019 §3.4; OCP 8-bit Floating Point Specification (OFP8) v1.0).
enum class SpecialValues {
    InfinityAndNaN,  // IEEE-like: exponent all ones = ±inf (mantissa 0) or NaN
    NaNOnly,         // OCP E4M3 ("fn"): no infinities, only S.1111.111 is NaN
    None,            // INT8: two's complement integers, no special values
};

// A number format, every property computed from (exponent_bits, mantissa_bits, bias, special values):
// nothing is typed in from a table. Properties that do not apply to an integer format are NaN.
struct FloatFormat {
    FormatId id;
    std::string name;  // "fp32", "tf32", "bf16", "fp16", "fp8-e4m3", "fp8-e5m2", "int8"
    int bits;          // storage bits (TF32: 19 = 1 + 8 + 10)
    int exponent_bits;
    int mantissa_bits;  // stored fraction bits (the leading 1 of a normal number is implicit)
    int bias;
    bool has_infinity;
    bool is_integer;
    SpecialValues special;
    int min_exponent;     // emin = 1 − bias (the exponent of the smallest normal)
    int max_exponent;     // emax: the exponent of the largest finite value
    double max;           // largest finite value
    double lowest;        // most negative finite value (−max; −128 for INT8)
    double min_normal;    // 2^emin; NaN for INT8
    double min_subnormal; // 2^(emin − m); NaN for INT8
    double epsilon;       // 2^−m, the gap between 1 and the next value; NaN for INT8
    double decimal_digits;  // (m + 1)·log10 2 significant decimal digits; NaN for INT8
};

const FloatFormat &floatFormat(FormatId id);
const std::vector<FloatFormat> &allFormats();
std::optional<FormatId> formatFromName(std::string_view name);
// The names formatFromName accepts, comma-separated, for error messages.
std::string formatNames();

// Standard: overflow goes to ±inf, or to NaN for E4M3 (the OCP non-saturating conversion).
// Saturate: overflow (and an infinite input) goes to ±max (the OCP OFP8 saturating conversion).
enum class OverflowMode { Standard, Saturate };

struct Rounded {
    double stored;       // the value the format holds (±inf, NaN possible)
    std::uint32_t bits;  // its bit pattern, in the low `bits` bits
    bool overflow;       // the rounded magnitude exceeded max (also: inf into a format without inf)
    bool underflow_to_zero;  // a non-zero value became zero
    bool subnormal;          // stored is non-zero and below min_normal
};

// Round to nearest, ties to even; subnormals; overflow decided after rounding with an unbounded
// exponent (IEEE 754-2019 §4.3.1 and §7.4; OCP OFP8 v1.0: E4M3 464 is a tie → 448, 480 → NaN).
// NaN in → NaN. INT8 is roundToInt8(value, 1).
Rounded roundToFormat(FormatId id, double value, OverflowMode mode = OverflowMode::Standard);
// Symmetric integer quantisation q = clamp(round_half_even(value / scale), −128, 127), stored = q·scale.
Rounded roundToInt8(double value, double scale);

// Which field bit `index` belongs to, counting from the most significant (sign) bit = 0. INT8's bits
// after the sign are Mantissa (the two's complement value bits).
enum class BitField { Sign, Exponent, Mantissa };
BitField bitField(const FloatFormat &format, int index);

// The value of a bit pattern of the format (the inverse of roundToFormat's bits).
double decodeBits(FormatId id, std::uint32_t bits);
// The pattern as a string of 0/1, most significant (sign) bit first, `bits` characters.
std::string bitString(FormatId id, std::uint32_t bits);

// |stored − value|: inf when a finite value became inf; NaN when either is NaN or both are inf.
double absoluteError(double value, double stored);
// |stored − value| / |value|; 0 when both are 0, inf when only value is 0.
double relativeError(double value, double stored);

}  // namespace lse::numbers
