// SPDX-License-Identifier: GPL-3.0-or-later
#include "output.h"
#include "output_capture.h"

#include <QJsonArray>

#include "commands.h"

#include "common/number_text.h"

#include <QJsonDocument>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cmath>
#include <cstdio>
#include <thread>

namespace lse::cli {

namespace {

int g_stdout_error = 0;  // errno of the first failed write to standard output
thread_local CapturedRun *g_capture = nullptr;  // runCaptured's result while it runs on this thread

}  // namespace

CapturedRun runCaptured(const std::function<int(const QStringList &)> &command, const QStringList &arguments)
{
    CapturedRun run;
    CapturedRun *const outer = g_capture;
    g_capture = &run;
    try {
        run.exit_status = command(arguments);
    } catch (...) {
        g_capture = outer;
        throw;
    }
    g_capture = outer;
    return run;
}

void printOut(const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    if (g_capture) {
        g_capture->out += bytes;
        return;
    }
    if (std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout) != std::size_t(bytes.size()) &&
        g_stdout_error == 0)
        g_stdout_error = errno != 0 ? errno : EIO;
}

int finishStandardOutput(int status)
{
    errno = 0;
    if (std::fflush(stdout) != 0 && g_stdout_error == 0)
        g_stdout_error = errno != 0 ? errno : EIO;
    if (std::ferror(stdout) && g_stdout_error == 0)
        g_stdout_error = EIO;
    if (g_stdout_error == 0)
        return status;
    printError(QStringLiteral("llm-explorer-cli: error: cannot write to standard output (%1); the output is incomplete.\n")
                   .arg(QString::fromLocal8Bit(std::strerror(g_stdout_error))));
    return status == kExitOk ? kExitFailure : status;
}

void printError(const QString &text)
{
    if (g_capture) {
        g_capture->err += text;
        return;
    }
    std::fputs(text.toUtf8().constData(), stderr);
}

QJsonObject withAdjustments(QJsonObject object, const std::vector<std::string> &adjustments)
{
    QJsonArray changes;
    for (const std::string &adjustment : adjustments)
        changes.append(QString::fromStdString(adjustment));
    object.insert(QStringLiteral("adjustments"), changes);
    return object;
}

void printJson(const QJsonObject &object)
{
    printOut(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented)));
}

int reportProblems(const Problems &problems)
{
    if (g_capture)
        g_capture->problems.insert(g_capture->problems.end(), problems.begin(), problems.end());
    printError(QStringLiteral("error: %1 problem%2 with the input:\n")
                   .arg(problems.size())
                   .arg(problems.size() == 1 ? "" : "s"));
    printError(QString::fromStdString(formatProblems(problems)));
    return kExitBadInput;
}

namespace {

QString withPrefix(double value, const char *unit, double base)
{
    static const char *const prefixes[] = {"", "k", "M", "G", "T", "P", "E", "Z", "Y"};
    if (value == 0)
        return QStringLiteral("0 %1").arg(unit);
    int index = 0;
    double scaled = value;
    while (std::fabs(scaled) >= base && index < 8) {
        scaled /= base;
        ++index;
    }
    // Past the last prefix (1e27 Y and up) fixed notation would print hundreds of digits.
    if (std::fabs(scaled) >= base)
        return QStringLiteral("%1 %2").arg(value, 0, 'e', 3).arg(unit);
    const int decimals = std::fabs(scaled) >= 100 ? 1 : std::fabs(scaled) >= 10 ? 2 : 3;
    return QStringLiteral("%1 %2%3").arg(scaled, 0, 'f', decimals).arg(prefixes[index]).arg(unit);
}

}  // namespace

QString formatCount(double value) { return withPrefix(value, "", 1000).trimmed(); }
QString formatBytes(double bytes) { return withPrefix(bytes, "B", 1000); }
QString formatFlops(double flops) { return QStringLiteral("%1 (%2)").arg(withPrefix(flops, "FLOP", 1000)).arg(flops, 0, 'e', 3); }
QString formatFlopsShort(double flops) { return withPrefix(flops, "FLOP", 1000); }
QString formatFlopRate(double flopsPerSecond) { return withPrefix(flopsPerSecond, "FLOP/s", 1000); }

QString formatSeconds(double seconds)
{
    if (seconds < 1e-3)
        return QStringLiteral("%1 µs").arg(seconds * 1e6, 0, 'f', 1);
    if (seconds < 1)
        return QStringLiteral("%1 ms").arg(seconds * 1e3, 0, 'f', 2);
    if (seconds < 3600)
        return QStringLiteral("%1 s").arg(seconds, 0, 'f', 2);
    if (seconds < 86400 * 2)
        return QStringLiteral("%1 h").arg(seconds / 3600, 0, 'f', 2);
    return formatDays(seconds / 86400);
}

QString formatDays(double days)
{
    // Beyond a million days fixed notation prints a wall of digits nobody reads (--mfu 1e-200 printed 200).
    if (days < 1e6)
        return QStringLiteral("%1 days").arg(days, 0, 'f', 1);
    return QStringLiteral("%1 days").arg(days, 0, 'e', 3);
}

std::optional<double> parseNumber(const QString &text) { return parseNumberText(text.toStdString()); }

std::optional<std::int64_t> parseCount(const QString &text) { return parseCountText(text.toStdString()); }

QString countRefusal(const QString &text)
{
    const std::optional<double> value = parseNumber(text);
    if (!value)
        return QStringLiteral("'%1' is not a whole number (decimal only; examples: 8, 4096, 15e12, 300B)").arg(text);
    if (*value < 0)
        return QStringLiteral("'%1' is negative; it must be a whole number of at least 0").arg(text);
    if (std::floor(*value) != *value)
        return QStringLiteral("'%1' is not a whole number").arg(text);
    return QStringLiteral("'%1' is %2, larger than any count this tool takes").arg(text).arg(*value, 0, 'g', 3);
}

int maxThreadsFlag() { return 4 * int(std::max(1u, std::thread::hardware_concurrency())); }

std::optional<Problem> threadsFlagProblem(const QString &text, std::int64_t threads)
{
    if (threads <= maxThreadsFlag())
        return std::nullopt;
    return Problem{"--threads", "maximum",
                   QStringLiteral("--threads '%1' is more than %2, 4 × this machine's %3 logical cores; more threads "
                                  "than that only share the same cores and slow the run down")
                       .arg(text)
                       .arg(maxThreadsFlag())
                       .arg(std::max(1u, std::thread::hardware_concurrency()))
                       .toStdString()};
}

namespace {

std::vector<QByteArray> &rawArguments()
{
    static std::vector<QByteArray> arguments;
    return arguments;
}

}  // namespace

void rememberRawArguments(int argc, char **argv)
{
    rawArguments().assign(argv, argv + argc);
}

QByteArray rawArgumentBytes(const QString &argument)
{
    // The last argument that decodes to `argument`: QCoreApplication decoded the same argv.
    const std::vector<QByteArray> &raw = rawArguments();
    for (auto it = raw.rbegin(); it != raw.rend(); ++it)
        if (QString::fromLocal8Bit(*it) == argument)
            return *it;
    return argument.toUtf8();
}

}  // namespace lse::cli
