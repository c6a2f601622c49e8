// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/pipeline_run_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace lse::distributed {

namespace {

Problem bad(const std::string &where, const std::string &field, const std::string &rule, const std::string &message)
{
    return Problem{field, rule, where + ": " + message};
}

}  // namespace

Result<MeasuredPipelineRun> readMeasuredPipelineRun(const QByteArray &json, const std::string &where)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return Problems{bad(where, "json", "syntax",
                            "not the JSON object `train --pp P --json` writes ("
                                + error.errorString().toStdString() + ").")};
    const QJsonObject root = document.object();
    MeasuredPipelineRun run;
    run.stages = root.value("pp").toInt(0);
    run.micro_batches = root.value("micro_batches").toInt(0);
    if (run.stages < 1 || run.stages > 1024)
        return Problems{bad(where, "pp", "range", "\"pp\" must be a stage count from 1 to 1024: is this a pipeline run's JSON?")};
    if (run.micro_batches < 1 || run.micro_batches > 65536)
        return Problems{bad(where, "micro_batches", "range", "\"micro_batches\" must be from 1 to 65536.")};
    const std::optional<parallel::PipelineScheduleKind> schedule =
        parallel::pipelineScheduleFromString(root.value("schedule").toString().toStdString());
    if (!schedule || (*schedule != parallel::PipelineScheduleKind::GPipe && *schedule != parallel::PipelineScheduleKind::OneFOneB))
        return Problems{bad(where, "schedule", "choice", "\"schedule\" must be gpipe or 1f1b.")};
    run.schedule = *schedule;
    const QJsonArray steps = root.value("steps").toArray();
    if (steps.isEmpty())
        return Problems{bad(where, "steps", "missing", "the run has no steps.")};
    const QJsonObject last = steps.last().toObject();
    run.step = last.value("step").toInt(int(steps.size()));
    run.recorded_bubble = last.value("bubble_fraction").toObject().value("measured").toDouble();
    for (const QJsonValue &value : last.value("schedule").toArray()) {
        const QJsonObject object = value.toObject();
        PipelinePass pass;
        pass.rank = object.value("rank").toInt(-1);
        pass.micro_batch = object.value("micro_batch").toInt(-1);
        pass.pass = object.value("pass").toString().toStdString();
        pass.start_seconds = object.value("start_seconds").toDouble(NAN);
        pass.end_seconds = object.value("end_seconds").toDouble(NAN);
        if (pass.rank < 0 || pass.rank >= run.stages || pass.micro_batch < 0 || pass.micro_batch >= run.micro_batches
            || (pass.pass != "forward" && pass.pass != "backward") || !std::isfinite(pass.start_seconds)
            || !std::isfinite(pass.end_seconds) || pass.end_seconds < pass.start_seconds)
            return Problems{bad(where, "schedule[]", "pass",
                                "step " + std::to_string(run.step) + ": a pass needs a rank in [0, pp), a micro_batch in "
                                                                     "[0, m), pass forward or backward and finite "
                                                                     "start_seconds <= end_seconds.")};
        run.passes.push_back(std::move(pass));
    }
    if (run.passes.empty())
        return Problems{bad(where, "schedule[]", "missing", "the last step has no schedule.")};
    run.bubble = pipelineBubble(run.passes, run.stages, run.micro_batches);
    return run;
}

}  // namespace lse::distributed
