// SPDX-License-Identifier: GPL-3.0-or-later
#include "hardware/machine_kernel_factors.h"

#include "common/file_bytes.h"
#include "common/file_writer.h"
#include "common/json_fields.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <utility>

namespace lse {

namespace {

constexpr const char *kCacheFormat = "llm-explorer-machine-kernels";
// 2: the Aᵀ·B table and the attention kernels' tables replaced the one-thread product table.
// 3: the decode attention table (generation's attention over the KV cache) and the one-row product's
//    bandwidth (a batch-1 decode step's weight products).
constexpr int kCacheVersion = 3;

QJsonArray numbers(const std::vector<double> &values)
{
    QJsonArray array;
    for (double v : values)
        array.append(v);
    return array;
}

// A list of positive numbers under `key`; a problem names the key when it is not one.
void readNumbers(const QJsonObject &object, const char *key, std::vector<double> &target, Problems &problems)
{
    const QJsonValue value = object.value(QLatin1String(key));
    if (!value.isArray()) {
        problems.push_back({std::string("kernels.") + key, "type", std::string("kernels.") + key + " must be a list of numbers"});
        return;
    }
    target.clear();
    for (const QJsonValue &v : value.toArray())
        target.push_back(v.isDouble() ? v.toDouble() : -1);
}

bool allPositive(const std::vector<double> &values)
{
    for (double v : values)
        if (!(v > 0) || !std::isfinite(v))
            return false;
    return !values.empty();
}

// The attention kernels' tables by their JSON key.
template <typename Factors>
auto attentionTables(Factors &f)
{
    using Table = std::conditional_t<std::is_const_v<Factors>, const std::vector<double>, std::vector<double>>;
    return std::array<std::pair<const char *, Table *>, 4>{{
        {"attention_scores_forward_flops_per_second", &f.attention_scores_forward_flops_per_second},
        {"attention_values_forward_flops_per_second", &f.attention_values_forward_flops_per_second},
        {"attention_scores_backward_flops_per_second", &f.attention_scores_backward_flops_per_second},
        {"attention_values_backward_flops_per_second", &f.attention_values_backward_flops_per_second},
    }};
}

QDateTime parseTime(const std::string &iso) { return QDateTime::fromString(QString::fromStdString(iso), Qt::ISODate); }

}  // namespace

Problems validateCpuKernelFactors(const CpuKernelFactors &f)
{
    Problems problems;
    const auto bad = [&problems](const std::string &key, const std::string &rule) {
        problems.push_back({"kernels." + key, rule, "kernels." + key + ": " + (rule == "size" ? "the table has the wrong size" : "must hold positive numbers")});
    };
    const std::size_t s = f.gemm_axis.size();
    if (!allPositive(f.gemm_axis))
        bad("gemm_axis", "range");
    if (!allPositive(f.gemm_flops_per_second))
        bad("gemm_flops_per_second", "range");
    else if (f.gemm_flops_per_second.size() != s * s * s)
        bad("gemm_flops_per_second", "size");
    if (!allPositive(f.gemm_weight_gradient_flops_per_second))
        bad("gemm_weight_gradient_flops_per_second", "range");
    else if (f.gemm_weight_gradient_flops_per_second.size() != s * s * s)
        bad("gemm_weight_gradient_flops_per_second", "size");
    if (!allPositive(f.attention_seq_axis))
        bad("attention_seq_axis", "range");
    if (!allPositive(f.attention_head_dim_axis))
        bad("attention_head_dim_axis", "range");
    const std::size_t attentionCells = f.attention_seq_axis.size() * f.attention_head_dim_axis.size();
    for (const auto &[key, table] : attentionTables(f)) {
        if (!allPositive(*table))
            bad(key, "range");
        else if (table->size() != attentionCells)
            bad(key, "size");
    }
    if (!f.attention_tiled_forward_flops_per_second.empty()) {  // optional: see the header
        if (!allPositive(f.attention_tiled_forward_flops_per_second))
            bad("attention_tiled_forward_flops_per_second", "range");
        else if (f.attention_tiled_forward_flops_per_second.size() != attentionCells)
            bad("attention_tiled_forward_flops_per_second", "size");
    }
    if (!allPositive(f.decode_attention_keys_axis))
        bad("decode_attention_keys_axis", "range");
    if (!allPositive(f.decode_attention_flops_per_second))
        bad("decode_attention_flops_per_second", "range");
    else if (f.decode_attention_flops_per_second.size() != f.decode_attention_keys_axis.size() * f.attention_head_dim_axis.size())
        bad("decode_attention_flops_per_second", "size");
    if (!allPositive(f.stream_working_set_bytes))
        bad("stream_working_set_bytes", "range");
    if (!allPositive(f.stream_bytes_per_second))
        bad("stream_bytes_per_second", "range");
    else if (f.stream_bytes_per_second.size() != f.stream_working_set_bytes.size())
        bad("stream_bytes_per_second", "size");
    if (!allPositive(f.gemv_bytes_per_second))
        bad("gemv_bytes_per_second", "range");
    else if (f.gemv_bytes_per_second.size() != f.stream_working_set_bytes.size())
        bad("gemv_bytes_per_second", "size");
    if (!f.blocked_vector_rows_axis.empty() || !f.blocked_vector_bytes_per_second.empty()) {  // optional
        if (!allPositive(f.blocked_vector_rows_axis))
            bad("blocked_vector_rows_axis", "range");
        else if (!allPositive(f.blocked_vector_bytes_per_second))
            bad("blocked_vector_bytes_per_second", "range");
        else if (f.blocked_vector_bytes_per_second.size() != f.blocked_vector_rows_axis.size())
            bad("blocked_vector_bytes_per_second", "size");
        else if (!(f.blocked_vector_working_set_bytes > 0))
            bad("blocked_vector_working_set_bytes", "range");
    }
    if (f.elementwise_kernels.size() != f.elementwise_kernel_flops_per_second.size())
        bad("elementwise_kernel_flops_per_second", "size");
    else if (!f.elementwise_kernels.empty() && !allPositive(f.elementwise_kernel_flops_per_second))
        bad("elementwise_kernel_flops_per_second", "range");
    if (!(f.elementwise_flops_per_second > 0))
        bad("elementwise_flops_per_second", "range");
    if (!(f.call_overhead_seconds >= 0) || !(f.barrier_seconds >= 0))
        bad("call_overhead_seconds", "range");
    if (!(f.cpu_share > 0 && f.cpu_share <= 1))
        problems.push_back({"kernels.cpu_share", "range", "kernels.cpu_share must be in (0, 1]"});
    if (f.threads < 1)
        problems.push_back({"kernels.threads", "range", "kernels.threads must be at least 1"});
    return problems;
}

QJsonObject cpuKernelFactorsToJson(const CpuKernelFactors &f)
{
    QJsonObject o;
    o.insert("threads", f.threads);
    o.insert("gemm_axis", numbers(f.gemm_axis));
    o.insert("gemm_flops_per_second", numbers(f.gemm_flops_per_second));
    o.insert("gemm_weight_gradient_flops_per_second", numbers(f.gemm_weight_gradient_flops_per_second));
    o.insert("attention_seq_axis", numbers(f.attention_seq_axis));
    o.insert("attention_head_dim_axis", numbers(f.attention_head_dim_axis));
    for (const auto &[key, table] : attentionTables(f))
        o.insert(QLatin1String(key), numbers(*table));
    if (!f.attention_tiled_forward_flops_per_second.empty())
        o.insert("attention_tiled_forward_flops_per_second", numbers(f.attention_tiled_forward_flops_per_second));
    o.insert("decode_attention_keys_axis", numbers(f.decode_attention_keys_axis));
    o.insert("decode_attention_flops_per_second", numbers(f.decode_attention_flops_per_second));
    o.insert("stream_working_set_bytes", numbers(f.stream_working_set_bytes));
    o.insert("stream_bytes_per_second", numbers(f.stream_bytes_per_second));
    o.insert("gemv_bytes_per_second", numbers(f.gemv_bytes_per_second));
    if (!f.blocked_vector_rows_axis.empty()) {
        o.insert("blocked_vector_rows_axis", numbers(f.blocked_vector_rows_axis));
        o.insert("blocked_vector_bytes_per_second", numbers(f.blocked_vector_bytes_per_second));
        o.insert("blocked_vector_working_set_bytes", f.blocked_vector_working_set_bytes);
    }
    o.insert("elementwise_flops_per_second", f.elementwise_flops_per_second);
    QJsonObject kernels;
    for (std::size_t i = 0; i < f.elementwise_kernels.size() && i < f.elementwise_kernel_flops_per_second.size(); ++i)
        kernels.insert(QString::fromStdString(f.elementwise_kernels[i]), f.elementwise_kernel_flops_per_second[i]);
    o.insert("elementwise_kernel_flops_per_second", kernels);
    o.insert("call_overhead_seconds", f.call_overhead_seconds);
    o.insert("barrier_seconds", f.barrier_seconds);
    o.insert("cpu_share", f.cpu_share);
    o.insert("measured_at", QString::fromStdString(f.measured_at));
    o.insert("load_average", f.load_average);
    o.insert("quick", f.quick);
    o.insert("measure_seconds", f.measure_seconds);
    return o;
}

Result<CpuKernelFactors> cpuKernelFactorsFromJson(const QJsonObject &object)
{
    Problems problems;
    CpuKernelFactors f;
    JsonFieldReader reader(object, "kernels", problems);
    reader.readCount("threads", f.threads);
    readNumbers(object, "gemm_axis", f.gemm_axis, problems);
    readNumbers(object, "gemm_flops_per_second", f.gemm_flops_per_second, problems);
    readNumbers(object, "gemm_weight_gradient_flops_per_second", f.gemm_weight_gradient_flops_per_second, problems);
    readNumbers(object, "attention_seq_axis", f.attention_seq_axis, problems);
    readNumbers(object, "attention_head_dim_axis", f.attention_head_dim_axis, problems);
    for (const auto &[key, table] : attentionTables(f))
        readNumbers(object, key, *table, problems);
    if (object.contains(QLatin1String("attention_tiled_forward_flops_per_second")))
        readNumbers(object, "attention_tiled_forward_flops_per_second", f.attention_tiled_forward_flops_per_second, problems);
    readNumbers(object, "decode_attention_keys_axis", f.decode_attention_keys_axis, problems);
    readNumbers(object, "decode_attention_flops_per_second", f.decode_attention_flops_per_second, problems);
    readNumbers(object, "stream_working_set_bytes", f.stream_working_set_bytes, problems);
    readNumbers(object, "stream_bytes_per_second", f.stream_bytes_per_second, problems);
    readNumbers(object, "gemv_bytes_per_second", f.gemv_bytes_per_second, problems);
    if (object.contains(QLatin1String("blocked_vector_rows_axis"))) {
        readNumbers(object, "blocked_vector_rows_axis", f.blocked_vector_rows_axis, problems);
        readNumbers(object, "blocked_vector_bytes_per_second", f.blocked_vector_bytes_per_second, problems);
        reader.readAmount("blocked_vector_working_set_bytes", f.blocked_vector_working_set_bytes);
    }
    reader.readAmount("elementwise_flops_per_second", f.elementwise_flops_per_second);
    const QJsonObject kernels = object.value("elementwise_kernel_flops_per_second").toObject();
    for (auto it = kernels.begin(); it != kernels.end(); ++it) {
        f.elementwise_kernels.push_back(it.key().toStdString());
        f.elementwise_kernel_flops_per_second.push_back(it.value().isDouble() ? it.value().toDouble() : -1);
    }
    reader.readAmount("call_overhead_seconds", f.call_overhead_seconds);
    reader.readAmount("barrier_seconds", f.barrier_seconds);
    reader.readAmount("cpu_share", f.cpu_share);
    reader.readString("measured_at", f.measured_at);
    reader.readBool("quick", f.quick);
    reader.readAmount("measure_seconds", f.measure_seconds);
    if (object.value("load_average").toDouble(0) < 0)
        f.load_average = -1;
    else
        reader.readAmount("load_average", f.load_average);
    if (!problems.empty())
        return problems;
    if (Problems invalid = validateCpuKernelFactors(f); !invalid.empty())
        return invalid;
    return f;
}

std::string cpuKernelFactorsCachePath()
{
    return QFileInfo(QString::fromStdString(machineRooflineCachePath())).dir().filePath(QStringLiteral("machine-kernels.json")).toStdString();
}

namespace {

CacheVerdict stale(std::string rule, std::string why) { return CacheVerdict{false, std::move(rule), std::move(why)}; }

// "older-than-binary" when `at` is before the build (or unreadable).
std::optional<CacheVerdict> olderThanBinary(const char *what, const std::string &at, const QDateTime &binary_built)
{
    if (!binary_built.isValid())
        return std::nullopt;
    const QDateTime measured = parseTime(at);
    if (measured.isValid() && measured >= binary_built)
        return std::nullopt;
    return stale("older-than-binary", std::string(what) + " (measured " + (at.empty() ? "at an unknown time" : at) +
                                          ") predate the program (built " +
                                          binary_built.toUTC().toString(Qt::ISODate).toStdString() + ")");
}

}  // namespace

CacheVerdict checkCachedKernelFactors(const std::optional<CpuKernelFactors> &factors, int threads, int logical_cores,
                                      const QDateTime &binary_built)
{
    if (!factors || factors->threads != threads)
        return stale("threads", "no kernel factors measured at " + std::to_string(threads) + (threads == 1 ? " thread" : " threads"));
    if (std::optional<CacheVerdict> old = olderThanBinary("the kernel factors", factors->measured_at, binary_built))
        return *old;
    if (factors->load_average >= 0 && logical_cores > 0 && factors->load_average >= logical_cores) {
        char text[160];
        std::snprintf(text, sizeof text, "the kernel factors were measured at a load average of %.2f on %d logical cores",
                      factors->load_average, logical_cores);
        return stale("implausible", text);
    }
    return CacheVerdict{true, {}, {}};
}

double gemmThreadScaling(const CpuKernelFactors &factors, const CpuKernelFactors &one_thread)
{
    const std::size_t axis = factors.gemm_axis.size();
    if (axis == 0 || factors.gemm_axis != one_thread.gemm_axis || factors.gemm_flops_per_second.size() != axis * axis * axis ||
        one_thread.gemm_flops_per_second.size() != axis * axis * axis)
        return 0;
    const std::size_t from = axis >= 2 ? axis - 2 : 0;
    std::vector<double> ratios;
    for (std::size_t i = from; i < axis; ++i)
        for (std::size_t j = from; j < axis; ++j)
            for (std::size_t l = from; l < axis; ++l) {
                const std::size_t at = (i * axis + j) * axis + l;
                if (one_thread.gemm_flops_per_second[at] > 0)
                    ratios.push_back(factors.gemm_flops_per_second[at] / one_thread.gemm_flops_per_second[at]);
            }
    if (ratios.empty())
        return 0;
    std::sort(ratios.begin(), ratios.end());
    const std::size_t half = ratios.size() / 2;
    return ratios.size() % 2 ? ratios[half] : (ratios[half - 1] + ratios[half]) / 2;
}

bool gemmThreadScalingIsPlausible(const CpuKernelFactors &factors, const CpuKernelFactors &one_thread,
                                  const MachineRoofline &roofline, std::string *why)
{
    if (factors.threads <= 1 || one_thread.threads != 1 || roofline.threads_used <= 1 ||
        roofline.peak_flops_per_s_one_core <= 0)
        return true;
    const double measured = gemmThreadScaling(factors, one_thread);
    if (measured <= 0)
        return true;
    // The roofline's gain from one core to threads_used cores, scaled down linearly to the
    // factors' thread count.
    const double cores_gain = roofline.peak_flops_per_s_all_cores / roofline.peak_flops_per_s_one_core - 1;
    const double expected_gain =
        cores_gain * double(std::min(factors.threads, roofline.threads_used) - 1) / double(roofline.threads_used - 1);
    if (expected_gain < 0.2 || measured - 1 >= 0.25 * expected_gain)
        return true;
    if (why) {
        char text[320];
        std::snprintf(text, sizeof text,
                      "the kernel factors at %d threads run the largest products only %.2fx as fast as one thread, "
                      "where the machine roofline's SGEMM gains %.2fx: other processes held the cores while they "
                      "were measured",
                      factors.threads, measured, 1 + expected_gain);
        *why = text;
    }
    return false;
}

CacheVerdict checkCachedMeasurement(const MachineRoofline &roofline, const std::optional<CpuKernelFactors> &factors,
                                    int threads, const QDateTime &binary_built,
                                    const std::optional<CpuKernelFactors> &one_thread)
{
    if (!factors || factors->threads != threads)
        return checkCachedKernelFactors(factors, threads, roofline.logical_cores, binary_built);
    if (std::optional<CacheVerdict> old = olderThanBinary("the machine roofline", roofline.measured_at, binary_built))
        return *old;
    if (CacheVerdict kernels = checkCachedKernelFactors(factors, threads, roofline.logical_cores, binary_built);
        !kernels.usable && kernels.rule == "older-than-binary")
        return kernels;
    if (const Problems warnings = machineRooflineWarnings(roofline); !warnings.empty())
        return stale("implausible", "the machine roofline looks wrong: " + warnings.front().message);
    if (CacheVerdict kernels = checkCachedKernelFactors(factors, threads, roofline.logical_cores, binary_built); !kernels.usable)
        return kernels;
    if (std::string why; one_thread && !gemmThreadScalingIsPlausible(*factors, *one_thread, roofline, &why))
        return stale("implausible", why);
    return CacheVerdict{true, {}, {}};
}

CacheVerdict checkCachedKernelFactorsHere(const std::optional<CpuKernelFactors> &factors, int threads)
{
    const MachineRoofline identity = currentMachineIdentity();
    const QDateTime built = binaryBuiltAt();
    const std::optional<MachineRoofline> roofline = loadCachedMachineRoofline();
    if (!roofline || !factors || factors->threads != threads)
        return checkCachedKernelFactors(factors, threads, identity.logical_cores, built);
    // The roofline's own staleness is not held against the factors here (its caller keeps the
    // roofline it has); only its cores' scaling is used, and only when it is plausible itself.
    CacheVerdict verdict = checkCachedKernelFactors(factors, threads, identity.logical_cores, built);
    if (!verdict.usable || threads <= 1 || !machineRooflineWarnings(*roofline).empty())
        return verdict;
    const std::optional<CpuKernelFactors> one = loadCachedCpuKernelFactors(1);
    if (std::string why; one && !gemmThreadScalingIsPlausible(*factors, *one, *roofline, &why))
        return stale("implausible", why);
    return verdict;
}

QDateTime binaryBuiltAt()
{
    Dl_info info{};
    if (dladdr(reinterpret_cast<void *>(&binaryBuiltAt), &info) != 0 && info.dli_fname && *info.dli_fname) {
        const QFileInfo file(QString::fromLocal8Bit(info.dli_fname));
        if (file.exists())
            return file.lastModified().toUTC();
    }
    const QFileInfo exe(QStringLiteral("/proc/self/exe"));
    return exe.exists() ? QFileInfo(exe.symLinkTarget()).lastModified().toUTC() : QDateTime();
}

namespace {

// The cache file's entries when it is this machine's and build's; empty otherwise.
QJsonArray cachedEntries()
{
    const Result<QByteArray> bytes = readFileBytes(cpuKernelFactorsCachePath(), FileKind::Config);
    if (!bytes)
        return {};
    Problems problems;
    const std::optional<QJsonObject> root = parseFormattedJson(*bytes, kCacheFormat, kCacheVersion, problems);
    if (!root)
        return {};
    const MachineRoofline identity = currentMachineIdentity();
    if (root->value("cpu_model").toString().toStdString() != identity.cpu_model ||
        root->value("logical_cores").toInt() != identity.logical_cores ||
        root->value("build_flags").toString().toStdString() != identity.build_flags)
        return {};
    return root->value("entries").toArray();
}

}  // namespace

std::optional<CpuKernelFactors> loadCachedCpuKernelFactors(int threads)
{
    for (const QJsonValue &entry : cachedEntries()) {
        if (entry.toObject().value("threads").toInt() != threads)
            continue;
        Result<CpuKernelFactors> factors = cpuKernelFactorsFromJson(entry.toObject());
        if (factors && !factors->quick)
            return factors.value();
    }
    return std::nullopt;
}

Result<std::string> saveCpuKernelFactors(const CpuKernelFactors &factors)
{
    const std::string path = cpuKernelFactorsCachePath();
    if (factors.quick)
        return Result<std::string>::failure(path, "quick", path + ": quick (test-sized) kernel factors are not cached");
    QJsonArray entries;
    for (const QJsonValue &entry : cachedEntries())
        if (entry.toObject().value("threads").toInt() != factors.threads)
            entries.append(entry);
    entries.append(cpuKernelFactorsToJson(factors));
    const MachineRoofline identity = currentMachineIdentity();
    QJsonObject root;
    root.insert("format", QLatin1String(kCacheFormat));
    root.insert("version", kCacheVersion);
    root.insert("cpu_model", QString::fromStdString(identity.cpu_model));
    root.insert("logical_cores", identity.logical_cores);
    root.insert("build_flags", QString::fromStdString(identity.build_flags));
    root.insert("entries", entries);
    const QString qpath = QString::fromStdString(path);
    if (!QDir().mkpath(QFileInfo(qpath).absolutePath()))
        return Result<std::string>::failure(path, "write", path + ": cannot create the folder");
    const QByteArray json = QJsonDocument(root).toJson(QJsonDocument::Compact);
    FileWriter file(path);
    file.allowReplacingInput();  // the cache read above
    if (!file.open() || !file.write(json.constData(), static_cast<std::size_t>(json.size())) || !file.replace())
        return Result<std::string>::failure(path, "write", file.problem().message);
    return path;
}

}  // namespace lse
