// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/checkpoint_check.h"

#include "reference/model.h"

#include <cmath>
#include <cstring>
#include <string_view>
#include <unordered_map>

namespace lse::reference {

namespace {

// A corrupt checkpoint of a 1024-layer model could otherwise print thousands of lines.
constexpr std::size_t kMaxListedProblems = 8;

std::string shapeText(const std::vector<std::int64_t> &shape)
{
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + "]";
}

template <typename Float>
bool bytesAllFinite(const std::vector<unsigned char> &bytes)
{
    for (std::size_t at = 0; at + sizeof(Float) <= bytes.size(); at += sizeof(Float)) {
        Float value;
        std::memcpy(&value, bytes.data() + at, sizeof(Float));  // unaligned little-endian element
        if (!std::isfinite(value))
            return false;
    }
    return true;
}

}  // namespace

bool allFinite(const SafeTensor &tensor)
{
    if (tensor.dtype == "F32")
        return bytesAllFinite<float>(tensor.bytes);
    if (tensor.dtype == "F64")
        return bytesAllFinite<double>(tensor.bytes);
    return true;
}

bool allFinite(const float *data, std::int64_t count)
{
    for (std::int64_t i = 0; i < count; ++i)
        if (!std::isfinite(data[i]))
            return false;
    return true;
}

Problems checkCheckpointTensors(const SafetensorsFile &checkpoint, const ModelConfig &model, bool optimizer_moments,
                                const std::string &where)
{
    Problems problems;
    std::size_t unlisted = 0;
    auto add = [&](std::string rule, std::string message) {
        if (problems.size() < kMaxListedProblems)
            problems.push_back({where, std::move(rule), where + ": " + std::move(message)});
        else
            ++unlisted;
    };
    // SafetensorsFile::find is a linear search; a model of 1024 layers has thousands of tensors.
    std::unordered_map<std::string_view, const SafeTensor *> byName;
    for (const SafeTensor &tensor : checkpoint.tensors)
        byName.emplace(tensor.name, &tensor);
    auto check = [&](const std::string &name, const std::vector<std::int64_t> &shape) {
        const auto found = byName.find(name);
        const SafeTensor *tensor = found == byName.end() ? nullptr : found->second;
        if (!tensor)
            add("missing", "tensor " + name + " is missing (its config implies it).");
        else if (tensor->dtype != "F32" || tensor->shape != shape)
            add("shape", "tensor " + name + " is " + tensor->dtype + " " + shapeText(tensor->shape) + " but its config implies F32 " +
                             shapeText(shape) + ".");
        else if (!allFinite(*tensor))
            add("non-finite", "tensor " + name + " holds NaN or infinite values (a diverged run); it cannot be used.");
    };
    for (const ParameterShape &parameter : referenceParameterShapes(model)) {
        check(parameter.name, parameter.shape);
        if (optimizer_moments) {
            check("optimizer.m." + parameter.name, parameter.shape);
            check("optimizer.v." + parameter.name, parameter.shape);
        }
    }
    if (unlisted > 0)
        problems.push_back({where, "more", where + ": and " + std::to_string(unlisted) + " more tensor problems."});
    return problems;
}

}  // namespace lse::reference
