// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/distributed/distributed_run_results.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace lse::gui {

namespace {

distributed::DataParallelMemory memoryFromJson(const QJsonObject &object)
{
    distributed::DataParallelMemory memory;
    memory.params = object.value(QLatin1String("params")).toDouble();
    memory.grads = object.value(QLatin1String("grads")).toDouble();
    memory.optimizer_states = object.value(QLatin1String("optimizer_states")).toDouble();
    memory.gradient_arena = object.value(QLatin1String("gradient_arena")).toDouble();
    memory.model_state_peak = object.value(QLatin1String("model_state_peak")).toDouble();
    memory.resident_model_state_peak = object.value(QLatin1String("resident_model_state_peak")).toDouble();
    return memory;
}

// The entries of one step by rank, then purpose, in the order they first appear.
std::vector<DistributedPurposeTraffic> trafficFromJson(const QJsonArray &entries)
{
    std::vector<DistributedPurposeTraffic> traffic;
    for (const QJsonValue &value : entries) {
        const QJsonObject entry = value.toObject();
        const int rank = entry.value(QLatin1String("rank")).toInt(0);  // tp and dp runs list rank 0's own
        const QString purpose = entry.value(QLatin1String("purpose")).toString();
        auto it = std::find_if(traffic.begin(), traffic.end(), [&](const DistributedPurposeTraffic &t) {
            return t.rank == rank && t.purpose == purpose;
        });
        if (it == traffic.end()) {
            traffic.push_back({rank, purpose, entry.value(QLatin1String("collective")).toString(), 0, 0, std::nullopt});
            it = traffic.end() - 1;
        }
        // Sequence parallelism turns one purpose into all-gathers and reduce-scatters: both named.
        const QString collective = entry.value(QLatin1String("collective")).toString();
        if (!it->collective.split(QStringLiteral(" + ")).contains(collective))
            it->collective += QStringLiteral(" + ") + collective;
        it->transfers += entry.value(QLatin1String("count")).toInt(1);
        it->bytes_per_rank += entry.value(QLatin1String("bytes_per_rank")).toDouble();
        // null (or absent) where the engine has no such event
        if (const QJsonValue predicted = entry.value(QLatin1String("predicted_bytes_per_rank")); predicted.isDouble())
            it->predicted_bytes_per_rank = it->predicted_bytes_per_rank.value_or(0) + predicted.toDouble();
    }
    std::stable_sort(traffic.begin(), traffic.end(),
                     [](const DistributedPurposeTraffic &a, const DistributedPurposeTraffic &b) { return a.rank < b.rank; });
    return traffic;
}

distributed::DataParallelStepReport stepFromJson(const QJsonObject &object)
{
    distributed::DataParallelStepReport step;
    step.step = object.value(QLatin1String("step")).toInt();
    step.loss = object.value(QLatin1String("loss")).toDouble();
    step.learning_rate = object.value(QLatin1String("learning_rate")).toDouble();
    step.grad_norm = object.value(QLatin1String("grad_norm")).toDouble();
    step.seconds = object.value(QLatin1String("seconds")).toDouble();
    for (const QJsonValue &value : object.value(QLatin1String("communication")).toArray()) {
        const QJsonObject entry = value.toObject();
        step.communication.push_back({entry.value(QLatin1String("collective")).toString().toStdString(),
                                      entry.value(QLatin1String("purpose")).toString().toStdString(),
                                      entry.value(QLatin1String("bytes_per_rank")).toDouble(),
                                      entry.value(QLatin1String("seconds")).toDouble(),
                                      entry.value(QLatin1String("exposed_seconds")).toDouble()});
    }
    step.measured_bytes_per_rank = object.value(QLatin1String("measured_bytes_per_rank")).toDouble();
    step.predicted_bytes_per_rank = object.value(QLatin1String("predicted_bytes_per_rank")).toDouble();
    step.memory = memoryFromJson(object.value(QLatin1String("memory_bytes")).toObject());
    step.predicted_memory = memoryFromJson(object.value(QLatin1String("predicted_memory_bytes")).toObject());
    return step;
}

// A pipeline step's bytes for the step table: rank 0's sends (the first stage sends one direction
// only) beside the engine's bytes for the same sends, as the CLI lists them per entry. The step's
// `predicted_bytes_per_rank` is an interior stage's volume, twice the first stage's.
void setPipelineStepBytes(distributed::DataParallelStepReport &step, const std::vector<DistributedPurposeTraffic> &traffic)
{
    step.measured_bytes_per_rank = 0;
    step.predicted_bytes_per_rank = 0;
    for (const DistributedPurposeTraffic &t : traffic)
        if (t.rank == 0 && t.purpose == QLatin1String("pp_send")) {
            step.measured_bytes_per_rank += t.bytes_per_rank;
            step.predicted_bytes_per_rank += t.predicted_bytes_per_rank.value_or(0);
        }
}

}  // namespace

std::optional<DistributedRunResults> parseDistributedRunResults(const QByteArray &json, QString *error)
{
    QJsonParseError parse_error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parse_error);
    if (!document.isObject() || !document.object().value(QLatin1String("steps")).isArray()) {
        *error = QCoreApplication::translate("lse::gui::DistributedRunResults", "The run printed no results (%1).")
                     .arg(parse_error.error != QJsonParseError::NoError ? parse_error.errorString()
                                                                         : QStringLiteral("steps"));
        return std::nullopt;
    }
    const QJsonObject object = document.object();
    DistributedRunResults results;
    results.ranks = object.value(QLatin1String("ranks")).toInt();
    results.tp = object.value(QLatin1String("tp")).toInt(1);
    results.pp = object.value(QLatin1String("pp")).toInt(1);
    const bool tensor = object.contains(QLatin1String("tp"));
    const bool pipeline = object.contains(QLatin1String("pp"));
    // A --dp run has no "dp" key (its ranks are the replicas); the layouts write their dp degree.
    results.dp = tensor || pipeline ? object.value(QLatin1String("dp")).toInt(1) : results.ranks;
    results.layout = tensor ? QStringLiteral("tp") : pipeline ? QStringLiteral("pp") : QStringLiteral("dp");
    if ((tensor || pipeline) && results.dp > 1)
        results.layout.prepend(QStringLiteral("dp_"));
    results.mode = object.value(QLatin1String("mode")).toString();
    results.zero_stage = object.value(QLatin1String("zero_stage")).toInt();
    results.bucket_bytes = object.value(QLatin1String("bucket_bytes")).toDouble();
    results.sequence_parallel = object.value(QLatin1String("sequence_parallel")).toBool();
    results.global_batch = object.value(QLatin1String("global_batch")).toInt();
    const QJsonArray steps = object.value(QLatin1String("steps")).toArray();
    for (const QJsonValue &value : steps) {
        distributed::DataParallelStepReport step = stepFromJson(value.toObject());
        std::vector<DistributedPurposeTraffic> traffic = trafficFromJson(value.toObject().value(QLatin1String("communication")).toArray());
        if (pipeline) {
            setPipelineStepBytes(step, traffic);
            // Stage 0's memory (rank 0 of memory_per_rank) beside the engine's for that stage.
            const QJsonObject rank0 = value.toObject().value(QLatin1String("memory_per_rank")).toArray().at(0).toObject();
            step.memory = memoryFromJson(rank0.value(QLatin1String("measured")).toObject());
            step.predicted_memory = memoryFromJson(rank0.value(QLatin1String("predicted")).toObject());
            results.stage_inputs_bytes =
                rank0.value(QLatin1String("measured")).toObject().value(QLatin1String("activations")).toDouble();
        }
        results.steps.push_back(std::move(step));
        results.traffic.push_back(std::move(traffic));
    }
    if (tensor && !steps.isEmpty()) {
        const QJsonObject last = steps.last().toObject();
        results.activations = std::pair{last.value(QLatin1String("memory_bytes")).toObject().value(QLatin1String("activations")).toDouble(),
                                        last.value(QLatin1String("predicted_memory_bytes")).toObject().value(QLatin1String("activations")).toDouble()};
    }
    if (pipeline && !steps.isEmpty()) {
        // The Pipeline page's reader: the last step's passes, its bubble recomputed from them.
        Result<distributed::MeasuredPipelineRun> run = distributed::readMeasuredPipelineRun(json, "train --pp");
        if (!run) {
            *error = QString::fromStdString(formatProblems(run.problems())).trimmed();
            return std::nullopt;
        }
        results.pipeline = run.value();
    }
    return results;
}

double exposedSeconds(const distributed::DataParallelStepReport &step)
{
    double exposed = 0;
    for (const distributed::CommunicationEntry &entry : step.communication)
        exposed += entry.exposed_seconds;
    return exposed;
}

}  // namespace lse::gui
