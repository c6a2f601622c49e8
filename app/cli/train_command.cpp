// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli train`: the CPU reference transformer (core/reference/); `generate` is generate_command.cpp.
//
// MFU needs this machine's peak. It comes from the cached `llm-explorer-cli machine` measurement
// (or training.peak_flops_per_s in the config); when neither exists the run says so and reports
// GFLOP/s only, because measuring silently would add seconds of full-load SGEMM to every run and
// disturb the very timing being reported. The step time is predicted before any step runs by the
// operator-level predictor the GPUs use, with this CPU's kernel factors at the run's thread count
// (core/reference/step_time_comparison.h); those are measured again first when the cache is older
// than the program, was measured under load, or lacks this thread count (kernel_benchmark.h).

#include "count_option.h"
#include "reference_cli.h"
#include "commands.h"
#include "data_parallel_train.h"
#include "tensor_parallel_train.h"
#include "pipeline_parallel_train.h"
#include "file_arguments.h"
#include "output.h"
#include "trace_options.h"

#include "common/file_bytes.h"
#include "common/folder_lock.h"
#include "hardware/machine_roofline.h"
#include "reference/chrome_trace_writer.h"
#include "reference/op_trace.h"
#include "reference/peak_utilisation.h"
#include "reference/safetensors.h"
#include "reference/kernel_benchmark.h"
#include "reference/step_time_comparison.h"
#include "reference/trainer.h"
#include "reference/training_text.h"
#include "tokenizer/tokenizer_formats.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <ctime>
#include <optional>
#include <utility>
#include <vector>

namespace lse::cli {

Problem problem(const std::string &field, const std::string &rule, const std::string &message)
{
    return Problem{field, rule, message};
}

std::optional<int> parseArguments(QCommandLineParser &parser, const QString &command, const QString &synopsis,
                                  const QString &description, const QList<QCommandLineOption> &options,
                                  const QStringList &arguments)
{
    parser.setApplicationDescription(description);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    parser.addOption(help);
    parser.addOptions(options);
    if (!parser.parse(QStringList{command} + arguments))
        return reportProblems({problem("arguments", "syntax", parser.errorText().toStdString())});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli %1 %2\n").arg(command, synopsis) + parser.helpText().section('\n', 1));
        return kExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return reportProblems({problem("arguments", "unexpected",
                                       "unexpected argument '" + parser.positionalArguments().front().toStdString() + "'")});
    return std::nullopt;
}

void numberOption(const QCommandLineParser &parser, const QString &name, double minimum, double &out, Problems &problems)
{
    if (!parser.isSet(name))
        return;
    const std::optional<double> value = parseNumber(parser.value(name));
    if (!value || !(*value >= minimum)) {
        problems.push_back(problem("--" + name.toStdString(), "number",
                                   QStringLiteral("--%1 '%2' is not a number >= %3").arg(name, parser.value(name)).arg(minimum)
                                       .toStdString()));
        return;
    }
    out = *value;
}

// A config file, or the name of a bundled preset (tiny, small, cs336-tinystories).
Result<lse::reference::TrainConfig> loadConfig(const QString &path)
{
    QString file = path;
    if (!QFileInfo::exists(file) && QFile::exists(QStringLiteral(":/reference/%1.json").arg(path)))
        file = QStringLiteral(":/reference/%1.json").arg(path);
    if (file.startsWith(QLatin1Char(':'))) {  // a bundled preset (Qt resource)
        QFile f(file);
        if (f.open(QIODevice::ReadOnly))
            return lse::reference::trainConfigFromJson(f.readAll(), path.toStdString());
    }
    // A file: only a regular one of a configuration's size is read (core/common/file_bytes.h).
    const Result<QByteArray> bytes = lse::readFileBytes(QFile::encodeName(file).toStdString(), lse::FileKind::Config);
    if (!bytes) {
        Problems problems = namedAfterFlag(bytes.problems(), "--config", path);
        if (problems.front().rule == "unreadable")
            problems.front().message += " Give a TrainConfig JSON file or a preset name (tiny, small, cs336-tinystories).";
        return problems;
    }
    return lse::reference::trainConfigFromJson(*bytes, path.toStdString());
}

namespace {

using lse::reference::StepReport;
using lse::reference::TrainConfig;
using lse::reference::Trainer;


// Checkpoints are named step_NNNNNN.safetensors in --checkpoint-dir: an input file of this run
// under such a name there could be replaced by one. Rules of file_arguments.h.
std::optional<Problem> checkpointNameOfAnInput(const QString &checkpointDir, const std::vector<InputFile> &inputs)
{
    static const QRegularExpression kCheckpointName(QStringLiteral("^step_\\d+\\.safetensors$"));
    for (const InputFile &input : inputs) {
        const QFileInfo info(input.path);
        if (info.exists() && kCheckpointName.match(info.fileName()).hasMatch() &&
            lse::sameFile(QFile::encodeName(info.absolutePath()).toStdString(), QFile::encodeName(checkpointDir).toStdString()))
            return problem("--checkpoint-dir", "same_file",
                           "--checkpoint-dir '" + checkpointDir.toStdString() + "' would receive checkpoints named like " +
                               input.flag + " '" + input.path.toStdString() +
                               "'; a checkpoint could replace the input. Choose another folder.");
    }
    return std::nullopt;
}

// CPU time of this process (all threads): on a shared machine a step's wall time also counts the
// time other processes held its cores.
double processCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

QString pct(double fraction) { return QStringLiteral("%1%").arg(fraction * 100, 0, 'f', 1); }

QString signedPct(double fraction)
{
    return (fraction >= 0 ? QStringLiteral("+") : QString()) + QStringLiteral("%1%").arg(fraction * 100, 0, 'f', 1);
}

// MFU as a result, or what to do when it is no result (above 100%: the peak was measured too low).
QString mfuText(double mfu)
{
    if (lse::reference::exceedsMeasuredPeak(mfu))
        return QStringLiteral("MFU exceeds the measured peak - re-measure (llm-explorer-cli machine --remeasure)");
    return QStringLiteral("MFU %1").arg(pct(mfu));
}

}  // namespace

int runTrain(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption config(QStringLiteral("config"), QStringLiteral("TrainConfig JSON file, or a preset name: tiny, small, cs336-tinystories."), QStringLiteral("F"));
    const QCommandLineOption data(QStringLiteral("data"), QStringLiteral("Token ids from `prepare-data` (overrides data_path)."), QStringLiteral("F"));
    const QCommandLineOption dtype(QStringLiteral("dtype"), QStringLiteral("Token id type of --data and --val: uint16 or uint32."), QStringLiteral("T"));
    const QCommandLineOption val(QStringLiteral("val"), QStringLiteral("Validation token file (default: the last 10% of --data)."), QStringLiteral("F"));
    const QCommandLineOption steps(QStringLiteral("steps"), QStringLiteral("Total optimizer steps (the cosine cycle)."), QStringLiteral("N"));
    const QCommandLineOption batch(QStringLiteral("batch"), QStringLiteral("Sequences per step."), QStringLiteral("B"));
    const QCommandLineOption lr(QStringLiteral("lr"), QStringLiteral("Maximum learning rate."), QStringLiteral("X"));
    const QCommandLineOption warmup(QStringLiteral("warmup"), QStringLiteral("Linear warm-up steps."), QStringLiteral("N"));
    const QCommandLineOption every(QStringLiteral("checkpoint-every"), QStringLiteral("Save a checkpoint every K steps."), QStringLiteral("K"));
    const QCommandLineOption dir(QStringLiteral("checkpoint-dir"), QStringLiteral("Directory for checkpoints (created); the last step is always saved there."), QStringLiteral("D"));
    const QCommandLineOption resume(QStringLiteral("resume"), QStringLiteral("Continue from this checkpoint (bit-identical to not stopping)."), QStringLiteral("F"));
    const QCommandLineOption seed(QStringLiteral("seed"), QStringLiteral("Initialisation and sampling seed."), QStringLiteral("S"));
    const QCommandLineOption threads(QStringLiteral("threads"), QStringLiteral("OpenMP/Eigen threads (0, the default: the cores other processes leave idle)."), QStringLiteral("T"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print a JSON summary on stdout."));
    const QCommandLineOption attention(QStringLiteral("attention"),
                                       QStringLiteral("Attention kernel: naive (stores the T x T probabilities) or tiled "
                                                      "(FlashAttention: blocks sized from this CPU's L2, online softmax, "
                                                      "O(T) memory); overrides training.attention_kernel (default naive)."),
                                       QStringLiteral("K"));
    const QCommandLineOption dp(QStringLiteral("dp"),
                                QStringLiteral("Data-parallel ranks: run under `mpirun -np N`; --batch stays the global batch, split "
                                               "over the ranks; rank 0 prints and writes the checkpoints (the single-process format, complete "
                                               "under ZeRO too); --resume works on any rank count."),
                                QStringLiteral("N"));
    const QCommandLineOption zero(QStringLiteral("zero"),
                                  QStringLiteral("With --dp: ZeRO stage 0 (plain data parallelism), 1 (optimizer states sharded), "
                                                 "2 (gradients too; 1 and 2 reduce-scatter + all-gather instead of all-reduce) or 3 (parameters "
                                                 "too: each layer all-gathered before its forward and its backward, its gradients reduce-scattered)."),
                                  QStringLiteral("S"));
    const QCommandLineOption bucket(QStringLiteral("bucket-mb"),
                                    QStringLiteral("With --dp and --zero 0: all-reduce gradients in buckets of B MiB as backward "
                                                   "produces them (PyTorch DDP's bucket_cap_mb; default 25); 0: one all-reduce "
                                                   "after backward (naive)."),
                                    QStringLiteral("B"));
    const QCommandLineOption tp(QStringLiteral("tp"),
                                QStringLiteral("Tensor-parallel ranks (Megatron's column/row split): run under `mpirun -np T`; T must "
                                               "equal the ranks and divide n_heads, n_kv_heads and d_ff; every rank trains on the "
                                               "whole batch; rank 0 prints (no checkpoints yet). With --dp D: D replicas of the "
                                               "T-way split under `mpirun -np D*T` (the Layout page's mesh, TP innermost), each on "
                                               "batch/D rows, gradients all-reduced over the dp group."),
                                QStringLiteral("T"));
    const QCommandLineOption sp(QStringLiteral("sp"),
                                QStringLiteral("With --tp: sequence parallelism on or off (default off): norms on token shards, "
                                               "all-gather + reduce-scatter instead of all-reduce; the context must divide by T."),
                                QStringLiteral("on|off"));
    // Pipeline parallelism (issue 33): pipeline_parallel_train.cpp.
    const QCommandLineOption pp(QStringLiteral("pp"),
                                QStringLiteral("Pipeline stages, one process per stage: run under `mpirun -np P`; the layers are "
                                               "split as the engine splits them (uneven when P does not divide them); needs "
                                               "layers >= P. With --dp D: D pipeline replicas under `mpirun -np D*P` (the "
                                               "Layout page's mesh), each on batch/D rows, stage gradients all-reduced over dp."),
                                QStringLiteral("P"));
    const QCommandLineOption schedule(QStringLiteral("schedule"),
                                      QStringLiteral("With --pp: gpipe (all forwards, then all backwards) or 1f1b (default)."),
                                      QStringLiteral("S"));
    const QCommandLineOption microBatches(QStringLiteral("micro-batches"),
                                          QStringLiteral("With --pp: micro-batches per step (default P); must divide --batch."),
                                          QStringLiteral("M"));
    const QCommandLineOption trace = traceOption(QStringLiteral("training steps (with --dp: every rank, one process per rank)"));
    const QCommandLineOption traceSteps = traceStepsOption(
        QStringLiteral("the steps after the first when the run has more (the first pays cold caches), else all"));
    if (const auto done = parseArguments(
            parser, QStringLiteral("train"),
            QStringLiteral("--config F|PRESET --data tokens.bin [--dtype uint16|uint32] [--val F] --steps N [--batch B] [--lr X] "
                           "[--warmup N] [--checkpoint-every K --checkpoint-dir D] [--resume F] [--seed S] [--threads T] [--attention naive|tiled] "
                           "[--json] [--dp N [--zero 0|1|2|3] [--bucket-mb B]] [--tp T [--sp on|off]] "
                           "[--pp P [--schedule gpipe|1f1b] [--micro-batches M]] [--trace FILE [--trace-steps N]]"),
            QStringLiteral("Train the CPU reference transformer on a token file. Progress (loss, learning rate, tokens/s, "
                           "GFLOP/s, MFU against the cached `machine` peak) goes to stderr. Exit status 3: training "
                           "diverged (a NaN or infinite loss); the run stops and writes no checkpoint of that state."),
            {config, data, dtype, val, steps, batch, lr, warmup, every, dir, resume, seed, threads, attention, json, dp, zero, bucket,
             tp, sp, pp, schedule, microBatches, trace, traceSteps},
            arguments))
        return *done;

    Problems problems;
    TrainConfig cfg;
    if (parser.isSet(resume)) {
        // The checkpoint carries the model and optimizer settings; the options below may change the data and run length.
        Result<SafetensorsFile> ckpt = readSafetensors(parser.value(resume).toStdString());
        if (!ckpt)
            return reportProblems(namedAfterFlag(ckpt.problems(), "--resume", parser.value(resume)));
        const auto it = ckpt->metadata.find("config");
        if (it == ckpt->metadata.end())
            return reportProblems({problem("--resume", "metadata", parser.value(resume).toStdString() + ": not a training checkpoint.")});
        Result<TrainConfig> parsed = lse::reference::trainConfigFromJson(QByteArray::fromStdString(it->second), "--resume");
        if (!parsed)
            return reportProblems(parsed.problems());
        cfg = parsed.value();
        if (parser.isSet(config))
            problems.push_back(problem("--config", "conflict", "--config and --resume exclude each other: the checkpoint holds the config."));
    } else if (!parser.isSet(config)) {
        problems.push_back(problem("--config", "required", "--config F (a TrainConfig JSON file or a preset name) is required."));
    } else {
        Result<TrainConfig> parsed = loadConfig(parser.value(config));
        if (!parsed)
            return reportProblems(parsed.problems());
        cfg = parsed.value();
    }
    if (parser.isSet(data))
        cfg.data_path = parser.value(data).toStdString();
    if (parser.isSet(val))
        cfg.validation_path = parser.value(val).toStdString();
    if (parser.isSet(dtype)) {
        if (const std::optional<TokenDtype> d = parseTokenDtype(parser.value(dtype).toStdString()))
            cfg.data_dtype = cfg.validation_dtype = *d;
        else
            problems.push_back(problem("--dtype", "enum", "--dtype must be uint16 or uint32."));
    }
    intOption(parser, steps.names().front(), 1, cfg.steps, problems);
    intOption(parser, batch.names().front(), 1, cfg.batch_size, problems);
    numberOption(parser, lr.names().front(), 0, cfg.lr_max, problems);
    if (parser.isSet(lr) && cfg.lr_min > cfg.lr_max)
        cfg.lr_min = cfg.lr_max / 10;  // keep the schedule valid when only the maximum is given
    intOption(parser, warmup.names().front(), 0, cfg.warmup_steps, problems);
    if (parser.isSet(warmup) || parser.isSet(steps))
        if (!parser.isSet(warmup) && cfg.warmup_steps > cfg.steps)
            cfg.warmup_steps = cfg.steps / 10;  // a preset's warm-up longer than a short --steps run
    intOption(parser, seed.names().front(), 0, cfg.seed, problems);
    intOption(parser, threads.names().front(), 0, cfg.threads, problems);
    if (const std::optional<Problem> tooMany = threadsFlagProblem(parser.value(threads), cfg.threads);
        parser.isSet(threads) && tooMany)
        problems.push_back(*tooMany);
    if (parser.isSet(attention)) {
        if (const auto kernel = lse::reference::attentionAlgorithmFromName(parser.value(attention).toStdString()))
            cfg.options.attention_kernel = *kernel;
        else
            problems.push_back(problem("--attention", "choice", "--attention must be naive or tiled (training.attention_kernel)."));
    }
    int checkpointEvery = 0;
    intOption(parser, every.names().front(), 1, checkpointEvery, problems);
    if (parser.isSet(every) && !parser.isSet(dir))
        problems.push_back(problem("--checkpoint-dir", "required", "--checkpoint-every needs --checkpoint-dir D."));
    if (cfg.data_path.empty() && !parser.isSet(data))
        problems.push_back(problem("--data", "required", "--data tokens.bin is required (or data_path in the config)."));
    // A config field set by a flag is named as the user typed it, with the field beside it.
    const std::pair<const QCommandLineOption *, const char *> flagFields[] = {
        {&steps, "training.steps"},         {&batch, "training.batch_size"}, {&lr, "training.lr_max"},
        {&warmup, "training.warmup_steps"}, {&seed, "training.seed"},        {&threads, "training.threads"},
        {&data, "data_path"},               {&val, "validation_path"}};
    for (Problem &p : lse::reference::validateTrainConfig(cfg)) {
        for (const auto &[option, field] : flagFields)
            if (parser.isSet(*option) && p.field == field) {
                p.field = "--" + option->names().front().toStdString() + " (" + field + ")";
                break;
            }
        problems.push_back(std::move(p));
    }
    // The files this run reads, none of which a checkpoint may replace.
    std::vector<InputFile> inputs;
    for (const auto &[inputFlag, inputPath] : {std::pair{"--data", cfg.data_path}, {"--val", cfg.validation_path}})
        if (!inputPath.empty())
            inputs.push_back({inputFlag, QString::fromStdString(inputPath)});
    if (parser.isSet(config))
        inputs.push_back({"--config", parser.value(config)});
    if (parser.isSet(dir))
        if (std::optional<Problem> same = checkpointNameOfAnInput(parser.value(dir), inputs))
            problems.push_back(*same);
    std::vector<InputFile> traceInputs = inputs;  // a trace must not replace the checkpoint it resumes either
    if (parser.isSet(resume))
        traceInputs.push_back({"--resume", parser.value(resume)});
    const TraceRequest traceRequest = readTraceOptions(parser, traceInputs, problems);
    // Data parallelism (issue 19): checked here with the other flags, run by data_parallel_train.cpp.
    DataParallelRun parallelRun;
    if (parser.isSet(dp)) {
        intOption(parser, dp.names().front(), 1, parallelRun.ranks, problems);
        int zeroStage = 0;
        intOption(parser, zero.names().front(), 0, zeroStage, problems);
        if (zeroStage > 3)
            problems.push_back(problem("--zero", "range", "--zero must be 0, 1, 2 or 3."));
        int bucketMb = 25;
        intOption(parser, bucket.names().front(), 0, bucketMb, problems);
        if (parser.isSet(bucket) && zeroStage > 0)
            problems.push_back(problem("--bucket-mb", "conflict", "--bucket-mb applies to --zero 0 (ZeRO-1/2 reduce-scatter the whole arena, ZeRO-3 one layer at a time)."));
        parallelRun.options.mode = zeroStage == 1   ? lse::distributed::DataParallelMode::Zero1
                                   : zeroStage == 2 ? lse::distributed::DataParallelMode::Zero2
                                   : zeroStage == 3 ? lse::distributed::DataParallelMode::Zero3
                                   : bucketMb == 0  ? lse::distributed::DataParallelMode::Naive
                                                    : lse::distributed::DataParallelMode::Bucketed;
        parallelRun.options.bucket_bytes = std::int64_t(std::max(bucketMb, 1)) * 1024 * 1024;
        parallelRun.json = parser.isSet(json);
        if (parallelRun.ranks > 0 && cfg.batch_size % parallelRun.ranks != 0)
            problems.push_back(problem("--batch", "divisible",
                                       QStringLiteral("--batch %1 (training.batch_size) must be divisible by --dp %2: each rank "
                                                      "trains on an equal slice of the global batch.")
                                           .arg(cfg.batch_size)
                                           .arg(parallelRun.ranks)
                                           .toStdString()));
        parallelRun.checkpoint_dir = parser.value(dir);
        parallelRun.checkpoint_every = checkpointEvery;
        parallelRun.resume_path = parser.value(resume);
        parallelRun.trace = traceRequest;
    } else {
        for (const QCommandLineOption *needsDp : {&zero, &bucket})
            if (parser.isSet(*needsDp))
                problems.push_back(problem("--" + needsDp->names().front().toStdString(), "requires",
                                           "--" + needsDp->names().front().toStdString() + " needs --dp N."));
    }
    // Tensor parallelism (issue 33): run by tensor_parallel_train.cpp.
    TensorParallelRun tensorRun;
    if (parser.isSet(tp)) {
        checkTensorParallelFlags(parser, tp, sp, cfg, {&zero, &bucket, &dir, &every, &resume, &trace}, tensorRun,
                                 problems);
        tensorRun.json = parser.isSet(json);
        if (parser.isSet(dp))  // dp x tp (issue 33): --dp was read and checked above
            tensorRun.dp = std::max(1, parallelRun.ranks);
    } else if (parser.isSet(sp)) {
        problems.push_back(problem("--sp", "requires", "--sp needs --tp T (sequence parallelism splits what tensor parallelism replicates)."));
    }
    PipelineParallelRun pipelineRun;
    if (parser.isSet(pp))
        readPipelineOptions(parser, pp, schedule, microBatches, cfg, pipelineRun, problems);
    else
        for (const QCommandLineOption *needsPp : {&schedule, &microBatches})
            if (parser.isSet(*needsPp))
                problems.push_back(problem("--" + needsPp->names().front().toStdString(), "requires",
                                           "--" + needsPp->names().front().toStdString() + " needs --pp P."));
    if (parser.isSet(pp)) {
        pipelineRun.json = parser.isSet(json);
        if (parser.isSet(dp))  // dp x pp (issue 33): --dp was read and checked above
            pipelineRun.dp = std::max(1, parallelRun.ranks);
        for (const QCommandLineOption *other : {&zero, &bucket, &resume, &dir, &every})
            if (parser.isSet(*other))
                problems.push_back(problem("--" + other->names().front().toStdString(), "conflict",
                                           "--" + other->names().front().toStdString()
                                               + " is not supported with --pp (pipeline runs train from scratch, without "
                                                 "checkpoints or ZeRO sharding; --dp D --pp P runs on D·P ranks)."));
        if (traceRequest.requested())
            problems.push_back(problem("--trace", "conflict", "--trace is not supported with --pp."));
    }
    if (parser.isSet(tp) && parser.isSet(pp))
        problems.push_back(problem("--pp", "conflict", "--pp cannot be combined with --tp yet (one parallelism per run)."));
    if (!problems.empty())
        return reportProblems(problems);
    if (parser.isSet(tp))
        return runTensorParallelTraining(cfg, tensorRun);
    if (parser.isSet(pp))
        return runPipelineParallelTraining(cfg, pipelineRun);
    if (parser.isSet(dp))
        return runDataParallelTraining(cfg, parallelRun);

    // The cached roofline of this machine: the MFU reference (unless the config gives a peak) and
    // the step-time prediction. Its peak is chosen once the thread count is known. A checkpoint's
    // peak is the one its first run used, so a cached measurement replaces it on resume.
    std::string whyNoRoofline;
    std::optional<MachineRoofline> roofline = loadCachedMachineRoofline(&whyNoRoofline);
    const bool peakFromConfig = cfg.peak_flops_per_s > 0 && !(parser.isSet(resume) && roofline);
    Result<std::unique_ptr<Trainer>> created = parser.isSet(resume)
                                                   ? Trainer::resume(parser.value(resume).toStdString(), cfg)
                                                   : Trainer::create(cfg);
    if (!created)
        return reportProblems(created.problems());
    Trainer &trainer = *created.value();
    const TrainConfig &run = trainer.config();
    const QString checkpointDir = parser.value(dir);
    if (parser.isSet(dir) && !QDir().mkpath(checkpointDir))
        return reportProblems({problem("--checkpoint-dir", "unwritable", "--checkpoint-dir " + checkpointDir.toStdString() + ": cannot create.")});
    // One run per checkpoint folder: two runs into one folder interleaved their step files.
    FolderLock checkpointLock;
    if (parser.isSet(dir)) {
        Result<FolderLock> lock = FolderLock::acquire(QFile::encodeName(checkpointDir).toStdString(), "--checkpoint-dir",
                                                      "llm-explorer-cli train");
        if (!lock)
            return reportProblems(lock.problems());
        checkpointLock = std::move(lock.value());
    }

    const lse::reference::ThreadChoice &threadChoice = trainer.threadChoice();
    const bool oneCore = threadChoice.threads == 1;
    // This CPU's roofline and kernel factors at the run's threads: cached, or measured again now
    // when the cache is stale (never measured at all: as before, the run says to run `machine`).
    std::optional<lse::reference::CpuMachine> cpu;
    if (roofline) {
        cpu = lse::reference::cpuMachineForRun(threadChoice.threads, false, [](std::string_view stage, int index, int count) {
            printError(QStringLiteral("measuring [%1/%2]: %3...\n").arg(index + 1).arg(count).arg(QString::fromUtf8(stage.data(), qsizetype(stage.size()))));
        });
        if (cpu && !cpu->remeasured_because.empty())
            printError(QStringLiteral("measured this CPU's roofline and kernel factors again: %1\n").arg(QString::fromStdString(cpu->remeasured_because)));
        if (cpu && !cpu->implausible_because.empty())
            printError(QStringLiteral("warning: %1; the prediction is too slow, and the next run measures them again\n")
                           .arg(QString::fromStdString(cpu->implausible_because)));
        if (cpu && !peakFromConfig)
            roofline = cpu->roofline;
    }
    QString peakNote;
    if (peakFromConfig) {
        peakNote = QStringLiteral("MFU against the config's peak of %1 GFLOP/s\n").arg(run.peak_flops_per_s / 1e9, 0, 'f', 1);
    } else if (roofline) {
        trainer.setPeakFlopsPerSecond(oneCore ? roofline->peak_flops_per_s_one_core : roofline->peak_flops_per_s_all_cores);
        peakNote = QStringLiteral("MFU against the cached SGEMM peak of %1 GFLOP/s (%2, measured %3)\n")
                       .arg(run.peak_flops_per_s / 1e9, 0, 'f', 1)
                       .arg(oneCore ? QStringLiteral("one core") : QStringLiteral("all cores"))
                       .arg(QString::fromStdString(roofline->measured_at));
    } else {
        trainer.setPeakFlopsPerSecond(0);
        peakNote = QStringLiteral("MFU: run `llm-explorer-cli machine` first (no cached peak: %1)\n")
                       .arg(QString::fromStdString(whyNoRoofline));
    }
    if (roofline)
        for (const Problem &warning : machineRooflineWarnings(*roofline))
            peakNote += QStringLiteral("warning: the cached machine roofline looks wrong: %1; run `llm-explorer-cli machine "
                                       "--remeasure` on an idle machine\n")
                            .arg(QString::fromStdString(warning.message));
    // Predicted from this CPU's kernel factors alone, before any step runs.
    std::optional<lse::reference::ReferenceStepPrediction> prediction;
    QString predictionNote;
    if (cpu) {
        Result<lse::reference::ReferenceStepPrediction> predicted = lse::reference::predictReferenceStep(run, cpu->kernels);
        if (predicted)
            prediction = predicted.value();
        else
            predictionNote = QString::fromStdString(formatProblems(predicted.problems())).trimmed();
    } else {
        predictionNote = QStringLiteral("no cached roofline of this machine (%1)").arg(QString::fromStdString(whyNoRoofline));
    }

    printError(QStringLiteral("model %1: %2 parameters, context %3, batch %4, %5; steps %6..%7\n")
                   .arg(QString::fromStdString(run.model.name))
                   .arg(formatCount(double(trainer.model().parameterCount())))
                   .arg(run.model.max_seq_len)
                   .arg(run.batch_size)
                   .arg(QString::fromStdString(threadChoice.reason()))
                   .arg(trainer.currentStep() + 1)
                   .arg(run.steps));
    printError(peakNote);

    auto save = [&](int step) -> Result<bool> {
        const QString path = QDir(checkpointDir).filePath(QStringLiteral("step_%1.safetensors").arg(step, 6, 10, QLatin1Char('0')));
        if (std::optional<Problem> same = outputIsAnInput("--checkpoint-dir", path, inputs))
            return Problems{*same};
        Result<bool> saved = trainer.saveCheckpoint(path.toStdString());
        if (!saved)
            return Result<bool>(namedAfterFlag(saved.problems(), "--checkpoint-dir", path));
        printError(QStringLiteral("checkpoint %1\n").arg(path));
        return saved;
    };

    StepReport last;
    std::optional<double> lastValidation;
    double seconds = 0, flops = 0, tokens = 0;
    int taken = 0;
    std::vector<double> stepSeconds;
    std::vector<double> stepCpuSeconds;  // the process's CPU time in each step, all threads
    std::vector<lse::reference::OpRecord> profileAfterFirst;  // the op times of the first step, left out of the comparison
    // --trace: the log is made (its room reserved) before the first step, attached for the steps
    // of the window only.
    const lse::reference::TraceWindow traceWindow =
        lse::reference::traceWindow(run.steps - trainer.currentStep(), traceRequest.requested() ? traceRequest.steps : 0);
    std::optional<lse::reference::OpTraceLog> traceLog;
    if (traceRequest.requested())
        traceLog.emplace(lse::reference::traceCapacityForSteps(run.model.n_layers, traceWindow.count));
    while (trainer.currentStep() < run.steps) {
        trainer.model().profiler().setTrace(traceLog && traceWindow.covers(taken) ? &*traceLog : nullptr);
        const double cpuBefore = processCpuSeconds();
        Result<StepReport> report = trainer.step();
        trainer.model().profiler().setTrace(nullptr);
        const double cpuSeconds = processCpuSeconds() - cpuBefore;
        if (!report && report.problems().front().rule == lse::reference::kDivergedRule) {
            printError(QStringLiteral("error: %1").arg(QString::fromStdString(formatProblems(report.problems()))));
            return kExitDiverged;
        }
        if (!report)
            return reportProblems(report.problems());
        last = report.value();
        ++taken;
        if (taken == 1)
            profileAfterFirst = trainer.profiler().records();
        stepSeconds.push_back(last.seconds);
        stepCpuSeconds.push_back(cpuSeconds - last.validation_cpu_seconds);
        seconds += last.seconds;
        flops += last.flops;
        tokens += double(run.batch_size) * double(run.model.max_seq_len);
        if (last.validation_loss)
            lastValidation = last.validation_loss;
        QString line = QStringLiteral("step %1/%2  loss %3  lr %4  grad %5  %6 tok/s  %7 GFLOP/s")
                           .arg(last.step)
                           .arg(run.steps)
                           .arg(last.loss, 0, 'f', 4)
                           .arg(last.learning_rate, 0, 'e', 2)
                           .arg(last.grad_norm, 0, 'f', 3)
                           .arg(last.tokens_per_s, 0, 'f', 0)
                           .arg(last.achieved_flops_per_s / 1e9, 0, 'f', 1);
        if (run.peak_flops_per_s > 0)
            line += QStringLiteral("  ") + mfuText(last.mfu);
        if (last.validation_loss)
            line += QStringLiteral("  val %1").arg(*last.validation_loss, 0, 'f', 4);
        printError(line + QLatin1Char('\n'));
        const bool lastStep = trainer.currentStep() == run.steps;
        if (parser.isSet(dir) && ((checkpointEvery > 0 && last.step % checkpointEvery == 0) || lastStep)) {
            if (Result<bool> saved = save(last.step); !saved) {
                // Non-finite weights are divergence (exit 3); a failed write reports the system's
                // text (exit 2). Either way the older checkpoints stay.
                if (saved.problems().front().rule == "non-finite") {
                    printError(QString::fromStdString(formatProblems(saved.problems())));
                    return kExitDiverged;
                }
                return reportProblems(saved.problems());
            }
        }
    }
    if (traceLog) {
        const std::string document = lse::reference::chromeTraceDocument(
            {lse::reference::chromeTraceProcessEvents(*traceLog, 0, "llm-explorer-cli train")},
            {{"producer", "llm-explorer-cli train"},
             {"model", run.model.name},
             {"batch_size", std::to_string(run.batch_size)},
             {"context", std::to_string(run.model.max_seq_len)},
             {"threads", std::to_string(threadChoice.threads)},
             {"steps_traced", std::to_string(traceWindow.count)},
             {"dropped_events", std::to_string(traceLog->dropped())}});
        if (Problems failed = writeTraceFile(traceRequest.path, document); !failed.empty())
            return reportProblems(failed);
        if (traceLog->dropped() > 0)  // never expected: the room is sized from the model's layers
            printError(QStringLiteral("warning: %1 call(s) did not fit the trace's reserved room and are missing from it\n")
                           .arg(traceLog->dropped()));
        printError(QStringLiteral("trace %1 (%2 step(s), %3 events)\n")
                       .arg(traceRequest.path)
                       .arg(traceWindow.count)
                       .arg(qsizetype(traceLog->events().size())));
    }
    if (!lastValidation && taken > 0) {
        Result<double> v = trainer.validationLoss();
        if (!v)
            return reportProblems(v.problems());
        lastValidation = v.value();
    }

    const double tokensPerS = seconds > 0 ? tokens / seconds : 0;
    const double achieved = seconds > 0 ? flops / seconds : 0;
    const double mfu = run.peak_flops_per_s > 0 ? achieved / run.peak_flops_per_s : 0;
    printError(QStringLiteral("done: %1 steps, final loss %2, validation loss %3, %4 tok/s, %5 GFLOP/s%6\n")
                   .arg(taken)
                   .arg(last.loss, 0, 'f', 4)
                   .arg(lastValidation.value_or(0), 0, 'f', 4)
                   .arg(tokensPerS, 0, 'f', 0)
                   .arg(achieved / 1e9, 0, 'f', 1)
                   .arg(run.peak_flops_per_s > 0 ? QStringLiteral(", ") + mfuText(mfu) : QString()));
    const double measuredStep = lse::reference::typicalStepSeconds(stepSeconds);
    const std::optional<double> stepDifference =
        prediction ? lse::reference::signedDifference(measuredStep, prediction->seconds) : std::nullopt;
    const lse::reference::OpProfiler &profiler = trainer.profiler();
    std::vector<lse::reference::OperatorComparison> comparison;
    if (prediction) {
        printError(QStringLiteral("step time: predicted %1 ms (operator-level predictor, this CPU's kernel factors at %2; %7 ms on "
                                  "idle cores + %8 ms while other processes held them, %9% of the cores ours while measuring), measured "
                                  "%3 ms (median of %4; CPU time %6 ms per thread), difference %5\n")
                       .arg(prediction->seconds * 1e3, 0, 'f', 2)
                       .arg(oneCore ? QStringLiteral("1 thread") : QStringLiteral("%1 threads").arg(threadChoice.threads))
                       .arg(measuredStep * 1e3, 0, 'f', 2)
                       .arg(stepSeconds.size() > 1 ? QStringLiteral("the steps after the first") : QStringLiteral("the one step"))
                       .arg(stepDifference ? signedPct(*stepDifference) : QStringLiteral("-"))
                       .arg(lse::reference::typicalStepSeconds(stepCpuSeconds) / std::max(1, threadChoice.threads) * 1e3, 0, 'f', 2)
                       .arg(prediction->idle_seconds * 1e3, 0, 'f', 2)
                       .arg(prediction->other_processes_seconds * 1e3, 0, 'f', 2)
                       .arg(prediction->cpu_share * 100, 0, 'f', 0));
        const bool pastFirst = taken > 1;
        comparison = lse::reference::compareOperators(*prediction, pastFirst ? profileAfterFirst : std::vector<lse::reference::OpRecord>{},
                                                      profiler.records(), pastFirst ? taken - 1 : taken, measuredStep);
    } else {
        printError(QStringLiteral("step time: measured %1 ms; no prediction: %2\n").arg(measuredStep * 1e3, 0, 'f', 2).arg(predictionNote));
    }
    const double opSeconds = profiler.totalSeconds();
    if (!parser.isSet(json)) {
        printError(QString::fromStdString(profiler.table()));
        if (!comparison.empty()) {
            printError(QStringLiteral("\nper step, largest differences first:\n%1 %2 %3 %4 %5\n")
                           .arg(QStringLiteral("op"), -24).arg(QStringLiteral("pass"), -9).arg(QStringLiteral("predicted ms"), 13)
                           .arg(QStringLiteral("measured ms"), 13).arg(QStringLiteral("difference"), 11));
            for (const lse::reference::OperatorComparison &c : comparison)
                printError(QStringLiteral("%1 %2 %3 %4 %5\n")
                               .arg(QString::fromStdString(c.name), -24).arg(QString::fromStdString(c.pass), -9)
                               .arg(c.predicted_seconds * 1e3, 13, 'f', 3).arg(c.measured_seconds * 1e3, 13, 'f', 3)
                               .arg(c.predicted_seconds > 0 ? signedPct(c.difference_fraction) : QStringLiteral("-"), 11));
        }
        return kExitOk;
    }
    QJsonArray ops;
    for (const lse::reference::OpRecord &r : profiler.records()) {
        QJsonObject o;
        o["name"] = QString::fromLatin1(r.name);
        o["phase"] = r.phase == lse::reference::OpPhase::Forward ? QStringLiteral("forward") : QStringLiteral("backward");
        o["calls"] = qint64(r.calls);
        o["flops"] = r.flops;
        o["seconds"] = r.seconds;
        o["share"] = opSeconds > 0 ? r.seconds / opSeconds : 0.0;
        ops.append(o);
    }
    const lse::reference::ReferenceMemory memory = trainer.memory();
    QJsonObject mem;
    mem["parameters"] = memory.parameters;
    mem["gradients"] = memory.gradients;
    mem["optimizer"] = trainer.optimizerStateBytes();
    mem["activations"] = memory.activations;
    mem["workspace"] = memory.workspace;
    QJsonObject out;
    out["model"] = QString::fromStdString(run.model.name);
    out["parameters"] = qint64(trainer.model().parameterCount());
    out["steps"] = trainer.currentStep();
    out["steps_this_run"] = taken;
    out["batch_size"] = run.batch_size;
    out["context"] = qint64(run.model.max_seq_len);
    out["final_loss"] = last.loss;
    out["validation_loss"] = lastValidation ? QJsonValue(*lastValidation) : QJsonValue();
    out["seconds"] = seconds;
    out["tokens_per_s"] = tokensPerS;
    out["flops_per_step"] = taken > 0 ? flops / taken : 0.0;
    out["achieved_flops_per_s"] = achieved;
    out["peak_flops_per_s"] = run.peak_flops_per_s;
    // An MFU above 100% is no result: null, with mfu_exceeds_peak saying why.
    const bool mfuExceeds = run.peak_flops_per_s > 0 && lse::reference::exceedsMeasuredPeak(mfu);
    out["mfu"] = run.peak_flops_per_s > 0 && !mfuExceeds ? QJsonValue(mfu) : QJsonValue();
    out["mfu_exceeds_peak"] = mfuExceeds;
    out["threads"] = threadChoice.threads;
    out["threads_requested"] = threadChoice.requested;
    out["busy_cores"] = threadChoice.busy_cores >= 0 ? QJsonValue(threadChoice.busy_cores) : QJsonValue();
    QJsonObject stepTime;
    stepTime["measured_seconds"] = measuredStep;  // typicalStepSeconds: median of the steps after the first
    stepTime["predicted_seconds"] = prediction ? QJsonValue(prediction->seconds) : QJsonValue();
    stepTime["predicted_idle_seconds"] = prediction ? QJsonValue(prediction->idle_seconds) : QJsonValue();
    stepTime["predicted_other_processes_seconds"] = prediction ? QJsonValue(prediction->other_processes_seconds) : QJsonValue();
    stepTime["cpu_share"] = prediction ? QJsonValue(prediction->cpu_share) : QJsonValue();
    stepTime["difference"] = stepDifference ? QJsonValue(*stepDifference) : QJsonValue();
    // Median CPU time per step of the steps after the first, per thread: below measured_seconds when
    // other processes held the cores for part of the step (at one thread, the time the step ran).
    stepTime["measured_cpu_seconds_per_thread"] = lse::reference::typicalStepSeconds(stepCpuSeconds) / std::max(1, threadChoice.threads);
    stepTime["predictor"] = QStringLiteral("operator-level (core/performance) with this CPU's kernel factors");
    stepTime["threads"] = threadChoice.threads;
    stepTime["roofline_measured_at"] = roofline ? QJsonValue(QString::fromStdString(roofline->measured_at)) : QJsonValue();
    stepTime["kernels_measured_at"] = cpu ? QJsonValue(QString::fromStdString(cpu->kernels.measured_at)) : QJsonValue();
    stepTime["remeasured_because"] = cpu && !cpu->remeasured_because.empty() ? QJsonValue(QString::fromStdString(cpu->remeasured_because))
                                                                             : QJsonValue();
    stepTime["kernels_implausible_because"] = cpu && !cpu->implausible_because.empty()
                                                  ? QJsonValue(QString::fromStdString(cpu->implausible_because))
                                                  : QJsonValue();
    QJsonArray operators;
    for (const lse::reference::OperatorComparison &c : comparison)
        operators.append(QJsonObject{{"name", QString::fromStdString(c.name)},
                                     {"pass", QString::fromStdString(c.pass)},
                                     {"predicted_seconds", c.predicted_seconds},
                                     {"measured_seconds", c.measured_seconds},
                                     {"difference_fraction", c.predicted_seconds > 0 ? QJsonValue(c.difference_fraction) : QJsonValue()}});
    stepTime["operators"] = operators;
    if (!prediction)
        stepTime["no_prediction"] = predictionNote;
    out["step_time"] = stepTime;
    out["memory_bytes"] = mem;
    out["ops"] = ops;
    printJson(out);
    return kExitOk;
}

}  // namespace lse::cli
