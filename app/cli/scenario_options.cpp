// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario_options.h"

#include "file_arguments.h"
#include "output.h"
#include "hardware/hardware_catalog.h"
#include "scenario/hf_import.h"
#include "scenario/presets.h"
#include "scenario/scenario_adjust.h"
#include "scenario/scenario_json.h"
#include "scenario/stage_layers.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>

namespace lse::cli {

namespace {

struct Flag {
    const char *name;
    const char *value;  // nullptr for a switch
    const char *help;
};

const Flag kFlags[] = {
    {"scenario", "FILE", "Start from this scenario file (default: the course example, 70B on 1024 H100)."},
    {"model", "PRESET|FILE", "Model preset id (see 'presets') or a Hugging Face config.json. Settings the model "
                             "rules out change to the nearest valid value (said on stderr) unless given as flags."},
    {"gpu", "ID", "Accelerator id (see 'hardware')."},
    {"gpus", "N", "Number of GPUs. dp follows from gpus/(tp·pp·cp) unless --dp is given."},
    {"gpus-per-node", "N", "GPUs per node (decides which groups cross the network)."},
    {"peak-tflops", "X", "Override the accelerator's dense peak for the matmul precision, in TFLOP/s."},
    {"tokens", "N", "Training tokens (accepts 15e12, 15T, 300B)."},
    {"seq-len", "N", "Sequence length in tokens."},
    {"global-batch", "N", "Sequences per optimizer step."},
    {"micro-batch", "N", "Sequences per forward pass per GPU."},
    {"dp", "N", "Data-parallel degree."},
    {"tp", "N", "Tensor-parallel degree."},
    {"pp", "N", "Pipeline-parallel degree."},
    {"cp", "N", "Context-parallel degree."},
    {"ep", "N", "Expert-parallel degree (MoE models)."},
    {"virtual-stages", "N", "Interleaved pipeline chunks per GPU."},
    {"stage-layers", "N,N,...|auto", "Transformer layers on each pipeline stage, stage 0 first: one count per "
                                     "stage, summing to the model's layers (auto: as even as possible, the first "
                                     "and last stage lighter)."},
    {"sp", "on|off", "Sequence parallelism (with tp > 1)."},
    {"zero", "0..3", "ZeRO stage over the data-parallel group."},
    {"recompute", "none|selective|full", "Activation recomputation."},
    {"precision", "fp32|bf16-mixed|fp16-mixed|fp8-mixed", "Precision recipe."},
    {"grad-dtype", "fp32|bf16|fp16", "Gradient dtype (fp32 gives the 18-bytes-per-parameter convention)."},
    {"master-weights", "on|off", "The fp32 master copy (off: the 12-bytes-per-parameter convention)."},
    {"no-master-weights", nullptr, "Deprecated: use --master-weights off."},
    {"optimizer", "sgd|momentum|adam|adamw|adafactor|adam8bit", "Optimizer."},
    {"mfu", "X|predicted", "Model FLOPs utilization: a given 0 < X <= 1, or 'predicted' from the step's operators, "
                           "exposed communication and pipeline bubble (see 'validate')."},
    {"flash-attention", "on|off", "FlashAttention (no s x s activations)."},
    {"attention-kernel", "flash2|flash3",
     "Which FlashAttention kernel the step-time model times: FlashAttention-2 (Dao 2023) or -3 (Hopper, Shah et al. "
     "2024), each at its own fitted fraction of the peak (default flash2)."},
    {"fused-elementwise", "on|off",
     "Element-wise chains fused into one kernel each (Megatron-LM bias-GeLU, bias-dropout-add, scale-mask-softmax; "
     "default on)."},
    {"dropout", "on|off", "Dropout masks saved as activations (Korthikanti et al. count them)."},
    {"attention-flops", "full|causal", "Count the whole s x s score matrix or half of it."},
    {"flops-model", "exact|6nd", "Which FLOP count drives the time estimate."},
    {"intra-node-gbps", "X", "Link bandwidth per GPU inside a node, one direction, Gbit/s (default: the "
                             "accelerator's catalog value, e.g. 2400 = NVLink3's 300 GB/s)."},
    {"inter-node-gbps", "X", "Network bandwidth per GPU across nodes, one direction, Gbit/s (default: the "
                             "catalog's, e.g. 200 for HDR InfiniBand, 400 for NDR)."},
    {"link-latency-us", "X", "Latency of every link hop (inside and across nodes), in microseconds."},
    {"dp-overlap", "on|off", "DP gradient reduction overlaps the backward pass (off: older Megatron runs)."},
    {"param-gather-overlap", "on|off",
     "ZeRO-1/2: the parameter all-gather overlaps the next forward pass (Megatron-Core overlap_param_gather; default on)."},
    {"tp-comm-overlap", "on|off",
     "TP collectives pipelined with their GEMMs (Megatron-Core --tp-comm-overlap, async TP; default off)."},
    {"pp-comm-overlap", "on|off", "Pipeline sends overlap the next chunk's compute (Megatron-Core overlap_p2p_comm; default off)."},
    {"price", "X", "Price per GPU-hour."},
    {"reserve-gb", "X", "Memory per GPU reserved by the framework, in GB (default 4.1: CUDA context, NCCL buffers, "
                        "allocator fragmentation; docs/cost-model.md)."},
};

// The scenario field each flag sets, by the validation's field names, so a problem the core finds
// in a field can name the flag the user typed.
struct FlagField {
    const char *flag;
    const char *field;
};

const FlagField kFlagFields[] = {
    {"gpu", "cluster.accelerator"},
    {"gpus", "cluster.gpus"},
    {"gpus-per-node", "cluster.gpus_per_node"},
    {"peak-tflops", "cluster.peak_flops_per_second_override"},
    {"tokens", "training.tokens"},
    {"seq-len", "training.seq_len"},
    {"global-batch", "training.global_batch"},
    {"micro-batch", "training.micro_batch"},
    {"dp", "training.dp"},
    {"tp", "training.tp"},
    {"pp", "training.pp"},
    {"cp", "training.cp"},
    {"ep", "training.ep"},
    {"virtual-stages", "training.virtual_stages"},
    {"stage-layers", "training.stage_layers"},
    {"zero", "training.zero_stage"},
    {"precision", "training.precision.recipe"},
    {"grad-dtype", "training.precision.gradient_dtype"},
    {"mfu", "training.mfu"},
    {"price", "cluster.price_per_gpu_hour"},
    {"intra-node-gbps", "cluster.intra_node_gbps_per_gpu"},
    {"inter-node-gbps", "cluster.inter_node_gbps_per_gpu"},
    {"link-latency-us", "cluster.intra_node_latency_seconds"},
    {"link-latency-us", "cluster.inter_node_latency_seconds"},
    {"reserve-gb", "training.framework_reserve_bytes"},
};

// The flag that set `field` on this command line, if one did ("cluster.accelerator.memory_bytes"
// belongs to --gpu).
const FlagField *flagSetting(const QCommandLineParser &parser, const std::string &field)
{
    for (const FlagField &entry : kFlagFields) {
        const std::string name = entry.field;
        const bool same = field == name || field.rfind(name + ".", 0) == 0;
        if (same && parser.isSet(entry.flag))
            return &entry;
    }
    return nullptr;
}

QString typed(const QCommandLineParser &parser, const FlagField &entry)
{
    return QStringLiteral("--%1 %2").arg(QLatin1String(entry.flag), parser.value(entry.flag));
}

class ScenarioBuilder {
public:
    ScenarioBuilder(const QCommandLineParser &parser) : parser_(parser) {}

    Problems problems;

    std::optional<Scenario> build()
    {
        Scenario scenario = defaultScenario();
        if (parser_.isSet("scenario")) {
            Result<Scenario> loaded = loadScenarioFile(parser_.value("scenario").toStdString());
            if (!loaded) {
                problems = namedAfterFlag(loaded.problems(), "--scenario", parser_.value("scenario"));
                return std::nullopt;
            }
            scenario = *loaded;
        }
        applyGpu(scenario);
        applyNumbers(scenario);
        applyChoices(scenario);
        // Last, so that the model is fitted to the cluster the flags describe and never overrides them.
        applyModel(scenario);
        if (!problems.empty())
            return std::nullopt;
        return scenario;
    }

    std::vector<std::string> adjustments;

private:
    void add(const QString &flag, const std::string &rule, const QString &message)
    {
        problems.push_back({"--" + flag.toStdString(), rule, ("--" + flag + " " + message).toStdString()});
    }

    // Fields the flags set, by the validation names: the model adaptation leaves them as given.
    PinnedFields fieldsSetByFlags() const
    {
        PinnedFields fields;
        for (const FlagField &entry : kFlagFields)
            if (parser_.isSet(entry.flag))
                fields.insert(entry.field);
        return fields;
    }

    void applyModel(Scenario &scenario)
    {
        if (!parser_.isSet("model"))
            return;
        const QString value = parser_.value("model");
        std::optional<ModelConfig> model;
        if (const ModelPreset *preset = findModelPreset(value.toStdString())) {
            model = preset->model;
        } else if (QFileInfo(value).isFile()) {
            Result<ModelConfig> imported = loadHuggingFaceConfigFile(value.toStdString());
            if (imported) {
                model = *imported;
            } else {
                for (Problem problem : imported.problems()) {
                    problem.field = "--model " + problem.field;
                    problems.push_back(problem);
                }
                return;
            }
        } else {
            add("model", "unknown", QStringLiteral("'%1' is neither a preset id (see 'llm-explorer-cli presets') "
                                                   "nor a config.json file").arg(value));
            return;
        }
        // The same rule as the GUI's import and preset choice (core/scenario/scenario_adjust.h).
        Adjusted adjusted = adaptScenarioToModel(scenario, *model, fieldsSetByFlags());
        scenario = std::move(adjusted.scenario);
        adjustments = std::move(adjusted.adjustments);
    }

    void applyGpu(Scenario &scenario)
    {
        if (!parser_.isSet("gpu"))
            return;
        const QString value = parser_.value("gpu");
        if (const Accelerator *gpu = builtinHardwareCatalog().find(value.toStdString()))
            scenario.cluster.accelerator = *gpu;
        else
            add("gpu", "unknown", QStringLiteral("'%1' is not in the catalog (see 'llm-explorer-cli hardware')").arg(value));
    }

    template <typename Target>
    void count(const char *flag, Target &target)
    {
        if (!parser_.isSet(flag))
            return;
        const QString text = parser_.value(flag);
        const std::optional<std::int64_t> value = parseCount(text);
        if (!value) {
            add(flag, "integer", countRefusal(text));
            return;
        }
        if (sizeof(Target) < sizeof(std::int64_t) && *value > 2147483647) {
            add(flag, "maximum", QStringLiteral("'%1' is larger than 2147483647").arg(text));
            return;
        }
        target = Target(*value);
    }

    // The value times `scale`, or nothing (and a problem quoting the text) when it is not a finite number.
    std::optional<double> scaledNumber(const char *flag, double scale)
    {
        const QString text = parser_.value(flag);
        const std::optional<double> value = parseNumber(text);
        if (value && std::isfinite(*value * scale))
            return *value * scale;
        add(flag, "number", QStringLiteral("'%1' is not a finite decimal number").arg(text));
        return std::nullopt;
    }

    void positiveGbps(const char *flag, std::optional<double> &target)
    {
        if (!parser_.isSet(flag))
            return;
        const std::optional<double> gbps = scaledNumber(flag, 1);
        if (gbps && *gbps <= 0)
            add(flag, "positive", QStringLiteral("'%1' must be a bandwidth above 0 Gbit/s").arg(parser_.value(flag)));
        else if (gbps)
            target = *gbps;
    }

    void number(const char *flag, double &target)
    {
        if (!parser_.isSet(flag))
            return;
        if (const std::optional<double> value = scaledNumber(flag, 1))
            target = *value;
    }

    // The list's length and sum are validation's rules (they name training.stage_layers, which
    // nameScenarioFlags turns into this flag); here only its form.
    void stageLayers(std::vector<int> &target)
    {
        if (!parser_.isSet("stage-layers"))
            return;
        const QString text = parser_.value("stage-layers").trimmed();
        if (text.compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0) {
            target.clear();
            return;
        }
        const std::optional<std::vector<int>> layers = parseStageLayers(text.toStdString());
        if (!layers || layers->empty())
            add("stage-layers", "list",
                QStringLiteral("'%1' is not a comma-separated list of layer counts, one per stage (e.g. 5,6,6,5), "
                               "or auto")
                    .arg(parser_.value("stage-layers")));
        else
            target = *layers;
    }

    bool onOff(const char *flag, bool &target)
    {
        if (!parser_.isSet(flag))
            return false;
        const QString text = parser_.value(flag).toLower();
        if (text == "on" || text == "true" || text == "1")
            target = true;
        else if (text == "off" || text == "false" || text == "0")
            target = false;
        else
            add(flag, "enum", QStringLiteral("'%1' must be on or off").arg(parser_.value(flag)));
        return true;
    }

    template <typename Enum>
    bool choice(const char *flag, Enum &target, std::optional<Enum> (*parse)(std::string_view), const char *choices)
    {
        if (!parser_.isSet(flag))
            return false;
        const std::string text = parser_.value(flag).toStdString();
        if (const std::optional<Enum> value = parse(text)) {
            target = *value;
            return true;
        }
        add(flag, "enum", QStringLiteral("'%1' is not one of %2").arg(QString::fromStdString(text), choices));
        return false;
    }

    // --mfu predicted, or a given MFU (which also makes the source Given over a scenario file's
    // "predicted").
    void applyMfu(TrainingConfig &training)
    {
        if (!parser_.isSet("mfu"))
            return;
        const QString text = parser_.value("mfu");
        if (text.compare(QLatin1String("predicted"), Qt::CaseInsensitive) == 0) {
            training.mfu_source = MfuSource::Predicted;
            return;
        }
        const std::optional<double> value = parseNumber(text);
        if (!value || !std::isfinite(*value)) {
            add("mfu", "number", QStringLiteral("'%1' is neither 'predicted' nor a number in (0, 1]").arg(text));
            return;
        }
        // The range (0, 1] is the validation's rule, which names --mfu with training.mfu.
        training.mfu = *value;
        training.mfu_source = MfuSource::Given;
    }

    void applyNumbers(Scenario &scenario)
    {
        ClusterConfig &cluster = scenario.cluster;
        TrainingConfig &training = scenario.training;
        ParallelConfig &parallel = training.parallel;
        count("gpus", cluster.gpus);
        count("gpus-per-node", cluster.gpus_per_node);
        if (parser_.isSet("peak-tflops"))
            if (const std::optional<double> flops = scaledNumber("peak-tflops", 1e12))
                cluster.peak_flops_per_second_override = *flops;
        count("tokens", training.tokens);
        count("seq-len", training.seq_len);
        count("global-batch", training.global_batch);
        count("micro-batch", training.micro_batch);
        count("tp", parallel.tp);
        count("pp", parallel.pp);
        count("cp", parallel.cp);
        count("ep", parallel.ep);
        count("virtual-stages", parallel.virtual_stages);
        count("zero", parallel.zero_stage);
        if (parser_.isSet("dp")) {
            count("dp", parallel.dp);
        } else if (parser_.isSet("gpus") || parser_.isSet("tp") || parser_.isSet("pp") || parser_.isSet("cp")) {
            // dp is whatever the other degrees leave; validation names the mismatch if it does not divide.
            const std::int64_t model_parallel = std::int64_t(parallel.tp) * parallel.pp * parallel.cp;
            if (model_parallel > 0 && cluster.gpus % model_parallel == 0)
                parallel.dp = int(cluster.gpus / model_parallel);
        }
        stageLayers(parallel.stage_layers);
        onOff("sp", parallel.sequence_parallel);
        onOff("dp-overlap", parallel.dp_overlap);
        onOff("param-gather-overlap", parallel.dp_param_gather_overlap);
        onOff("tp-comm-overlap", parallel.tp_comm_overlap);
        onOff("pp-comm-overlap", parallel.pp_comm_overlap);
        applyMfu(training);
        number("price", cluster.price_per_gpu_hour);
        positiveGbps("intra-node-gbps", cluster.intra_node_gbps_per_gpu);
        positiveGbps("inter-node-gbps", cluster.inter_node_gbps_per_gpu);
        if (parser_.isSet("link-latency-us")) {
            // One latency for every hop: the flag sets both the intra- and the inter-node field.
            const std::optional<double> seconds = scaledNumber("link-latency-us", 1e-6);
            if (seconds && *seconds < 0)
                add("link-latency-us", "non_negative",
                    QStringLiteral("'%1' is negative; it must be at least 0").arg(parser_.value("link-latency-us")));
            else if (seconds)
                cluster.intra_node_latency_seconds = cluster.inter_node_latency_seconds = *seconds;
        }
        if (parser_.isSet("reserve-gb")) {
            // No clamping: a value beyond a 64-bit byte count is named as typed; the rest reaches
            // validation unchanged, which states the real range.
            const std::optional<double> bytes = scaledNumber("reserve-gb", 1e9);
            if (bytes && std::fabs(*bytes) < 9.2e18)
                training.framework_reserve_bytes = std::int64_t(*bytes);
            else if (bytes)
                add("reserve-gb", "maximum",
                    QStringLiteral("'%1' is %2 bytes, beyond a 64-bit byte count; it must be between 0 and %3 GB")
                        .arg(parser_.value("reserve-gb"))
                        .arg(*bytes, 0, 'g', 3)
                        .arg(double(std::int64_t(1) << 50) / 1e9, 0, 'f', 0));
        }
    }

    void applyChoices(Scenario &scenario)
    {
        TrainingConfig &training = scenario.training;
        choice("recompute", training.recomputation, recomputationFromString, "none|selective|full");
        PrecisionRecipe recipe = training.precision.recipe;
        if (choice("precision", recipe, precisionRecipeFromString, "fp32|bf16-mixed|fp16-mixed|fp8-mixed"))
            training.precision = precisionForRecipe(recipe);
        choice("grad-dtype", training.precision.gradient_dtype, dtypeFromString, "fp32|bf16|fp16");
        if (parser_.isSet("no-master-weights"))
            training.precision.master_weights = false;
        onOff("master-weights", training.precision.master_weights);
        choice("optimizer", training.optimizer, optimizerFromString, "sgd|momentum|adam|adamw|adafactor|adam8bit");
        onOff("flash-attention", training.flash_attention);
        choice("attention-kernel", training.attention_kernel, attentionKernelFromString, "flash2|flash3");
        onOff("fused-elementwise", training.fused_elementwise);
        onOff("dropout", training.dropout);
        choice("attention-flops", training.attention_flops, attentionFlopsFromString, "full|causal");
        choice("flops-model", training.flops_model, flopsModelFromString, "exact|6nd");
    }

    const QCommandLineParser &parser_;
};

}  // namespace

void addScenarioOptions(QCommandLineParser &parser)
{
    for (const Flag &flag : kFlags) {
        if (flag.value)
            parser.addOption(QCommandLineOption(flag.name, flag.help, flag.value));
        else
            parser.addOption(QCommandLineOption(flag.name, flag.help));
    }
}

bool anyScenarioFlagSet(const QCommandLineParser &parser, const QStringList &except)
{
    for (const Flag &flag : kFlags)
        if (!except.contains(QLatin1String(flag.name)) && parser.isSet(QLatin1String(flag.name)))
            return true;
    return false;
}

Problems nameScenarioFlags(Problems problems, const QCommandLineParser &parser)
{
    for (Problem &problem : problems) {
        if (const FlagField *own = flagSetting(parser, problem.field)) {
            problem.message += " (given as " + typed(parser, *own).toStdString() + ")";
            problem.field = "--" + std::string(own->flag) + " (" + problem.field + ")";
            continue;
        }
        // A rule between fields (dp·tp·pp·cp = gpus): name the flags that set the others. Without
        // --dp, dp follows from --gpus (applyNumbers), so --gpus stands behind training.dp.
        QStringList given;
        std::vector<std::string> involved = problem.related;
        involved.insert(involved.begin(), problem.field);
        for (const std::string &related : involved) {
            const FlagField *other = flagSetting(parser, related);
            if (!other && related == "training.dp")
                other = flagSetting(parser, "cluster.gpus");
            if (other && !given.contains(typed(parser, *other)))
                given << typed(parser, *other);
        }
        if (!given.isEmpty())
            problem.message += " (given: " + given.join(QStringLiteral(", ")).toStdString() + ")";
    }
    return problems;
}

Result<Scenario> scenarioFromOptions(const QCommandLineParser &parser, std::vector<std::string> *adjustments)
{
    ScenarioBuilder builder(parser);
    std::optional<Scenario> scenario = builder.build();
    if (!scenario)
        return builder.problems;
    if (!builder.adjustments.empty())
        printError(QStringLiteral("note: adapted the scenario to %1: %2\n")
                       .arg(QString::fromStdString(scenario->model.name),
                            QString::fromStdString(joinAdjustments(builder.adjustments))));
    if (adjustments)
        *adjustments = builder.adjustments;
    return *scenario;
}

}  // namespace lse::cli
