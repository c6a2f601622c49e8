// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lse::cli {

void printOut(const QString &text);
// Flushes standard output and checks that everything printed reached it: `estimate --json >
// /dev/full` and a full disk under `search --json > file` once exited 0 with the output cut. Returns
// `status`, or kExitFailure with a message on stderr when a write failed (a command's own failure
// status is kept).
int finishStandardOutput(int status);
void printError(const QString &text);
void printJson(const QJsonObject &object);
// `object` with an "adjustments" array: what --model changed in the scenario, one sentence each
// (empty when nothing changed). Every command that reads the scenario flags reports it the same way.
QJsonObject withAdjustments(QJsonObject object, const std::vector<std::string> &adjustments);
// "field: message [rule]" lines on stderr, headed by what failed; returns kExitBadInput.
int reportProblems(const Problems &problems);

// Human-readable numbers: 1.23e9 -> "1.23 G", bytes in decimal GB as vendors state capacity.
QString formatCount(double value);
QString formatBytes(double bytes);
QString formatFlops(double flops);
// "2.476 TFLOP" without the exact figure beside it: for table cells, where the width matters.
QString formatFlopsShort(double flops);
// "616.6 TFLOP/s".
QString formatFlopRate(double flopsPerSecond);
QString formatSeconds(double seconds);
// "119.2 days"; from a million days on in e-notation ("2.130e+195 days").
QString formatDays(double days);

// Parses a count written as 4096, 15e12, 1.5T, 300B or 7M (K/M/B|G/T = 1e3/1e6/1e9/1e12);
// nothing if it is not a whole non-negative number.
std::optional<std::int64_t> parseCount(const QString &text);
// Decimal only (no hexadecimal, inf or nan) and finite.
std::optional<double> parseNumber(const QString &text);
// Why parseCount refused `text`, quoting it as typed: not a number, negative, a fraction or too large.
QString countRefusal(const QString &text);

// The most threads a --threads flag accepts: 4 × the logical cores. More only time-slice the same
// cores (a 2-core machine ran 600× slower with 1e9 requested), so a larger count is a typo.
int maxThreadsFlag();
// A problem naming --threads when `threads` exceeds maxThreadsFlag(), saying the cores and the limit.
std::optional<Problem> threadsFlagProblem(const QString &text, std::int64_t threads);

// The command line's bytes as the shell passed them. QCoreApplication::arguments() decodes them and
// turns bytes that are not UTF-8 into U+FFFD; a command that takes text as an argument reads the
// bytes instead, as it reads a file's. main() remembers argv once.
void rememberRawArguments(int argc, char **argv);
// The bytes of the argument that decodes to `argument` (its UTF-8 when none does).
QByteArray rawArgumentBytes(const QString &argument);

}  // namespace lse::cli
