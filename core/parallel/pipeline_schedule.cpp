// SPDX-License-Identifier: GPL-3.0-or-later
// Event-driven simulation of pipeline-parallel schedules: every stage runs its own task order and a
// task starts once its stage is free and the task it depends on (on a neighbouring stage) is done.
#include "parallel/pipeline_schedule.h"

#include "common/enum_names.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <utility>

namespace lse::parallel {

namespace {

constexpr EnumName<PipelineScheduleKind> kScheduleNames[] = {
    {PipelineScheduleKind::GPipe, "gpipe"},
    {PipelineScheduleKind::OneFOneB, "1f1b"},
    {PipelineScheduleKind::Interleaved, "interleaved"},
    {PipelineScheduleKind::ZeroBubble, "zb"},
};
constexpr EnumName<PipelineScheduleKind> kScheduleDisplayNames[] = {
    {PipelineScheduleKind::GPipe, "GPipe"},
    {PipelineScheduleKind::OneFOneB, "1F1B"},
    {PipelineScheduleKind::Interleaved, "Interleaved 1F1B"},
    {PipelineScheduleKind::ZeroBubble, "ZB-H1"},
};
constexpr EnumName<WorkKind> kWorkNames[] = {
    {WorkKind::Forward, "F"},
    {WorkKind::Backward, "B"},
    {WorkKind::BackwardInput, "BI"},
    {WorkKind::BackwardWeight, "W"},
};

constexpr int kMaxStages = 1024;
constexpr int kMaxMicroBatches = 65536;
constexpr int kMaxChunks = 64;
constexpr double kMaxTasks = 2.0e6;  // about 2 s to simulate on a slow laptop core
constexpr double kNotDone = std::numeric_limits<double>::infinity();

struct TaskSpec {
    WorkKind kind;
    int micro_batch;
    int chunk;
};

// GPipe (Huang et al. 2019 §2.2): every forward, then every backward.
std::vector<TaskSpec> gpipeOrder(int micro_batches)
{
    std::vector<TaskSpec> order;
    for (int mb = 0; mb < micro_batches; ++mb)
        order.push_back({WorkKind::Forward, mb, 0});
    for (int mb = 0; mb < micro_batches; ++mb)
        order.push_back({WorkKind::Backward, mb, 0});
    return order;
}

// Narayanan et al. 2021 §2.2.1 (PipeDream-Flush): p - s - 1 warm-up forwards, then one forward and
// one backward in turn, then the remaining backwards.
std::vector<TaskSpec> oneFOneBOrder(int stages, int stage, int micro_batches)
{
    const int warm_up = std::min(stages - stage - 1, micro_batches);
    std::vector<TaskSpec> order;
    for (int mb = 0; mb < warm_up; ++mb)
        order.push_back({WorkKind::Forward, mb, 0});
    for (int i = 0; warm_up + i < micro_batches; ++i) {
        order.push_back({WorkKind::Forward, warm_up + i, 0});
        order.push_back({WorkKind::Backward, i, 0});
    }
    for (int mb = micro_batches - warm_up; mb < micro_batches; ++mb)
        order.push_back({WorkKind::Backward, mb, 0});
    return order;
}

// Narayanan et al. 2021 §2.2.2: micro-batches go through the stage's chunks in groups of p: the
// forward order is (mb 0..p-1, chunk 0), (mb 0..p-1, chunk 1), ..., then the next p micro-batches;
// backwards visit the chunks in reverse. Stage s warms up with 2(p - s - 1) + (v - 1)p forwards.
std::vector<TaskSpec> interleavedOrder(int stages, int stage, int micro_batches, int chunks)
{
    const int total = micro_batches * chunks;
    const int group = stages * chunks;
    const auto unit = [&](int k, bool forward) {
        const int within = k % group;
        const int chunk = within / stages;
        const int mb = (k / group) * stages + within % stages;
        return TaskSpec{forward ? WorkKind::Forward : WorkKind::Backward, mb, forward ? chunk : chunks - 1 - chunk};
    };
    // With m == p every forward is issued before the first backward can be.
    const int warm_up = micro_batches == stages ? total : std::min(total, 2 * (stages - stage - 1) + (chunks - 1) * stages);
    std::vector<TaskSpec> order;
    for (int k = 0; k < warm_up; ++k)
        order.push_back(unit(k, true));
    for (int i = 0; warm_up + i < total; ++i) {
        order.push_back(unit(warm_up + i, true));
        order.push_back(unit(i, false));
    }
    for (int k = total - warm_up; k < total; ++k)
        order.push_back(unit(k, false));
    return order;
}

// ZB-H1 (Qi et al. 2023 §3.1, Fig. 3): stage s runs units x = 0, 1, ... of
// (F_x, B_{x-(p-1-s)}, W_{x-(p-1)}), skipping indices outside 0..m-1. B lags F by p-1-s as in 1F1B
// (same activation memory), and every stage's W lags F by p-1, so stage s defers s weight
// gradients, which fill the cool-down gaps (warm-up: p-1-s F alone, then s (F, B) pairs).
std::vector<TaskSpec> zeroBubbleOrder(int stages, int stage, int micro_batches)
{
    std::vector<TaskSpec> order;
    for (int x = 0; x < micro_batches + stages - 1; ++x) {
        if (x < micro_batches)
            order.push_back({WorkKind::Forward, x, 0});
        const int b = x - (stages - 1 - stage);
        if (b >= 0 && b < micro_batches)
            order.push_back({WorkKind::BackwardInput, b, 0});
        const int w = x - (stages - 1);
        if (w >= 0 && w < micro_batches)
            order.push_back({WorkKind::BackwardWeight, w, 0});
    }
    return order;
}

class Engine {
public:
    Engine(PipelineScheduleKind schedule, int stages, int micro_batches, int chunks, const PipelineTimes &times)
        : schedule_(schedule), p_(stages), m_(micro_batches), v_(chunks)
    {
        forward_seconds_ = times.forward_seconds;
        backward_seconds_ = times.backward_seconds;
        input_seconds_ = times.backward_input_seconds > 0 ? times.backward_input_seconds : times.backward_seconds / 2;
        weight_seconds_ = times.backward_weight_seconds > 0 ? times.backward_weight_seconds : times.backward_seconds / 2;
        const std::size_t cells = std::size_t(p_) * std::size_t(v_) * std::size_t(m_);
        forward_end_.assign(cells, kNotDone);
        backward_end_.assign(cells, kNotDone);
        stages_.resize(std::size_t(p_));
        for (int s = 0; s < p_; ++s) {
            StageState &state = stages_[std::size_t(s)];
            state.tasks.reserve(std::size_t(expectedTasks()));
            switch (schedule_) {
            case PipelineScheduleKind::GPipe:
                state.order = gpipeOrder(m_);
                break;
            case PipelineScheduleKind::OneFOneB:
                state.order = oneFOneBOrder(p_, s, m_);
                break;
            case PipelineScheduleKind::Interleaved:
                state.order = interleavedOrder(p_, s, m_, v_);
                break;
            case PipelineScheduleKind::ZeroBubble:
                state.order = zeroBubbleOrder(p_, s, m_);
                break;
            }
        }
    }

    // Runs to completion; false if some stage could never run its next task (a schedule bug).
    bool run()
    {
        for (int s = 0; s < p_; ++s)
            tryStart(s, 0.0);
        while (!events_.empty()) {
            const double now = events_.top().first;
            std::vector<int> finished;
            while (!events_.empty() && events_.top().first == now) {
                finished.push_back(events_.top().second);
                events_.pop();
            }
            for (int s : finished) {
                // Who can be waiting on a task of stage s: s itself, its neighbours, and across
                // the chunk boundary of the interleaved schedule the first and last stage.
                for (int candidate : {s, s - 1, s + 1, 0, p_ - 1})
                    if (candidate >= 0 && candidate < p_)
                        tryStart(candidate, now);
            }
        }
        for (const StageState &state : stages_)
            if (state.done != expectedTasks())
                return false;
        return true;
    }

    std::vector<std::vector<PipelineTask>> takeTasksByStage()
    {
        std::vector<std::vector<PipelineTask>> result;
        for (StageState &state : stages_)
            result.push_back(std::move(state.tasks));
        return result;
    }

    double busySecondsPerStage() const
    {
        const double per_micro_batch = schedule_ == PipelineScheduleKind::ZeroBubble
                                           ? forward_seconds_ + input_seconds_ + weight_seconds_
                                           : forward_seconds_ + backward_seconds_;
        return double(m_) * v_ * per_micro_batch;
    }

private:
    struct StageState {
        std::vector<TaskSpec> order;
        std::size_t next = 0;
        int done = 0;
        double free_at = 0;
        std::vector<PipelineTask> tasks;
    };

    int expectedTasks() const { return m_ * v_ * (schedule_ == PipelineScheduleKind::ZeroBubble ? 3 : 2); }

    std::size_t cell(int layer, int micro_batch) const { return std::size_t(layer) * std::size_t(m_) + std::size_t(micro_batch); }

    // Megatron's interleaving: chunk c of stage s is virtual stage c·p + s.
    int layerOf(int stage, int chunk) const { return chunk * p_ + stage; }

    // When the task's input is available (kNotDone while its producer has not run).
    double readyAt(int stage, const TaskSpec &task) const
    {
        const int layer = layerOf(stage, task.chunk);
        switch (task.kind) {
        case WorkKind::Forward:
            return layer == 0 ? 0.0 : forward_end_[cell(layer - 1, task.micro_batch)];
        case WorkKind::Backward:
        case WorkKind::BackwardInput:
            // The last layer starts the backward from its own forward output (the loss).
            return layer == p_ * v_ - 1 ? forward_end_[cell(layer, task.micro_batch)]
                                        : backward_end_[cell(layer + 1, task.micro_batch)];
        case WorkKind::BackwardWeight:
            return backward_end_[cell(layer, task.micro_batch)];  // its own B (Qi et al. §2)
        }
        return kNotDone;
    }

    double duration(WorkKind kind) const
    {
        switch (kind) {
        case WorkKind::Forward:
            return forward_seconds_;
        case WorkKind::Backward:
            return backward_seconds_;
        case WorkKind::BackwardInput:
            return input_seconds_;
        case WorkKind::BackwardWeight:
            return weight_seconds_;
        }
        return 0;
    }

    void tryStart(int stage, double now)
    {
        StageState &state = stages_[std::size_t(stage)];
        if (state.free_at > now || state.done >= expectedTasks())
            return;
        if (state.next >= state.order.size() || readyAt(stage, state.order[state.next]) > now)
            return;
        const TaskSpec *task = &state.order[state.next];
        const double end = now + duration(task->kind);
        const int layer = layerOf(stage, task->chunk);
        switch (task->kind) {
        case WorkKind::Forward:
            forward_end_[cell(layer, task->micro_batch)] = end;
            break;
        case WorkKind::Backward:
        case WorkKind::BackwardInput:
            backward_end_[cell(layer, task->micro_batch)] = end;
            break;
        case WorkKind::BackwardWeight:
            break;
        }
        ++state.next;
        ++state.done;
        state.free_at = end;
        state.tasks.push_back(PipelineTask{stage, task->micro_batch, task->chunk, task->kind, now, end});
        events_.push({end, stage});
    }

    PipelineScheduleKind schedule_;
    int p_, m_, v_;
    double forward_seconds_ = 1, backward_seconds_ = 2, input_seconds_ = 1, weight_seconds_ = 1;
    std::vector<double> forward_end_, backward_end_;
    std::vector<StageState> stages_;
    using Event = std::pair<double, int>;  // (end time, stage)
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
};

Problems validate(PipelineScheduleKind schedule, int stages, int micro_batches, int chunks, const PipelineTimes &times)
{
    Problems problems;
    if (stages < 1 || stages > kMaxStages)
        problems.push_back({"stages", "range", "stages must be between 1 and " + std::to_string(kMaxStages) + ", got " +
                                                   std::to_string(stages)});
    if (micro_batches < 1 || micro_batches > kMaxMicroBatches)
        problems.push_back({"micro_batches", "range", "micro_batches must be between 1 and " +
                                                          std::to_string(kMaxMicroBatches) + ", got " +
                                                          std::to_string(micro_batches)});
    if (chunks < 1 || chunks > kMaxChunks)
        problems.push_back({"chunks", "range", "chunks must be between 1 and " + std::to_string(kMaxChunks) + ", got " +
                                                   std::to_string(chunks)});
    if (schedule == PipelineScheduleKind::Interleaved) {
        if (chunks >= 1 && chunks < 2)
            problems.push_back({"chunks", "interleaved_chunks",
                                "the interleaved schedule needs at least 2 model chunks per stage, got " +
                                    std::to_string(chunks)});
        if (stages >= 1 && micro_batches >= 1 && micro_batches % stages != 0)
            problems.push_back(Problem{"micro_batches", "divisible",
                                       "the interleaved schedule needs micro_batches (" + std::to_string(micro_batches) +
                                           ") to be a multiple of stages (" + std::to_string(stages) +
                                           ") (Narayanan et al. 2021 §2.2.2)",
                                       {"stages"}});
    } else if (chunks != 1 && chunks >= 1) {
        problems.push_back({"chunks", "single_chunk",
                            "only the interleaved schedule uses several model chunks per stage; use chunks = 1"});
    }
    const auto positive = [&problems](double value, const char *field) {
        if (!(value > 0) || !std::isfinite(value))
            problems.push_back({field, "positive", std::string(field) + " must be a positive number of seconds"});
    };
    positive(times.forward_seconds, "forward_seconds");
    positive(times.backward_seconds, "backward_seconds");
    const auto non_negative = [&problems](double value, const char *field) {
        if (!(value >= 0) || !std::isfinite(value))
            problems.push_back({field, "non_negative", std::string(field) + " must be zero (default) or positive"});
    };
    non_negative(times.backward_input_seconds, "backward_input_seconds");
    non_negative(times.backward_weight_seconds, "backward_weight_seconds");
    if (problems.empty()) {
        const double tasks = double(stages) * micro_batches * chunks * 3.0;
        if (tasks > kMaxTasks)
            problems.push_back(Problem{"micro_batches", "too_large",
                                       "stages x micro_batches x chunks is too large to simulate (over 2 million tasks)",
                                       {"stages", "chunks"}});
    }
    return problems;
}

}  // namespace

std::string_view toString(PipelineScheduleKind value) { return enumToString(kScheduleNames, value); }
std::string_view toString(WorkKind value) { return enumToString(kWorkNames, value); }
std::string_view displayName(PipelineScheduleKind value) { return enumToString(kScheduleDisplayNames, value); }

std::optional<PipelineScheduleKind> pipelineScheduleFromString(std::string_view text)
{
    if (text == "zb-h1" || text == "zbh1" || text == "ZB-H1" || text == "zerobubble")
        return PipelineScheduleKind::ZeroBubble;
    return enumFromString(kScheduleNames, text);
}

std::string pipelineScheduleChoices() { return enumChoices(kScheduleNames); }

Result<PipelineTimeline> simulatePipeline(PipelineScheduleKind schedule, int stages, int micro_batches, int chunks,
                                          const PipelineTimes &times)
{
    Problems problems = validate(schedule, stages, micro_batches, chunks, times);
    if (!problems.empty())
        return problems;
    Engine engine(schedule, stages, micro_batches, chunks, times);
    if (!engine.run())
        return Result<PipelineTimeline>::failure("schedule", "deadlock", "the schedule deadlocked (internal error)");

    PipelineTimeline timeline;
    timeline.schedule = schedule;
    timeline.stages = stages;
    timeline.micro_batches = micro_batches;
    timeline.chunks = chunks;
    timeline.busy_seconds_per_stage = engine.busySecondsPerStage();
    timeline.tasks.reserve(std::size_t(stages) * std::size_t(micro_batches) * std::size_t(chunks) * 3);
    for (const std::vector<PipelineTask> &stage_tasks : engine.takeTasksByStage()) {
        int in_flight = 0, peak = 0, deferred = 0, peak_deferred = 0;
        for (const PipelineTask &task : stage_tasks) {
            timeline.makespan_seconds = std::max(timeline.makespan_seconds, task.end_seconds);
            // Tasks of one stage never overlap, so their order is the order of the events.
            if (task.kind == WorkKind::Forward) {
                peak = std::max(peak, ++in_flight);
            } else if (task.kind == WorkKind::BackwardWeight) {
                --deferred;
            } else {
                --in_flight;
                if (task.kind == WorkKind::BackwardInput)
                    peak_deferred = std::max(peak_deferred, ++deferred);
            }
        }
        timeline.peak_in_flight_micro_batches.push_back(peak);
        timeline.peak_deferred_weight_passes.push_back(peak_deferred);
        timeline.tasks.insert(timeline.tasks.end(), stage_tasks.begin(), stage_tasks.end());
    }
    const double idle = timeline.makespan_seconds - timeline.busy_seconds_per_stage;
    timeline.bubble_fraction = idle / timeline.busy_seconds_per_stage;
    timeline.idle_share_of_makespan = idle / timeline.makespan_seconds;

    const double p = stages, m = micro_batches, v = chunks;
    switch (schedule) {
    case PipelineScheduleKind::GPipe:
    case PipelineScheduleKind::OneFOneB:
        timeline.analytic_bubble_fraction = (p - 1.0) / m;  // GPipe §2.3; Narayanan et al. 2021 §2.2.1
        break;
    case PipelineScheduleKind::Interleaved:
        timeline.analytic_bubble_fraction = (p - 1.0) / (v * m);  // Narayanan et al. 2021 §2.2.2
        break;
    case PipelineScheduleKind::ZeroBubble: {
        // Qi et al. 2023 §3.1: ZB-H1's bubble is (p-1)(T_F + T_B - T_W), against 1F1B's
        // (p-1)(T_F + T_B + T_W), over a busy time of m(T_F + T_B + T_W); derived for T_W not
        // longer than T_F + T_B and m >= p.
        const double f = times.forward_seconds;
        const double b = times.backward_input_seconds > 0 ? times.backward_input_seconds : times.backward_seconds / 2;
        const double w = times.backward_weight_seconds > 0 ? times.backward_weight_seconds : times.backward_seconds / 2;
        timeline.analytic_bubble_fraction = (p - 1.0) * std::max(0.0, f + b - w) / (m * (f + b + w));
        // With m < p the warm-up never reaches the steady state the derivation assumes, and a W
        // longer than B no longer fits the bubble it is meant to fill.
        timeline.analytic_bubble_assumption = "m >= p and t_W <= t_B";
        timeline.analytic_bubble_applies = micro_batches >= stages && w <= b;
        break;
    }
    }
    return timeline;
}

std::vector<double> activationMemoryPerStage(const PipelineTimeline &timeline,
                                             double activation_bytes_per_micro_batch_per_stage)
{
    std::vector<double> bytes;
    for (int peak : timeline.peak_in_flight_micro_batches)
        bytes.push_back(peak * activation_bytes_per_micro_batch_per_stage);
    return bytes;
}

std::vector<double> activationMemoryPerStage(const PipelineTimeline &timeline,
                                             const std::vector<double> &bytes_per_micro_batch_per_stage)
{
    std::vector<double> bytes;
    for (std::size_t stage = 0; stage < timeline.peak_in_flight_micro_batches.size(); ++stage)
        bytes.push_back(stage < bytes_per_micro_batch_per_stage.size()
                            ? timeline.peak_in_flight_micro_batches[stage] * bytes_per_micro_batch_per_stage[stage]
                            : 0.0);
    return bytes;
}

}  // namespace lse::parallel
