// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/distributed/distributed_run_results.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace lse::gui {

namespace {

distributed::DataParallelMemory memoryFromJson(const QJsonObject &object)
{
    distributed::DataParallelMemory memory;
    memory.params = object.value(QLatin1String("params")).toDouble();
    memory.grads = object.value(QLatin1String("grads")).toDouble();
    memory.optimizer_states = object.value(QLatin1String("optimizer_states")).toDouble();
    memory.gradient_arena = object.value(QLatin1String("gradient_arena")).toDouble();
    return memory;
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
    results.mode = object.value(QLatin1String("mode")).toString();
    results.zero_stage = object.value(QLatin1String("zero_stage")).toInt();
    results.bucket_bytes = object.value(QLatin1String("bucket_bytes")).toDouble();
    results.global_batch = object.value(QLatin1String("global_batch")).toInt();
    for (const QJsonValue &value : object.value(QLatin1String("steps")).toArray())
        results.steps.push_back(stepFromJson(value.toObject()));
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
