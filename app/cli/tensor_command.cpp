// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli tensor`: a strided tensor and a chain of ops (transpose, view, reshape, …) applied to
// it with PyTorch's semantics (core/tensors). After each op: shape, strides, offset, contiguity, whether
// it still shares the original storage and whether it copied.
//
// Exit status: an op that is impossible on the tensor it meets (view over dimensions that cannot be
// merged, a dim out of range) is an answer, not bad input: it becomes the last step, with `error`, and
// the exit status is 0. Flags that cannot be read — a malformed shape, strides or offset, or an --op
// that cannot be parsed at all (unknown name, a non-integer or the wrong number of arguments) — exit 2
// naming the flag.

#include "commands.h"
#include "output.h"

#include "tensors/tensor_chain.h"

#include <QCommandLineParser>
#include <QJsonArray>

namespace lse::cli {

namespace {

using tensors::Sizes;

// "2,3,4" → {2, 3, 4}; a problem naming `flag` when an entry is not an integer of at least `minimum`.
std::optional<Sizes> integerList(const QString &flag, const QString &text, std::int64_t minimum, Problems &problems)
{
    Sizes values;
    const QStringList parts = text.split(QLatin1Char(','));
    for (const QString &part : parts) {
        bool ok = false;
        const qlonglong value = part.trimmed().toLongLong(&ok);
        if (!ok || value < minimum) {
            problems.push_back({("--" + flag).toStdString(), "integers",
                                QStringLiteral("--%1 '%2': '%3' is not an integer ≥ %4 (write e.g. 2,3,4)")
                                    .arg(flag, text, part.trimmed())
                                    .arg(minimum)
                                    .toStdString()});
            return std::nullopt;
        }
        values.push_back(value);
    }
    return values;
}

QJsonValue sizesJson(const std::optional<tensors::TensorView> &view, bool strides)
{
    if (!view)
        return QJsonValue::Null;
    QJsonArray array;
    for (std::int64_t value : strides ? view->strides : view->shape)
        array.append(static_cast<double>(value));
    return array;
}

QJsonObject viewJson(const std::optional<tensors::TensorView> &view)
{
    QJsonObject object;
    object["shape"] = sizesJson(view, false);
    object["strides"] = sizesJson(view, true);
    object["offset"] = view ? QJsonValue(static_cast<double>(view->offset)) : QJsonValue::Null;
    object["contiguous"] = view ? QJsonValue(view->isContiguous()) : QJsonValue::Null;
    return object;
}

QJsonObject stepJson(const tensors::ChainStep &step)
{
    QJsonObject object = viewJson(step.view);
    object["op"] = QString::fromStdString(step.op);
    object["shares_storage"] = step.ok() ? QJsonValue(step.shares_storage) : QJsonValue::Null;
    object["copied"] = step.copied;
    object["bytes_read"] = static_cast<double>(step.copy_bytes_read);
    object["bytes_written"] = static_cast<double>(step.copy_bytes_written);
    object["error"] = step.ok() ? QJsonValue::Null : QJsonValue(QString::fromStdString(step.error));
    return object;
}

QString viewLine(const tensors::TensorView &view)
{
    return QStringLiteral("shape %1  strides %2  offset %3  %4")
        .arg(QString::fromStdString(tensors::sizesText(view.shape)), QString::fromStdString(tensors::sizesText(view.strides)))
        .arg(view.offset)
        .arg(view.isContiguous() ? QStringLiteral("contiguous") : QStringLiteral("not contiguous"));
}

QString stepLine(int number, const tensors::ChainStep &step)
{
    QString line = QStringLiteral("%1. %2  ").arg(number).arg(QString::fromStdString(step.op));
    if (!step.ok())
        return line + QStringLiteral("error: %1\n").arg(QString::fromStdString(step.error));
    line += viewLine(*step.view);
    line += step.shares_storage ? QStringLiteral("  shares storage") : QStringLiteral("  new storage");
    if (step.copied)
        line += QStringLiteral("  copied (%1 read, %2 written)")
                    .arg(formatBytes(static_cast<double>(step.copy_bytes_read)),
                         formatBytes(static_cast<double>(step.copy_bytes_written)));
    return line + QLatin1Char('\n');
}

}  // namespace

int runTensor(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "A strided tensor and a chain of ops with PyTorch's semantics: after each op its shape, strides (in\n"
        "elements), storage offset, whether it is contiguous, shares the original storage, or copied.\n"
        "Ops: transpose(a,b) permute(...) narrow(dim,start,len) slice(dim,start[,stop[,step]]) expand(...)\n"
        "unsqueeze(d) squeeze([d]) view(...) reshape(...) flatten([start[,end]]) contiguous() t() .T\n"
        "An op that is impossible on its input (e.g. view over dimensions that cannot be merged) ends the\n"
        "chain as a step with an error, exit status 0; an op that cannot be parsed is a flag error (exit 2)."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    parser.addOption(help);
    parser.addOption(QCommandLineOption("shape", "Sizes, comma-separated (e.g. 2,3,4).", "SIZES"));
    parser.addOption(QCommandLineOption("strides", "Strides in elements, one per dimension (default: contiguous).", "STRIDES"));
    parser.addOption(QCommandLineOption("offset", "Storage offset in elements (default 0).", "N", "0"));
    parser.addOption(QCommandLineOption("op", "An op, e.g. 'transpose(0,1)'; repeat for a chain.", "OP"));
    parser.addOption(QCommandLineOption("dtype-bytes", "Bytes per element for a copy's traffic (default 4).", "BYTES", "4"));
    parser.addOption(QCommandLineOption(
        "json", "Print one JSON object: start{shape,strides,offset,contiguous,storage_elements} and steps[] with op, shape, "
                "strides, offset, contiguous, shares_storage, copied, bytes_read, bytes_written, error (null or why)."));
    if (!parser.parse(QStringList{"tensor"} + arguments))
        return reportProblems({Problem{"arguments", "syntax", parser.errorText().toStdString()}});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli tensor --shape 2,3,4 [--strides ...] [--offset N] --op OP ... "
                                "[--dtype-bytes 4] [--json]\n")
                 + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({Problem{"arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString()
                                           + "'; options start with --"}});
    Problems problems;
    if (!parser.isSet("shape"))
        problems.push_back({"--shape", "required", "--shape is required, e.g. --shape 2,3,4"});
    std::optional<Sizes> shape, strides;
    if (parser.isSet("shape"))
        shape = integerList("shape", parser.value("shape"), 0, problems);
    if (parser.isSet("strides"))
        strides = integerList("strides", parser.value("strides"), 0, problems);
    const std::optional<std::int64_t> offset = parseCount(parser.value("offset"));
    if (!offset)
        problems.push_back({"--offset", "count", "--offset: " + countRefusal(parser.value("offset")).toStdString()});
    const std::optional<std::int64_t> dtype_bytes = parseCount(parser.value("dtype-bytes"));
    if (!dtype_bytes || *dtype_bytes < 1 || *dtype_bytes > 64)
        problems.push_back({"--dtype-bytes", "range",
                            "--dtype-bytes '" + parser.value("dtype-bytes").toStdString()
                                + "' must be a whole number of bytes from 1 to 64"});
    std::vector<tensors::TensorOp> ops;
    for (const QString &text : parser.values("op")) {
        const Result<tensors::TensorOp> op = tensors::parseTensorOp(text.toStdString());
        if (!op)
            problems.push_back({"--op", op.problems().front().rule, "--op: " + op.problems().front().message});
        else
            ops.push_back(*op);
    }
    if (!problems.empty())
        return reportProblems(problems);
    const Result<tensors::TensorView> start = tensors::makeView(*shape, strides.value_or(Sizes{}), *offset);
    if (!start) {
        Problems named = start.problems();
        for (Problem &problem : named)
            problem.field = "--" + problem.field;
        return reportProblems(named);
    }

    const tensors::TensorChain chain = tensors::runTensorChain(*start, ops, *dtype_bytes);
    if (parser.isSet("json")) {
        QJsonObject start_json = viewJson(*start);
        start_json["storage_elements"] = static_cast<double>(start->storage_size);
        QJsonArray steps;
        for (const tensors::ChainStep &step : chain.steps)
            steps.append(stepJson(step));
        QJsonObject object;
        object["start"] = start_json;
        object["dtype_bytes"] = static_cast<double>(*dtype_bytes);
        object["steps"] = steps;
        printJson(object);
        return kExitOk;
    }
    QString text = QStringLiteral("start  %1  (storage of %2 elements)\n")
                       .arg(viewLine(*start))
                       .arg(start->storage_size);
    for (std::size_t i = 0; i < chain.steps.size(); ++i)
        text += stepLine(static_cast<int>(i) + 1, chain.steps[i]);
    printOut(text);
    return kExitOk;
}

}  // namespace lse::cli
