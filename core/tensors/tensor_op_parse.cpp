// SPDX-License-Identifier: GPL-3.0-or-later
// Reading an op as the user types it: the table of names and argument counts, and the text form.
#include "tensors/tensor_op.h"

#include <algorithm>
#include <charconv>
#include <limits>

namespace lse::tensors {

namespace {

constexpr int kVariadic = std::numeric_limits<int>::max();

struct OpSpec {
    const char *name;
    OpKind kind;
    int min_args;
    int max_args;
    const char *signature;
};

const std::vector<OpSpec> &opSpecs()
{
    static const std::vector<OpSpec> specs = {
        {"transpose", OpKind::Transpose, 2, 2, "transpose(dim0, dim1)"},
        {"permute", OpKind::Permute, 0, kVariadic, "permute(d0, d1, ...)"},
        {"narrow", OpKind::Narrow, 3, 3, "narrow(dim, start, length)"},
        {"slice", OpKind::Slice, 2, 4, "slice(dim, start[, stop[, step]])"},
        {"expand", OpKind::Expand, 0, kVariadic, "expand(s0, s1, ...)  (-1 keeps a size)"},
        {"unsqueeze", OpKind::Unsqueeze, 1, 1, "unsqueeze(dim)"},
        {"squeeze", OpKind::Squeeze, 0, 1, "squeeze([dim])"},
        {"view", OpKind::View, 0, kVariadic, "view(s0, s1, ...)  (-1 infers one size)"},
        {"reshape", OpKind::Reshape, 0, kVariadic, "reshape(s0, s1, ...)  (-1 infers one size)"},
        {"flatten", OpKind::Flatten, 0, 2, "flatten([start_dim[, end_dim]])"},
        {"contiguous", OpKind::Contiguous, 0, 0, "contiguous()"},
        {"t", OpKind::T, 0, 0, "t()"},
        {".T", OpKind::ReverseDims, 0, 0, ".T"},
    };
    return specs;
}

const OpSpec *specNamed(const std::string &name)
{
    for (const OpSpec &spec : opSpecs())
        if (name == spec.name)
            return &spec;
    return nullptr;
}

const OpSpec &specOf(OpKind kind)
{
    for (const OpSpec &spec : opSpecs())
        if (spec.kind == kind)
            return spec;
    return opSpecs().front();
}

std::string trimmed(const std::string &text)
{
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::string argumentCount(int count)
{
    return std::to_string(count) + (count == 1 ? " argument" : " arguments");
}

std::string allNames()
{
    std::string names;
    for (const OpSpec &spec : opSpecs())
        names += (names.empty() ? "" : ", ") + std::string(spec.name);
    return names;
}

}  // namespace

std::string TensorOp::text() const
{
    const OpSpec &spec = specOf(kind);
    if (kind == OpKind::ReverseDims)
        return spec.name;
    std::string text = std::string(spec.name) + "(";
    for (std::size_t i = 0; i < args.size(); ++i)
        text += (i ? ", " : "") + std::to_string(args[i]);
    return text + ")";
}

const std::vector<std::string> &tensorOpNames()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> list;
        for (const OpSpec &spec : opSpecs())
            list.push_back(spec.name);
        return list;
    }();
    return names;
}

std::string tensorOpSignature(const std::string &name)
{
    const OpSpec *spec = specNamed(name);
    return spec ? spec->signature : std::string();
}

Result<TensorOp> parseTensorOp(const std::string &raw)
{
    std::string text = trimmed(raw);
    if (text == ".T" || text == "T")
        return TensorOp{OpKind::ReverseDims, {}};
    if (!text.empty() && text.front() == '.')
        text = trimmed(text.substr(1));
    const auto open = text.find('(');
    if (text.empty())
        return Result<TensorOp>::failure("op", "empty", "the op is empty; write e.g. transpose(0,1) (ops: " + allNames() + ")");
    if (open == std::string::npos || text.back() != ')')
        return Result<TensorOp>::failure("op", "syntax", "op '" + raw + "' must look like name(arguments), e.g. view(6,4), or be .T");
    const std::string name = trimmed(text.substr(0, open));
    const OpSpec *spec = specNamed(name);
    if (!spec || spec->kind == OpKind::ReverseDims)
        return Result<TensorOp>::failure("op", "unknown", "op '" + raw + "': unknown operation '" + name + "' (ops: "
                                                              + allNames() + ")");
    const std::string inside = text.substr(open + 1, text.size() - open - 2);
    TensorOp op{spec->kind, {}};
    if (!trimmed(inside).empty()) {
        std::size_t start = 0;
        while (true) {
            const auto comma = inside.find(',', start);
            const std::string argument = trimmed(inside.substr(start, comma == std::string::npos ? std::string::npos
                                                                                                : comma - start));
            std::int64_t value = 0;
            const char *first = argument.data();
            if (!argument.empty() && argument.front() == '+')
                ++first;
            const auto [end, error] = std::from_chars(first, argument.data() + argument.size(), value);
            if (argument.empty() || error != std::errc() || end != argument.data() + argument.size())
                return Result<TensorOp>::failure(
                    "op", "integer",
                    "op '" + raw + "': argument " + std::to_string(op.args.size() + 1) + " of " + name + " ('" + argument
                        + "') is not an integer; usage: " + spec->signature);
            op.args.push_back(value);
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
    }
    const int count = static_cast<int>(op.args.size());
    if (count < spec->min_args || count > spec->max_args) {
        const std::string expected = spec->min_args == spec->max_args
            ? argumentCount(spec->min_args)
            : std::to_string(spec->min_args) + " to " + argumentCount(spec->max_args);
        return Result<TensorOp>::failure("op", "arguments",
                                         "op '" + raw + "': " + name + " takes " + expected + ", got " + std::to_string(count)
                                             + "; usage: " + spec->signature);
    }
    return op;
}

}  // namespace lse::tensors
