// SPDX-License-Identifier: GPL-3.0-or-later
// The Serving page's controls: building them, their labels and tooltips (formula and source), the
// inputs they describe, how they follow the scenario, and their lesson keys (docs/lesson-pages.md,
// "serving").
#include "pages/serving/serving_page.h"

#include "cost/parameters.h"
#include "hardware/hardware_catalog.h"
#include "inference/serving_format.h"
#include "pages/flow_layout.h"
#include "pages/page_format.h"
#include "pages/serving/cpu_measurement_section.h"
#include "scenario/presets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace lse::gui {

using namespace lse::inference;

namespace {

constexpr int kMaxGpus = 65536;
constexpr int kMaxParallel = 1024;       // core: inference.tp and inference.pp from 1 to 1024
constexpr int kMaxCount = 10'000'000;    // core: batch and token counts up to 10^7
constexpr int kMaxOutputTokens = 1'000'000;  // every decode step is summed: a million keeps a refresh short
constexpr int kMaxDraftTokens = 16;

const QStringList kWeightFormats = {QStringLiteral("fp16"), QStringLiteral("bf16"), QStringLiteral("fp8"),
                                    QStringLiteral("int8"), QStringLiteral("int4")};
const QStringList kOtherFormats = {QStringLiteral("fp16"), QStringLiteral("bf16"), QStringLiteral("fp8"),
                                   QStringLiteral("int8")};

QSpinBox *spin(QWidget *parent, const QString &name, int low, int high)
{
    auto *box = new QSpinBox(parent);
    box->setObjectName(name);
    box->setRange(low, high);
    box->setGroupSeparatorShown(true);
    box->setKeyboardTracking(false);  // recompute when the number is complete, not at each digit
    return box;
}

QComboBox *formatBox(QWidget *parent, const QString &name, const QStringList &formats)
{
    auto *box = new QComboBox(parent);
    box->setObjectName(name);
    for (const QString &format : formats)
        box->addItem(format == QLatin1String("int4") ? QStringLiteral("INT4 (g128)") : format.toUpper(), format);
    return box;
}

void selectData(QComboBox *box, const QString &data)
{
    const int index = box->findData(data);
    if (index >= 0)
        box->setCurrentIndex(index);
}

ServingFormat formatOf(const QComboBox *box)
{
    return servingFormatFromString(box->currentData().toString().toStdString()).value_or(ServingFormat::FP16);
}

}  // namespace

void ServingPage::buildControls(QWidget *content, QVBoxLayout *layout)
{
    intro_ = new QLabel(content);
    intro_->setObjectName(QStringLiteral("serving.intro"));
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    const auto labelled = [content](QLabel *&label, QWidget *field) {
        label = new QLabel(content);
        label->setBuddy(field);
        return label;
    };

    accelerator_box_ = new QComboBox(content);
    accelerator_box_->setObjectName(QStringLiteral("serving.accelerator"));
    accelerator_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    accelerator_box_->setMinimumContentsLength(16);
    gpus_spin_ = spin(content, QStringLiteral("serving.gpus"), 1, kMaxGpus);
    tp_spin_ = spin(content, QStringLiteral("serving.tp"), 1, kMaxParallel);
    pp_spin_ = spin(content, QStringLiteral("serving.pp"), 1, kMaxParallel);
    batch_spin_ = spin(content, QStringLiteral("serving.batch"), 1, kMaxCount);
    prompt_spin_ = spin(content, QStringLiteral("serving.promptTokens"), 1, kMaxCount);
    output_spin_ = spin(content, QStringLiteral("serving.outputTokens"), 1, kMaxOutputTokens);
    batch_spin_->setValue(1);
    prompt_spin_->setValue(512);
    output_spin_->setValue(128);
    weights_box_ = formatBox(content, QStringLiteral("serving.weights"), kWeightFormats);
    activations_box_ = formatBox(content, QStringLiteral("serving.activations"), kOtherFormats);
    kv_box_ = formatBox(content, QStringLiteral("serving.kvCache"), kOtherFormats);
    flash_check_ = new QCheckBox(content);
    flash_check_->setObjectName(QStringLiteral("serving.flashAttention"));
    flash_check_->setChecked(true);
    per_query_head_check_ = new QCheckBox(content);
    per_query_head_check_->setObjectName(QStringLiteral("serving.decodeAttention"));
    draft_box_ = new QComboBox(content);
    draft_box_->setObjectName(QStringLiteral("serving.draftModel"));
    draft_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    draft_box_->setMinimumContentsLength(12);
    gamma_spin_ = spin(content, QStringLiteral("serving.draftTokens"), 1, kMaxDraftTokens);
    gamma_spin_->setValue(4);
    alpha_spin_ = new QDoubleSpinBox(content);
    alpha_spin_->setObjectName(QStringLiteral("serving.acceptance"));
    alpha_spin_->setRange(0.0, 1.0);
    alpha_spin_->setSingleStep(0.05);
    alpha_spin_->setDecimals(2);
    alpha_spin_->setValue(0.8);
    alpha_spin_->setKeyboardTracking(false);

    // Rows that wrap beside the scenario editor at 1024 px (CONTRIBUTING: FlowLayout).
    auto *hardware_row = new FlowLayout;
    hardware_row->addLabelled(labelled(accelerator_label_, accelerator_box_), accelerator_box_);
    hardware_row->addLabelled(labelled(gpus_label_, gpus_spin_), gpus_spin_);
    hardware_row->addLabelled(labelled(tp_label_, tp_spin_), tp_spin_);
    hardware_row->addLabelled(labelled(pp_label_, pp_spin_), pp_spin_);
    layout->addLayout(hardware_row);
    auto *request_row = new FlowLayout;
    request_row->addLabelled(labelled(batch_label_, batch_spin_), batch_spin_);
    request_row->addLabelled(labelled(prompt_label_, prompt_spin_), prompt_spin_);
    request_row->addLabelled(labelled(output_label_, output_spin_), output_spin_);
    layout->addLayout(request_row);
    auto *format_row = new FlowLayout;
    format_row->addLabelled(labelled(weights_label_, weights_box_), weights_box_);
    format_row->addLabelled(labelled(activations_label_, activations_box_), activations_box_);
    format_row->addLabelled(labelled(kv_label_, kv_box_), kv_box_);
    format_row->addWidget(flash_check_);
    format_row->addWidget(per_query_head_check_);
    layout->addLayout(format_row);
    auto *draft_row = new FlowLayout;
    draft_row->addLabelled(labelled(draft_label_, draft_box_), draft_box_);
    draft_row->addLabelled(labelled(gamma_label_, gamma_spin_), gamma_spin_);
    draft_row->addLabelled(labelled(alpha_label_, alpha_spin_), alpha_spin_);
    layout->addLayout(draft_row);

    fillAcceleratorBox();
    fillDraftBox();
    connect(accelerator_box_, &QComboBox::activated, this, &ServingPage::chooseAccelerator);
    for (QSpinBox *box : {gpus_spin_, tp_spin_, pp_spin_, batch_spin_, prompt_spin_, output_spin_, gamma_spin_})
        connect(box, &QSpinBox::valueChanged, this, &ServingPage::refresh);
    // tp and pp set one replica's GPUs: the GPU count follows them while it was one replica.
    for (QSpinBox *box : {tp_spin_, pp_spin_})
        connect(box, &QSpinBox::valueChanged, this, [this] {
            const int group = tp_spin_->value() * pp_spin_->value();
            if (gpus_spin_->value() % group != 0 || gpus_spin_->value() < group) {
                const QSignalBlocker block(gpus_spin_);
                gpus_spin_->setValue(std::min(group, kMaxGpus));
            }
            refresh();
        });
    connect(alpha_spin_, &QDoubleSpinBox::valueChanged, this, &ServingPage::refresh);
    for (QComboBox *box : {weights_box_, activations_box_, kv_box_, draft_box_})
        connect(box, &QComboBox::currentIndexChanged, this, &ServingPage::refresh);
    for (QCheckBox *box : {flash_check_, per_query_head_check_})
        connect(box, &QCheckBox::toggled, this, &ServingPage::refresh);
}

void ServingPage::fillAcceleratorBox()
{
    const QSignalBlocker block(accelerator_box_);
    accelerator_box_->clear();
    for (const Accelerator &gpu : builtinHardwareCatalog().accelerators)
        accelerator_box_->addItem(format::fromStd(gpu.name), format::fromStd(gpu.id));
    const Accelerator &current = scenario().cluster.accelerator;
    if (accelerator_box_->findData(format::fromStd(current.id)) < 0)  // a custom or calibrated entry
        accelerator_box_->addItem(format::fromStd(current.name), format::fromStd(current.id));
    selectData(accelerator_box_, format::fromStd(current.id));
}

void ServingPage::chooseAccelerator(int index)
{
    const std::string id = accelerator_box_->itemData(index).toString().toStdString();
    if (id == scenario().cluster.accelerator.id)
        return;
    const Accelerator *chosen = builtinHardwareCatalog().find(id);
    if (chosen == nullptr)
        return;
    // The scenario's accelerator, as the editor's GPU picker sets it: one undo step.
    Scenario edited = scenario();
    edited.cluster.accelerator = *chosen;
    emit scenarioEditRequested(edited, tr("Serve on %1").arg(format::fromStd(chosen->name)));
}

void ServingPage::fillDraftBox()
{
    const QString current = draft_box_->currentData().toString();
    const QSignalBlocker block(draft_box_);
    draft_box_->clear();
    draft_box_->addItem(tr("none"), QString());
    for (const ModelPreset &preset : builtinModelPresets())
        draft_box_->addItem(format::fromStd(preset.model.name), format::fromStd(preset.id));
    selectData(draft_box_, current);
}

void ServingPage::seedControls(const Scenario *previous)
{
    const Scenario &scenario = this->scenario();
    fillAcceleratorBox();
    const bool first = previous == nullptr;
    // A model served as it was trained: the scenario's tensor-parallel degree on one replica.
    const int tp = std::max(1, scenario.training.parallel.tp);
    if (first || tp != seeded_tp_) {
        seeded_tp_ = tp;
        const QSignalBlocker block_tp(tp_spin_), block_pp(pp_spin_), block_gpus(gpus_spin_);
        tp_spin_->setValue(tp);
        pp_spin_->setValue(1);
        gpus_spin_->setValue(tp);
    }
    if (first) {
        const ServingInputs formats = servingInputsFor(scenario);
        const QSignalBlocker block_w(weights_box_), block_a(activations_box_), block_k(kv_box_);
        selectData(weights_box_, format::fromStd(toString(formats.weights)));
        selectData(activations_box_, format::fromStd(toString(formats.activations)));
        selectData(kv_box_, format::fromStd(toString(formats.kv_cache)));
    }
    if (first || scenario.training.flash_attention != seeded_flash_) {
        seeded_flash_ = scenario.training.flash_attention;
        const QSignalBlocker block(flash_check_);
        flash_check_->setChecked(seeded_flash_);
    }
    if (first || scenario.model.name != seeded_model_) {
        seeded_model_ = scenario.model.name;
        // A draft shares the target's tokenizer (Leviathan et al. 2023 §4 pair T5-XXL with T5-small):
        // the smallest preset with the same vocabulary and fewer parameters, else none.
        const std::int64_t target = countParameters(scenario.model).total;
        const ModelPreset *draft = nullptr;
        std::int64_t draft_parameters = 0;
        for (const ModelPreset &preset : builtinModelPresets()) {
            if (preset.model.vocab_size != scenario.model.vocab_size)
                continue;
            const std::int64_t parameters = countParameters(preset.model).total;
            if (parameters < target && (draft == nullptr || parameters < draft_parameters)) {
                draft = &preset;
                draft_parameters = parameters;
            }
        }
        const QSignalBlocker block(draft_box_);
        selectData(draft_box_, draft ? format::fromStd(draft->id) : QString());
    }
}

ServingInputs ServingPage::inputs(QStringList *problems) const
{
    ServingInputs inputs = servingInputsFor(scenario());
    inputs.tp = tp_spin_->value();
    inputs.pp = pp_spin_->value();
    const int group = inputs.tp * inputs.pp;
    if (gpus_spin_->value() % group != 0 && problems)
        *problems << tr("GPUs: %1 is not a multiple of tp × pp = %2 (each replica of the model takes tp × pp GPUs)")
                         .arg(format::integer(gpus_spin_->value()), format::integer(group));
    inputs.replicas = std::max(1, gpus_spin_->value() / group);
    inputs.batch = batch_spin_->value();
    inputs.prompt_tokens = prompt_spin_->value();
    inputs.output_tokens = output_spin_->value();
    inputs.weights = formatOf(weights_box_);
    inputs.activations = formatOf(activations_box_);
    inputs.kv_cache = formatOf(kv_box_);
    inputs.flash_attention = flash_check_->isChecked();
    inputs.kv_cache_read_per_query_head = per_query_head_check_->isChecked();
    inputs.speculative.reset();
    return inputs;
}

void ServingPage::retranslateControls()
{
    intro_->setText(tr("Serving one model: prefill reads the prompt in one pass (time to first token), then every "
                       "decode step reads all weights and the KV cache to make one token per sequence (time per "
                       "output token). Decode is memory-bound until the batch is large enough; the model, the GPU "
                       "and its price are the scenario's, the rest is set here. Hover any figure for its formula "
                       "and source."));
    accelerator_label_->setText(tr("&GPU"));
    accelerator_box_->setToolTip(tr("The scenario's accelerator (changing it here changes the scenario, one undo "
                                    "step): dense peak per format, HBM capacity and bandwidth from its datasheet, "
                                    "and its serving factors (resources/hardware/serving_efficiency.json)."));
    gpus_label_->setText(tr("GP&Us"));
    gpus_spin_->setToolTip(tr("GPUs in all: replicas × tp × pp. Replicas serve side by side, so tokens/s grows with "
                              "them and tokens/s per GPU does not."));
    tp_label_->setText(tr("&tp"));
    tp_spin_->setToolTip(tr("Tensor parallelism: each layer's heads and FFN split over tp GPUs, two all-reduces of "
                            "batch × d_model activations per layer and step (Shoeybi et al. 2019 §3); ring "
                            "all-reduce time 2(tp−1)·latency + 2(tp−1)/tp · bytes / bandwidth (Patarasuk & Yuan "
                            "2009). tp must divide the heads."));
    pp_label_->setText(tr("&pp"));
    pp_spin_->setToolTip(tr("Pipeline parallelism: the layers in pp stages one after another for a request; the "
                            "batch is cut into micro-batches that fill the stages (GPipe, Huang et al. 2019; "
                            "hand-offs: Narayanan et al. 2021 §4.1)."));
    batch_label_->setText(tr("&Batch"));
    batch_spin_->setToolTip(tr("Concurrent sequences per replica (a static batch). Decode reads the weights once "
                               "per step for the whole batch: intensity ≈ batch FLOP/B per weight byte, so the "
                               "weight matmuls turn compute-bound at the roofline's crossover batch. The KV cache "
                               "grows with it: 2 · layers · KV heads · head_dim · (prompt + output) · bytes per "
                               "sequence (Kwon et al. 2023 §3)."));
    prompt_label_->setText(tr("P&rompt tokens"));
    prompt_spin_->setToolTip(tr("Tokens per prompt: prefill processes them in one pass (compute-bound GEMMs of "
                                "batch × prompt rows)."));
    output_label_->setText(tr("&Output tokens"));
    output_spin_->setToolTip(tr("Tokens generated per sequence: the first comes with prefill, each further one is a "
                                "decode step attending to the prompt and the tokens so far."));
    weights_label_->setText(tr("&Weights"));
    weights_box_->setToolTip(tr("Format the linear layers' weights are stored in (embedding and norms stay 16-bit). "
                                "INT4 (g128) stores 4 bits plus one fp16 scale per 128 weights = 0.515625 bytes "
                                "(GPTQ, Frantar et al. 2023 §5; AWQ, Lin et al. 2024); int8 one scale per output "
                                "channel (LLM.int8(), Dettmers et al. 2022)."));
    activations_label_->setText(tr("&Activations"));
    activations_box_->setToolTip(tr("Format of the activations. With 8-bit weights and activations the matmuls run at "
                                    "the 8-bit tensor-core peak (W8A8, SmoothQuant, Xiao et al. 2023); otherwise "
                                    "weights are dequantised in the kernel and multiplied in 16 bits."));
    kv_label_->setText(tr("&KV cache"));
    kv_box_->setToolTip(tr("Format of the cached keys and values: 8 bits halve the KV bytes decode reads each step "
                           "and the memory each sequence holds (vLLM, Kwon et al. 2023)."));
    flash_check_->setText(tr("&FlashAttention"));
    flash_check_->setToolTip(tr("FlashAttention (Dao et al. 2022) keeps the score matrix in on-chip SRAM: prefill "
                                "attention moves far fewer bytes, and the workspace has no s × s scores."));
    per_query_head_check_->setText(tr("KV read per &query head"));
    per_query_head_check_->setToolTip(tr("Decode attention reads the KV cache once per query head "
                                         "(FasterTransformer, TensorRT-LLM's masked MHA before XQA) instead of once "
                                         "per KV head (vLLM, FlashDecoding, XQA): n_heads / n_kv_heads times the KV "
                                         "traffic of a grouped-query model."));
    draft_label_->setText(tr("&Draft model"));
    draft_box_->setToolTip(tr("Speculative decoding (Leviathan, Kalman & Matias 2023): a small draft model proposes "
                              "γ tokens, the target checks them in one step. Its step time, on the same GPUs, gives "
                              "c = draft TPOT / target TPOT."));
    draft_box_->setItemText(0, tr("none"));
    gamma_label_->setText(tr("&γ"));
    gamma_spin_->setToolTip(tr("γ: tokens the draft proposes per target step. Expected tokens per target step "
                               "(1 − α^(γ+1)) / (1 − α) (Leviathan et al. 2023, eq. 1)."));
    alpha_label_->setText(tr("α (acc&eptance)"));
    alpha_spin_->setToolTip(tr("α: probability the target keeps a drafted token (i.i.d., Leviathan et al. 2023 "
                               "§3.1). Speedup (1 − α^(γ+1)) / ((1 − α)(γc + 1)) (their Theorem 3.8). α depends on "
                               "how well the draft matches the target on your traffic: measure it."));
}

void ServingPage::bindLessonControls()
{
    // The accelerator is the scenario's: a lesson step sets it in the step's scenario.
    lesson_controls_.addInt(QStringLiteral("gpus"), gpus_spin_);
    lesson_controls_.addInt(QStringLiteral("tp"), tp_spin_);
    lesson_controls_.addInt(QStringLiteral("pp"), pp_spin_);
    lesson_controls_.addInt(QStringLiteral("batch"), batch_spin_);
    lesson_controls_.addInt(QStringLiteral("prompt_tokens"), prompt_spin_);
    lesson_controls_.addInt(QStringLiteral("output_tokens"), output_spin_);
    lesson_controls_.addChoice(QStringLiteral("weights"), weights_box_, kWeightFormats);
    lesson_controls_.addChoice(QStringLiteral("activations"), activations_box_, kOtherFormats);
    lesson_controls_.addChoice(QStringLiteral("kv_cache"), kv_box_, kOtherFormats);
    lesson_controls_.addFlag(QStringLiteral("flash_attention"), flash_check_);
    // The decode kernel's KV reads by the CLI's names (infer --decode-attention).
    lesson_controls_.add({QStringLiteral("decode_attention"),
                          [this] {
                              return QJsonValue(per_query_head_check_->isChecked() ? QStringLiteral("per-query-head")
                                                                                   : QStringLiteral("grouped"));
                          },
                          [](const QJsonValue &value) {
                              const QString text = value.toString();
                              if (!value.isString()
                                  || (text != QLatin1String("grouped") && text != QLatin1String("per-query-head")))
                                  return tr("expected grouped|per-query-head");
                              return QString();
                          },
                          [this](const QJsonValue &value) {
                              per_query_head_check_->setChecked(value.toString() == QLatin1String("per-query-head"));
                          }});
    lesson_controls_.addChoiceByData(QStringLiteral("draft_model"), draft_box_, {{QString(), QStringLiteral("none")}});
    lesson_controls_.addInt(QStringLiteral("draft_tokens"), gamma_spin_);
    lesson_controls_.addNumber(QStringLiteral("acceptance"), alpha_spin_);
    cpu_section_->bindLessonControls(lesson_controls_);
}

QJsonObject ServingPage::lessonSettings() const { return lesson_controls_.settings(); }

bool ServingPage::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    return lesson_controls_.apply(settings, error);
}

}  // namespace lse::gui
