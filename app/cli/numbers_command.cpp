// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli numbers`: the number formats' properties as core/numbers computes them from their
// definitions (--formats), and what each format stores for a value (--value): the rounded value, its
// bits and the rounding error (round to nearest even, overflow decided after rounding).

#include "commands.h"
#include "output.h"

#include "numbers/float_format.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonValue>

#include <cmath>
#include <optional>
#include <vector>

namespace lse::cli {

namespace {

using numbers::FloatFormat;
using numbers::FormatId;
using numbers::OverflowMode;
using numbers::Rounded;

// Properties that do not apply (INT8's subnormals and epsilon) are null.
QJsonValue propertyJson(double value)
{
    return std::isnan(value) ? QJsonValue(QJsonValue::Null) : QJsonValue(value);
}

// JSON has no infinities or NaN, so a stored value or an error that is one is the string the issue
// names ("inf", "-inf", "nan").
QJsonValue valueJson(double value)
{
    if (std::isnan(value))
        return QStringLiteral("nan");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return value;
}

QString valueText(double value)
{
    if (std::isnan(value))
        return QStringLiteral("n/a");
    return QString::number(value, 'g', 9);
}

QJsonObject formatJson(const FloatFormat &f)
{
    QJsonObject object;
    object["name"] = QString::fromStdString(f.name);
    object["bits"] = f.bits;
    object["exponent_bits"] = f.exponent_bits;
    object["mantissa_bits"] = f.mantissa_bits;
    object["bias"] = f.bias;
    object["has_infinity"] = f.has_infinity;
    object["is_integer"] = f.is_integer;
    object["max"] = f.max;
    object["lowest"] = f.lowest;
    object["min_normal"] = propertyJson(f.min_normal);
    object["min_subnormal"] = propertyJson(f.min_subnormal);
    object["epsilon"] = propertyJson(f.epsilon);
    object["decimal_digits"] = propertyJson(f.decimal_digits);
    return object;
}

struct FormatResult {
    const FloatFormat *format;
    Rounded rounded;
    double abs_error;
    double rel_error;
};

QJsonObject resultJson(const FormatResult &result)
{
    QJsonObject object;
    object["format"] = QString::fromStdString(result.format->name);
    object["stored"] = valueJson(result.rounded.stored);
    object["bits"] = QString::fromStdString(numbers::bitString(result.format->id, result.rounded.bits));
    object["abs_error"] = valueJson(result.abs_error);
    object["rel_error"] = valueJson(result.rel_error);
    object["overflow"] = result.rounded.overflow;
    object["underflow_to_zero"] = result.rounded.underflow_to_zero;
    object["subnormal"] = result.rounded.subnormal;
    return object;
}

QString formatsTable(const std::vector<const FloatFormat *> &formats)
{
    QString text = QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9\n")
                       .arg("format", -9).arg("bits", 4).arg("exp", 3).arg("man", 3).arg("max", 15)
                       .arg("min normal", 15).arg("min subnormal", 15).arg("epsilon", 15).arg("digits", 6);
    for (const FloatFormat *f : formats)
        text += QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9\n")
                    .arg(QString::fromStdString(f->name), -9).arg(f->bits, 4).arg(f->exponent_bits, 3)
                    .arg(f->mantissa_bits, 3).arg(valueText(f->max), 15).arg(valueText(f->min_normal), 15)
                    .arg(valueText(f->min_subnormal), 15).arg(valueText(f->epsilon), 15)
                    .arg(std::isnan(f->decimal_digits) ? QStringLiteral("n/a") : QString::number(f->decimal_digits, 'f', 2), 6);
    return text;
}

QString resultsTable(double value, const std::vector<FormatResult> &results)
{
    QString text = QStringLiteral("value %1\n").arg(value, 0, 'g', 17);
    text += QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                .arg("format", -9).arg("stored", 17).arg("bits", -34).arg("abs error", 11).arg("rel error", 11)
                .arg("flags");
    for (const FormatResult &r : results) {
        QStringList flags;
        if (r.rounded.overflow)
            flags << QStringLiteral("overflow");
        if (r.rounded.underflow_to_zero)
            flags << QStringLiteral("underflow to zero");
        if (r.rounded.subnormal)
            flags << QStringLiteral("subnormal");
        text += QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                    .arg(QString::fromStdString(r.format->name), -9)
                    .arg(QString::number(r.rounded.stored, 'g', 9), 17)
                    .arg(QString::fromStdString(numbers::bitString(r.format->id, r.rounded.bits)), -34)
                    .arg(QString::number(r.abs_error, 'g', 3), 11).arg(QString::number(r.rel_error, 'g', 3), 11)
                    .arg(flags.join(QStringLiteral(", ")));
    }
    return text;
}

}  // namespace

int runNumbers(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Number formats computed from their definitions (IEEE 754-2019 §3.3, OCP OFP8 spec v1.0): largest finite\n"
        "value, smallest normal and subnormal, machine epsilon; and what each format stores for a value (round to\n"
        "nearest, ties to even, overflow decided after rounding: to inf, or NaN for fp8-e4m3), its bits and error."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    parser.addOption(help);
    parser.addOption(QCommandLineOption("formats", "List every format's properties."));
    parser.addOption(QCommandLineOption("value", "Round X to every format (or to --format's).", "X"));
    parser.addOption(QCommandLineOption(
        "format", QStringLiteral("Only this format: %1.").arg(QString::fromStdString(numbers::formatNames())), "F"));
    parser.addOption(QCommandLineOption(
        "saturate", "Overflow goes to ±max instead of ±inf (or NaN for fp8-e4m3): the OCP saturating conversion."));
    parser.addOption(QCommandLineOption(
        "json", "Print one JSON object: formats[] (name, bits, exponent_bits, mantissa_bits, max, min_normal, "
                "min_subnormal, epsilon; null where they do not apply) and/or value and results[] (format, stored, "
                "bits, abs_error, rel_error; \"inf\"/\"-inf\"/\"nan\" as strings)."));
    if (!parser.parse(QStringList{"numbers"} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli numbers --formats | --value X [--format F] [--saturate] [--json]\n")
                 + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString()
                                           + "'; options start with --"}});
    const bool listFormats = parser.isSet("formats");
    const bool roundValue = parser.isSet("value");
    if (!listFormats && !roundValue)
        return reportProblems({Problem{"--value", "required",
                                       "give --formats (the formats' properties) or --value X (what each format stores)",
                                       {"--formats"}}});

    Problems problems;
    std::vector<const FloatFormat *> formats;
    if (parser.isSet("format")) {
        const QString name = parser.value("format");
        if (const std::optional<FormatId> id = numbers::formatFromName(name.toLower().toStdString()))
            formats.push_back(&numbers::floatFormat(*id));
        else
            problems.push_back({"--format", "unknown",
                                QStringLiteral("--format '%1' is not a format; one of: %2")
                                    .arg(name, QString::fromStdString(numbers::formatNames())).toStdString()});
    } else {
        for (const FloatFormat &f : numbers::allFormats())
            formats.push_back(&f);
    }
    std::optional<double> value;
    if (roundValue) {
        value = parseNumber(parser.value("value"));
        if (!value)
            problems.push_back({"--value", "number",
                                QStringLiteral("--value '%1' is not a finite number (decimal, e.g. 0.1, -3.5e-6, 464)")
                                    .arg(parser.value("value")).toStdString()});
    } else if (parser.isSet("saturate")) {
        problems.push_back({"--saturate", "requires", "--saturate changes how --value X is rounded; give --value", {"--value"}});
    }
    if (!problems.empty())
        return reportProblems(problems);

    const OverflowMode mode = parser.isSet("saturate") ? OverflowMode::Saturate : OverflowMode::Standard;
    std::vector<FormatResult> results;
    if (value)
        for (const FloatFormat *f : formats) {
            const Rounded rounded = numbers::roundToFormat(f->id, *value, mode);
            results.push_back({f, rounded, numbers::absoluteError(*value, rounded.stored),
                               numbers::relativeError(*value, rounded.stored)});
        }

    if (parser.isSet("json")) {
        QJsonObject object;
        if (listFormats) {
            QJsonArray array;
            for (const FloatFormat *f : formats)
                array.append(formatJson(*f));
            object["formats"] = array;
        }
        if (value) {
            object["value"] = *value;
            object["overflow_mode"] = mode == OverflowMode::Saturate ? QStringLiteral("saturate") : QStringLiteral("standard");
            QJsonArray array;
            for (const FormatResult &r : results)
                array.append(resultJson(r));
            object["results"] = array;
        }
        printJson(object);
        return kExitOk;
    }
    QString text;
    if (listFormats)
        text += formatsTable(formats);
    if (value)
        text += (text.isEmpty() ? QString() : QStringLiteral("\n")) + resultsTable(*value, results);
    printOut(text);
    return kExitOk;
}

}  // namespace lse::cli
