// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/roofline/reference_ops_run.h"

#include "reference/token_data.h"

#include <QFile>
#include <QTemporaryDir>

#include <cstring>
#include <random>

namespace lse::gui {

namespace {

constexpr const char *kTinyPreset = ":/reference/tiny.json";

// Random ids: the op timings depend on the shapes only, not on what the tokens say.
std::vector<std::uint32_t> randomTokens(std::int64_t vocab, std::size_t count)
{
    std::mt19937 generator(336);
    std::uniform_int_distribution<std::uint32_t> pick(0, std::uint32_t(vocab - 1));
    std::vector<std::uint32_t> ids(count);
    for (std::uint32_t &id : ids)
        id = pick(generator);
    return ids;
}

}  // namespace

ReferenceOpsRun runReferenceOps(int measured_steps, int threads, const std::atomic<bool> &cancel,
                                const std::function<void(int step, int steps)> &progress)
{
    ReferenceOpsRun run;
    QFile file(QString::fromLatin1(kTinyPreset));
    if (!file.open(QIODevice::ReadOnly)) {
        run.error = QStringLiteral("%1 is missing from the resources").arg(QString::fromLatin1(kTinyPreset));
        return run;
    }
    Result<reference::TrainConfig> parsed = reference::trainConfigFromJson(file.readAll(), "tiny.json");
    if (!parsed) {
        run.error = QString::fromStdString(formatProblems(parsed.problems())).trimmed();
        return run;
    }
    reference::TrainConfig config = parsed.value();
    QTemporaryDir temp;
    if (!temp.isValid()) {
        run.error = temp.errorString();
        return run;
    }
    // Enough windows of max_seq_len + 1 tokens for training and the held-out tenth.
    const std::size_t tokens = std::size_t(config.model.max_seq_len + 1) * std::size_t(config.batch_size) * 40;
    const std::string path = QFile::encodeName(temp.filePath(QStringLiteral("tokens.bin"))).toStdString();
    const TokenDtype dtype = config.model.vocab_size <= 65536 ? TokenDtype::U16 : TokenDtype::U32;
    Result<bool> written = writeTokenFile(path, randomTokens(config.model.vocab_size, tokens), dtype);
    if (!written) {
        run.error = QString::fromStdString(formatProblems(written.problems())).trimmed();
        return run;
    }
    config.data_path = path;
    config.data_dtype = dtype;
    config.validation_path.clear();
    config.eval_every = 0;
    if (threads > 0)
        config.threads = threads;
    Result<std::unique_ptr<reference::Trainer>> created = reference::Trainer::create(config);
    if (!created) {
        run.error = QString::fromStdString(formatProblems(created.problems())).trimmed();
        return run;
    }
    reference::Trainer &trainer = *created.value();
    run.config = trainer.config();
    run.config.threads = trainer.threadChoice().threads;  // the count it ran with, for the prediction
    const int steps = measured_steps + 1;
    std::vector<reference::OpRecord> warm;
    for (int step = 0; step < steps; ++step) {
        if (cancel.load()) {
            run.error = QStringLiteral("cancelled");
            return run;
        }
        Result<reference::StepReport> report = trainer.step();
        if (!report) {
            run.error = QString::fromStdString(formatProblems(report.problems())).trimmed();
            return run;
        }
        // The first step warms caches and allocators: its records are subtracted below.
        if (step == 0)
            warm = trainer.profiler().records();
        if (progress)
            progress(step + 1, steps);
    }
    for (reference::OpRecord record : trainer.profiler().records()) {
        for (const reference::OpRecord &before : warm) {
            if (before.phase == record.phase && std::strcmp(before.name, record.name) == 0) {
                record.flops -= before.flops;
                record.seconds -= before.seconds;
                record.calls -= before.calls;
            }
        }
        if (record.calls > 0)
            run.records.push_back(record);
    }
    run.measured_steps = measured_steps;
    return run;
}

Scenario referenceScenario(const reference::TrainConfig &config, const std::optional<MachineRoofline> &cpu)
{
    Scenario scenario;
    scenario.model = config.model;
    Accelerator &device = scenario.cluster.accelerator;
    device.id = "this-cpu";
    device.name = "CPU";
    // Placeholders when nothing is measured: the roofline's bytes and FLOPs do not depend on them.
    device.dense_peak.fp32_flops_per_second = cpu ? cpu->peak_flops_per_s_all_cores : 1e11;
    device.memory_bandwidth_bytes_per_second = cpu ? cpu->bandwidth_bytes_per_s_all_cores : 1e10;
    device.memory_bytes = std::int64_t(1) << 40;
    device.intra_node_bandwidth_bytes_per_second = 1e10;
    device.inter_node_bandwidth_bytes_per_second = 1e10;
    scenario.cluster.gpus = 1;
    scenario.cluster.gpus_per_node = 1;
    TrainingConfig &t = scenario.training;
    t.seq_len = config.model.max_seq_len;
    t.global_batch = config.batch_size;
    t.micro_batch = config.batch_size;
    t.tokens = std::int64_t(config.batch_size) * config.model.max_seq_len;
    t.precision = precisionForRecipe(PrecisionRecipe::FP32);
    t.optimizer = Optimizer::AdamW;
    t.recomputation = Recomputation::None;
    t.flash_attention = false;
    t.attention_flops = AttentionFlops::Full;
    t.flops_model = FlopsModel::Exact;
    return scenario;
}

}  // namespace lse::gui
