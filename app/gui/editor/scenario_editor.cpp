// SPDX-License-Identifier: GPL-3.0-or-later
#include "editor/scenario_editor.h"

#include "editor/field_error_frame.h"

#include "document/scenario_document.h"
#include "enum_labels.h"

#include "common/number_text.h"
#include "hardware/hardware_catalog.h"
#include "hardware/user_hardware_catalog.h"
#include "scenario/model_identity.h"
#include "scenario/presets.h"
#include "scenario/scenario_repair.h"
#include "scenario/stage_layers.h"

#include <QCheckBox>
#include <QEvent>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>

#include <climits>
#include <cmath>

namespace lse::gui {

// One editable scenario field: how to read it, how to write it, and how to show it.
struct ScenarioEditor::Field {
    enum class Kind { Integer, Count, Real, Bool, Choice, LayerList };
    QString path;  // the engine's field name, so its problems land on this widget
    QString label;
    QString tooltip;
    Kind kind = Kind::Integer;
    std::function<double(const Scenario &)> get;
    std::function<void(Scenario &, double)> set;
    double minimum = 0;
    double maximum = INT_MAX;
    int decimals = 0;
    double display_scale = 1;  // shown value = stored value * display_scale
    QString suffix;
    QStringList choices;  // Choice: labels; the value is the index
    QString minimum_text;  // Real: shown at the minimum when it means "unset" (e.g. "catalog")
    // LayerList: the list, how to store one, and what an empty field means (the placeholder).
    std::function<std::vector<int>(const Scenario &)> get_list;
    std::function<void(Scenario &, std::vector<int>)> set_list;
    std::function<QString(const Scenario &)> empty_meaning;
};

namespace {

using Kind = int;

// Problem list items carry the description of their repair (empty: none).
constexpr int kRepairRole = Qt::UserRole + 1;

QString qstr(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

// Reads and writes an enum field as an index into its value list.
template <typename Enum>
std::function<double(const Scenario &)> enumGetter(std::function<Enum(const Scenario &)> get,
                                                   std::vector<Enum> values)
{
    return [get, values](const Scenario &scenario) {
        const Enum value = get(scenario);
        for (std::size_t i = 0; i < values.size(); ++i)
            if (values[i] == value)
                return double(i);
        return 0.0;
    };
}

template <typename Enum>
std::function<void(Scenario &, double)> enumSetter(std::function<void(Scenario &, Enum)> set,
                                                   std::vector<Enum> values)
{
    return [set, values](Scenario &scenario, double index) {
        const auto i = std::size_t(index);
        if (i < values.size())
            set(scenario, values[i]);
    };
}

template <typename Enum>
QStringList enumLabels(const std::vector<Enum> &values)
{
    QStringList labels;
    for (Enum value : values)
        labels << displayName(value);
    return labels;
}
// Marks a field the engine rejected: a red frame over the input (FieldErrorFrame) and red label
// text. Neither copies the font or the palette into the widget, so presentation mode, zoom and
// theme changes still reach a field that was once marked; the label's style sheet sets only the
// text colour.
void setInvalid(QWidget *widget, bool invalid)
{
    if (widget->property("invalid").toBool() == invalid)
        return;
    if (auto *label = qobject_cast<QLabel *>(widget)) {
        label->setProperty("invalid", invalid);
        label->setStyleSheet(invalid ? QStringLiteral("color: #d62728;") : QString());
        return;
    }
    FieldErrorFrame::mark(widget, invalid);
}

// The user's own accelerators (calibrated ones) go after the built-in ones, before "Custom"
// (the last item); an unreadable user file lists none (the calibration dialog reports it).
void addUserAccelerators(QComboBox *picker)
{
    const Result<lse::HardwareCatalog> user = lse::loadUserHardwareCatalog(lse::userHardwareCatalogPath());
    if (!user)
        return;
    for (const lse::Accelerator &gpu : user->accelerators)
        if (picker->findData(QString::fromStdString(gpu.id)) < 0)
            picker->insertItem(picker->count() - 1, QString::fromStdString(gpu.name), QString::fromStdString(gpu.id));
}

// A catalog entry by id: built-in first, then the user's file.
std::optional<lse::Accelerator> knownAccelerator(const std::string &id)
{
    if (const lse::Accelerator *builtin = lse::builtinHardwareCatalog().find(id))
        return *builtin;
    const Result<lse::HardwareCatalog> user = lse::loadUserHardwareCatalog(lse::userHardwareCatalogPath());
    if (user)
        if (const lse::Accelerator *mine = user->find(id))
            return *mine;
    return std::nullopt;
}

}  // namespace

ScenarioEditor::ScenarioEditor(ScenarioDocument *document, QWidget *parent) : QWidget(parent), document_(document)
{
    buildUi();
    connect(document_, &ScenarioDocument::scenarioChanged, this, &ScenarioEditor::refreshFromDocument);
    refreshFromDocument();
}

ScenarioEditor::~ScenarioEditor() = default;

QWidget *ScenarioEditor::fieldWidget(const QString &field) const { return widgets_.value(field); }

void ScenarioEditor::addField(QFormLayout *form, Field field)
{
    QWidget *widget = nullptr;
    const QString path = field.path;
    switch (field.kind) {
    case Field::Kind::Integer: {
        auto *spin = new QSpinBox;
        spin->setRange(int(field.minimum), int(std::min<double>(field.maximum, INT_MAX)));
        spin->setSuffix(field.suffix);
        spin->setKeyboardTracking(false);
        connect(spin, &QSpinBox::valueChanged, this, [this, path](int value) {
            if (refreshing_)
                return;
            for (const Field &f : fields_)
                if (f.path == path)
                    document_->edit(path, tr("Change %1").arg(f.label),
                                    [&f, value](Scenario &s) { f.set(s, double(value) / f.display_scale); });
        });
        widget = spin;
        break;
    }
    case Field::Kind::Real: {
        auto *spin = new QDoubleSpinBox;
        spin->setRange(field.minimum, field.maximum);
        spin->setDecimals(field.decimals);
        spin->setSingleStep(std::pow(10.0, -std::max(0, field.decimals - 1)));
        spin->setSuffix(field.suffix);
        spin->setSpecialValueText(field.minimum_text);
        spin->setKeyboardTracking(false);
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, path](double value) {
            if (refreshing_)
                return;
            for (const Field &f : fields_)
                if (f.path == path)
                    document_->edit(path, tr("Change %1").arg(f.label),
                                    [&f, value](Scenario &s) { f.set(s, value / f.display_scale); });
        });
        widget = spin;
        break;
    }
    case Field::Kind::Count: {
        auto *line = new QLineEdit;
        line->setPlaceholderText(tr("e.g. 15T, 300B, 4096"));
        connect(line, &QLineEdit::editingFinished, this, [this, path] { commitText(path); });
        widget = line;
        break;
    }
    case Field::Kind::LayerList: {
        auto *line = new QLineEdit;
        connect(line, &QLineEdit::editingFinished, this, [this, path] { commitText(path); });
        widget = line;
        break;
    }
    case Field::Kind::Bool: {
        auto *box = new QCheckBox;
        connect(box, &QCheckBox::toggled, this, [this, path](bool checked) {
            if (refreshing_)
                return;
            for (const Field &f : fields_)
                if (f.path == path)
                    document_->edit(path, tr("Change %1").arg(f.label),
                                    [&f, checked](Scenario &s) { f.set(s, checked ? 1.0 : 0.0); });
        });
        widget = box;
        break;
    }
    case Field::Kind::Choice: {
        auto *combo = new QComboBox;
        combo->addItems(field.choices);
        connect(combo, &QComboBox::activated, this, [this, path](int index) {
            for (const Field &f : fields_)
                if (f.path == path)
                    document_->edit(path, tr("Change %1").arg(f.label),
                                    [&f, index](Scenario &s) { f.set(s, double(index)); });
        });
        widget = combo;
        break;
    }
    }
    widget->setObjectName(path);
    widget->setToolTip(field.tooltip);
    widget->setAccessibleName(field.label);
    auto *label = new QLabel(field.label);
    label->setToolTip(field.tooltip);
    label->setBuddy(widget);
    form->addRow(label, widget);
    widgets_.insert(path, widget);
    labels_.insert(path, label);
    fields_.push_back(std::move(field));
}

void ScenarioEditor::commitText(const QString &path)
{
    if (refreshing_)
        return;
    auto *line = qobject_cast<QLineEdit *>(widgets_.value(path));
    for (const Field &f : fields_) {
        if (f.path != path)
            continue;
        if (f.kind == Field::Kind::LayerList) {
            commitList(f, line);
            return;
        }
        const std::optional<std::int64_t> value = parseCountText(line->text().toStdString());
        if (!value) {
            // Not a number at all: the engine never sees it, so mark it here with the rule.
            setInvalid(line, true);
            line->setToolTip(tr("%1: '%2' is not a whole number (examples: 4096, 15e12, 15T, 300B)")
                                 .arg(f.path, line->text()));
            return;
        }
        if (double(*value) == f.get(document_->scenario()))
            return;
        document_->edit(path, tr("Change %1").arg(f.label), [&f, v = double(*value)](Scenario &s) { f.set(s, v); });
        return;
    }
}

void ScenarioEditor::commitList(const Field &f, QLineEdit *line)
{
    const std::optional<std::vector<int>> layers = parseStageLayers(line->text().toStdString());
    if (!layers) {
        // Not a list: the engine never sees it, so mark it here with the rule.
        setInvalid(line, true);
        line->setToolTip(tr("%1: '%2' is not a comma-separated list of layer counts (example: 5,6,6,5; "
                            "empty: as even as possible)")
                             .arg(f.path, line->text()));
        return;
    }
    if (*layers == f.get_list(document_->scenario())) {
        setInvalid(line, false);  // the typed text was fixed back to the current list
        markProblems();
        return;
    }
    document_->edit(f.path, tr("Change %1").arg(f.label), [&f, layers = *layers](Scenario &s) { f.set_list(s, layers); });
}

QSize ScenarioEditor::sizeHint() const
{
    return {minimumSizeHint().width(), QWidget::sizeHint().height()};
}

void ScenarioEditor::buildUi()
{
    using K = Field::Kind;
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto *tabs = new QTabWidget;
    tabs->setDocumentMode(true);
    layout->addWidget(tabs, 1);
    auto makeTab = [tabs](const QString &title) {
        auto *scroll = new QScrollArea;
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        auto *content = new QWidget;
        auto *form = new QFormLayout(content);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        scroll->setWidget(content);
        tabs->addTab(scroll, title);
        return form;
    };

    // --- Model ---------------------------------------------------------------------------------
    QFormLayout *model = makeTab(tr("Model"));
    preset_picker_ = new QComboBox;
    preset_picker_->setObjectName("model.preset");
    preset_picker_->addItem(tr("Custom"), QString());
    for (const ModelPreset &preset : builtinModelPresets())
        preset_picker_->addItem(qstr(preset.model.name), qstr(preset.id));
    preset_picker_->setToolTip(tr("Load a published architecture; every field below stays editable."));
    connect(preset_picker_, &QComboBox::activated, this, [this](int index) {
        const QString id = preset_picker_->itemData(index).toString();
        if (const ModelPreset *preset = findModelPreset(id.toStdString()))
            document_->loadModel(preset->model, tr("Load preset %1").arg(qstr(preset->model.name)));
    });
    model->addRow(tr("Preset"), preset_picker_);

    auto intField = [](QString path, QString label, QString tooltip, auto get, auto set, double min = 0,
                       double max = INT_MAX) {
        Field f;
        f.path = std::move(path);
        f.label = std::move(label);
        f.tooltip = std::move(tooltip);
        f.kind = K::Integer;
        f.get = [get](const Scenario &s) { return double(get(s)); };
        f.set = set;
        f.minimum = min;
        f.maximum = max;
        return f;
    };
    auto boolField = [](QString path, QString label, QString tooltip, auto get, auto set) {
        Field f;
        f.path = std::move(path);
        f.label = std::move(label);
        f.tooltip = std::move(tooltip);
        f.kind = K::Bool;
        f.get = [get](const Scenario &s) { return get(s) ? 1.0 : 0.0; };
        f.set = [set](Scenario &s, double v) { set(s, v != 0); };
        return f;
    };
    auto choiceField = [](QString path, QString label, QString tooltip, auto get, auto set, auto values) {
        using Enum = typename decltype(values)::value_type;
        Field f;
        f.path = std::move(path);
        f.label = std::move(label);
        f.tooltip = std::move(tooltip);
        f.kind = K::Choice;
        f.get = enumGetter<Enum>(get, values);
        f.set = enumSetter<Enum>(set, values);
        f.choices = enumLabels(values);
        return f;
    };

    addField(model, intField("model.n_layers", tr("Layers"), tr("Transformer blocks (L)."),
                             [](const Scenario &s) { return s.model.n_layers; },
                             [](Scenario &s, double v) { s.model.n_layers = int(v); }));
    addField(model, intField("model.d_model", tr("d_model"), tr("Hidden size h: the width of the residual stream."),
                             [](const Scenario &s) { return s.model.d_model; },
                             [](Scenario &s, double v) { s.model.d_model = std::int64_t(v); }));
    addField(model, intField("model.n_heads", tr("Heads"), tr("Query heads a."),
                             [](const Scenario &s) { return s.model.n_heads; },
                             [](Scenario &s, double v) { s.model.n_heads = int(v); }));
    addField(model, intField("model.n_kv_heads", tr("KV heads"),
                             tr("Key/value heads: equal to heads for MHA, 1 for MQA, in between for GQA."),
                             [](const Scenario &s) { return s.model.n_kv_heads; },
                             [](Scenario &s, double v) { s.model.n_kv_heads = int(v); }));
    addField(model, intField("model.head_dim", tr("Head dim"), tr("Dimension of one attention head (usually d_model / heads)."),
                             [](const Scenario &s) { return s.model.head_dim; },
                             [](Scenario &s, double v) { s.model.head_dim = int(v); }));
    addField(model, intField("model.d_ff", tr("d_ff"), tr("Hidden size of the feed-forward layers."),
                             [](const Scenario &s) { return s.model.d_ff; },
                             [](Scenario &s, double v) { s.model.d_ff = std::int64_t(v); }));
    addField(model, intField("model.vocab_size", tr("Vocabulary"), tr("Vocabulary size V (embedding and head rows)."),
                             [](const Scenario &s) { return s.model.vocab_size; },
                             [](Scenario &s, double v) { s.model.vocab_size = std::int64_t(v); }));
    addField(model, intField("model.max_seq_len", tr("Context"), tr("Maximum sequence length (learned position embeddings count it)."),
                             [](const Scenario &s) { return s.model.max_seq_len; },
                             [](Scenario &s, double v) { s.model.max_seq_len = std::int64_t(v); }));
    addField(model, boolField("model.tied_embeddings", tr("Tied embeddings"), tr("The LM head reuses the token embedding matrix."),
                              [](const Scenario &s) { return s.model.tied_embeddings; },
                              [](Scenario &s, bool v) { s.model.tied_embeddings = v; }));
    addField(model, boolField("model.biases.qkv", tr("Q/K/V bias"), tr("Bias vectors on the Q, K and V projections."),
                              [](const Scenario &s) { return s.model.biases.qkv; },
                              [](Scenario &s, bool v) { s.model.biases.qkv = v; }));
    addField(model, boolField("model.biases.attn_output", tr("Output bias"), tr("Bias on the attention output projection."),
                              [](const Scenario &s) { return s.model.biases.attn_output; },
                              [](Scenario &s, bool v) { s.model.biases.attn_output = v; }));
    addField(model, boolField("model.biases.mlp", tr("MLP biases"), tr("Biases on the feed-forward matrices."),
                              [](const Scenario &s) { return s.model.biases.mlp; },
                              [](Scenario &s, bool v) { s.model.biases.mlp = v; }));
    addField(model, choiceField("model.norm", tr("Norm"), tr("LayerNorm has a gain and a bias; RMSNorm only a gain."),
                                std::function<NormType(const Scenario &)>([](const Scenario &s) { return s.model.norm; }),
                                std::function<void(Scenario &, NormType)>([](Scenario &s, NormType v) { s.model.norm = v; }),
                                std::vector<NormType>{NormType::LayerNorm, NormType::RMSNorm, NormType::None}));
    addField(model, choiceField("model.norm_placement", tr("Norm placement"), tr("Pre-norm, post-norm, or norms on both sides of each sub-block (Gemma 2)."),
                                std::function<NormPlacement(const Scenario &)>([](const Scenario &s) { return s.model.norm_placement; }),
                                std::function<void(Scenario &, NormPlacement)>([](Scenario &s, NormPlacement v) { s.model.norm_placement = v; }),
                                std::vector<NormPlacement>{NormPlacement::Pre, NormPlacement::Post, NormPlacement::Double}));
    addField(model, choiceField("model.activation", tr("Activation"), tr("Gated activations (SwiGLU, GeGLU) use three d_model x d_ff matrices."),
                                std::function<Activation(const Scenario &)>([](const Scenario &s) { return s.model.activation; }),
                                std::function<void(Scenario &, Activation)>([](Scenario &s, Activation v) { s.model.activation = v; }),
                                std::vector<Activation>{Activation::ReLU, Activation::GeLU, Activation::SiLU, Activation::SwiGLU, Activation::GeGLU}));
    addField(model, choiceField("model.positional_encoding", tr("Positions"), tr("Learned position embeddings add max_seq_len x d_model parameters."),
                                std::function<PositionalEncoding(const Scenario &)>([](const Scenario &s) { return s.model.positional_encoding; }),
                                std::function<void(Scenario &, PositionalEncoding)>([](Scenario &s, PositionalEncoding v) { s.model.positional_encoding = v; }),
                                std::vector<PositionalEncoding>{PositionalEncoding::Learned, PositionalEncoding::Sinusoidal,
                                                                PositionalEncoding::RoPE, PositionalEncoding::ALiBi,
                                                                PositionalEncoding::None}));
    addField(model, boolField("model.parallel_block", tr("Parallel block"), tr("Attention and MLP read the same input (GPT-J, PaLM)."),
                              [](const Scenario &s) { return s.model.parallel_block; },
                              [](Scenario &s, bool v) { s.model.parallel_block = v; }));
    addField(model, intField("model.moe.n_experts", tr("Experts"), tr("Routed experts per MoE layer (0: dense model)."),
                             [](const Scenario &s) { return s.model.moe.n_experts; },
                             [](Scenario &s, double v) { s.model.moe.n_experts = int(v); }));
    addField(model, intField("model.moe.top_k", tr("Top-k"), tr("Experts each token visits."),
                             [](const Scenario &s) { return s.model.moe.top_k; },
                             [](Scenario &s, double v) { s.model.moe.top_k = int(v); }));
    addField(model, intField("model.moe.n_shared_experts", tr("Shared experts"), tr("Experts every token visits."),
                             [](const Scenario &s) { return s.model.moe.n_shared_experts; },
                             [](Scenario &s, double v) { s.model.moe.n_shared_experts = int(v); }));
    addField(model, intField("model.moe.expert_d_ff", tr("Expert d_ff"), tr("Hidden size of one routed expert."),
                             [](const Scenario &s) { return s.model.moe.expert_d_ff; },
                             [](Scenario &s, double v) { s.model.moe.expert_d_ff = std::int64_t(v); }));
    addField(model, intField("model.moe.first_moe_layer", tr("First MoE layer"), tr("Layers before it are dense."),
                             [](const Scenario &s) { return s.model.moe.first_moe_layer; },
                             [](Scenario &s, double v) { s.model.moe.first_moe_layer = int(v); }));
    addField(model, intField("model.moe.moe_layer_interval", tr("MoE interval"), tr("Every n-th layer from the first MoE layer is an MoE layer."),
                             [](const Scenario &s) { return s.model.moe.moe_layer_interval; },
                             [](Scenario &s, double v) { s.model.moe.moe_layer_interval = int(v); }));

    // --- Cluster -------------------------------------------------------------------------------
    QFormLayout *cluster = makeTab(tr("Cluster"));
    gpu_picker_ = new QComboBox;
    gpu_picker_->setObjectName("cluster.accelerator");
    for (const Accelerator &gpu : builtinHardwareCatalog().accelerators)
        gpu_picker_->addItem(qstr(gpu.name), qstr(gpu.id));
    gpu_picker_->addItem(tr("Custom"), QStringLiteral("custom"));
    addUserAccelerators(gpu_picker_);
    gpu_picker_->setToolTip(tr("Accelerator from the catalog (dense peaks, memory, links; datasheet in each entry)."));
    connect(gpu_picker_, &QComboBox::activated, this, [this](int index) {
        const std::string id = gpu_picker_->itemData(index).toString().toStdString();
        const std::optional<Accelerator> known = knownAccelerator(id);
        const Accelerator chosen = known ? *known : customAccelerator();
        document_->edit("cluster.accelerator", tr("Change GPU"), [chosen](Scenario &s) { s.cluster.accelerator = chosen; });
    });
    cluster->addRow(tr("GPU"), gpu_picker_);
    addField(cluster, intField("cluster.gpus", tr("GPUs"), tr("Total accelerators; dp·tp·pp·cp must equal it."),
                               [](const Scenario &s) { return s.cluster.gpus; },
                               [](Scenario &s, double v) { s.cluster.gpus = int(v); }));
    addField(cluster, intField("cluster.gpus_per_node", tr("GPUs per node"), tr("Groups larger than a node talk over the network."),
                               [](const Scenario &s) { return s.cluster.gpus_per_node; },
                               [](Scenario &s, double v) { s.cluster.gpus_per_node = int(v); }));
    auto realField = [](QString path, QString label, QString tooltip, auto get, auto set, double min, double max,
                        int decimals, double scale = 1, QString suffix = {}) {
        Field f;
        f.path = std::move(path);
        f.label = std::move(label);
        f.tooltip = std::move(tooltip);
        f.kind = K::Real;
        f.get = get;
        f.set = set;
        f.minimum = min;
        f.maximum = max;
        f.decimals = decimals;
        f.display_scale = scale;
        f.suffix = std::move(suffix);
        return f;
    };
    addField(cluster, realField("cluster.peak_flops_per_second_override", tr("Peak override"),
                                tr("Replaces the catalog's dense peak (0: use the catalog). The course's 119-day example "
                                   "assumed 2000 TFLOP/s per H100, the sparse headline figure."),
                                [](const Scenario &s) { return s.cluster.peak_flops_per_second_override.value_or(0.0); },
                                [](Scenario &s, double v) {
                                    if (v > 0)
                                        s.cluster.peak_flops_per_second_override = v;
                                    else
                                        s.cluster.peak_flops_per_second_override.reset();
                                },
                                0, 1e6, 1, 1e-12, tr(" TFLOP/s")));
    addField(cluster, realField("cluster.accelerator.intra_node_bandwidth_bytes_per_second", tr("Intra-node link"),
                                tr("Unidirectional bandwidth per GPU inside a node (NVLink: half the quoted bidirectional figure)."),
                                [](const Scenario &s) { return s.cluster.accelerator.intra_node_bandwidth_bytes_per_second; },
                                [](Scenario &s, double v) { s.cluster.accelerator.intra_node_bandwidth_bytes_per_second = v; },
                                0, 1e5, 1, 1e-9, tr(" GB/s")));
    addField(cluster, realField("cluster.accelerator.inter_node_bandwidth_bytes_per_second", tr("Inter-node link"),
                                tr("Unidirectional network bandwidth per GPU between nodes."),
                                [](const Scenario &s) { return s.cluster.accelerator.inter_node_bandwidth_bytes_per_second; },
                                [](Scenario &s, double v) { s.cluster.accelerator.inter_node_bandwidth_bytes_per_second = v; },
                                0, 1e5, 1, 1e-9, tr(" GB/s")));
    // Optional link overrides: 0 (shown as "catalog") = the accelerator's catalog bandwidth above.
    auto optionalGbps = [](std::optional<double> ClusterConfig::*member) {
        return std::pair{[member](const Scenario &s) { return (s.cluster.*member).value_or(0.0); },
                         [member](Scenario &s, double v) {
                             if (v > 0)
                                 s.cluster.*member = v;
                             else
                                 (s.cluster.*member).reset();
                         }};
    };
    const auto [intra_get, intra_set] = optionalGbps(&ClusterConfig::intra_node_gbps_per_gpu);
    Field intra_gbps = realField("cluster.intra_node_gbps_per_gpu", tr("Intra-node Gbit/s"),
                                 tr("Link bandwidth per GPU inside a node, one direction, in Gbit/s; empty (catalog) = the "
                                    "accelerator's value from the hardware catalog (intra-node link above). DGX A100: "
                                    "NVLink3 300 GB/s = 2400 Gbit/s; DGX H100: NVLink4 450 GB/s = 3600 Gbit/s (NVIDIA "
                                    "datasheets, hardware catalog)."),
                                 intra_get, intra_set, 0, 1e6, 0, 1, tr(" Gbit/s"));
    intra_gbps.minimum_text = tr("catalog");
    addField(cluster, intra_gbps);
    const auto [inter_get, inter_set] = optionalGbps(&ClusterConfig::inter_node_gbps_per_gpu);
    Field inter_gbps = realField("cluster.inter_node_gbps_per_gpu", tr("Inter-node Gbit/s"),
                                 tr("Network bandwidth per GPU across nodes, one direction, in Gbit/s; empty (catalog) = "
                                    "the accelerator's value from the hardware catalog (inter-node link above). DGX A100: "
                                    "HDR InfiniBand 200 Gbit/s; DGX H100: NDR 400 Gbit/s (NVIDIA DGX datasheets)."),
                                 inter_get, inter_set, 0, 1e6, 0, 1, tr(" Gbit/s"));
    inter_gbps.minimum_text = tr("catalog");
    addField(cluster, inter_gbps);
    addField(cluster, realField("cluster.intra_node_latency_seconds", tr("Intra-node latency"),
                                tr("Alpha of the alpha-beta model: paid once per ring step."),
                                [](const Scenario &s) { return s.cluster.intra_node_latency_seconds; },
                                [](Scenario &s, double v) { s.cluster.intra_node_latency_seconds = v; },
                                0, 1e6, 1, 1e6, tr(" µs")));
    addField(cluster, realField("cluster.inter_node_latency_seconds", tr("Inter-node latency"),
                                tr("Alpha of the alpha-beta model across nodes."),
                                [](const Scenario &s) { return s.cluster.inter_node_latency_seconds; },
                                [](Scenario &s, double v) { s.cluster.inter_node_latency_seconds = v; },
                                0, 1e6, 1, 1e6, tr(" µs")));
    addField(cluster, realField("cluster.link_efficiency", tr("Link efficiency"),
                                tr("Fraction of the line rate a collective achieves (nccl-tests bus bandwidth)."),
                                [](const Scenario &s) { return s.cluster.link_efficiency; },
                                [](Scenario &s, double v) { s.cluster.link_efficiency = v; }, 0, 1, 2));
    addField(cluster, realField("cluster.price_per_gpu_hour", tr("Price per GPU-hour"), tr("Used for the cost figure."),
                                [](const Scenario &s) { return s.cluster.price_per_gpu_hour; },
                                [](Scenario &s, double v) { s.cluster.price_per_gpu_hour = v; }, 0, 1e6, 2));

    // --- Training ------------------------------------------------------------------------------
    QFormLayout *training = makeTab(tr("Training"));
    auto countField = [](QString path, QString label, QString tooltip, auto get, auto set) {
        Field f;
        f.path = std::move(path);
        f.label = std::move(label);
        f.tooltip = std::move(tooltip);
        f.kind = K::Count;
        f.get = [get](const Scenario &s) { return double(get(s)); };
        f.set = set;
        return f;
    };
    addField(training, countField("training.tokens", tr("Tokens"), tr("Total training tokens D (accepts 15T, 300B, 15e12)."),
                                  [](const Scenario &s) { return s.training.tokens; },
                                  [](Scenario &s, double v) { s.training.tokens = std::int64_t(v); }));
    addField(training, intField("training.seq_len", tr("Sequence length"), tr("Tokens per sequence s."),
                                [](const Scenario &s) { return s.training.seq_len; },
                                [](Scenario &s, double v) { s.training.seq_len = std::int64_t(v); }));
    addField(training, intField("training.global_batch", tr("Global batch"), tr("Sequences per optimizer step B."),
                                [](const Scenario &s) { return s.training.global_batch; },
                                [](Scenario &s, double v) { s.training.global_batch = std::int64_t(v); }));
    addField(training, intField("training.micro_batch", tr("Micro-batch"), tr("Sequences per forward pass per GPU b."),
                                [](const Scenario &s) { return s.training.micro_batch; },
                                [](Scenario &s, double v) { s.training.micro_batch = std::int64_t(v); }));
    addField(training, choiceField("training.precision.recipe", tr("Precision"),
                                   tr("Sets weight, gradient, activation and matmul dtypes; bf16-mixed keeps an fp32 master copy (16 bytes/parameter with Adam, ZeRO §3.1)."),
                                   std::function<PrecisionRecipe(const Scenario &)>([](const Scenario &s) { return s.training.precision.recipe; }),
                                   std::function<void(Scenario &, PrecisionRecipe)>([](Scenario &s, PrecisionRecipe v) { s.training.precision = precisionForRecipe(v); }),
                                   std::vector<PrecisionRecipe>{PrecisionRecipe::FP32, PrecisionRecipe::BF16Mixed,
                                                                PrecisionRecipe::FP16Mixed, PrecisionRecipe::FP8Mixed}));
    addField(training, choiceField("training.precision.gradient_dtype", tr("Gradient dtype"),
                                   tr("fp32 gradients give the 18-bytes-per-parameter convention (Megatron bf16)."),
                                   std::function<DType(const Scenario &)>([](const Scenario &s) { return s.training.precision.gradient_dtype; }),
                                   std::function<void(Scenario &, DType)>([](Scenario &s, DType v) { s.training.precision.gradient_dtype = v; }),
                                   std::vector<DType>{DType::FP32, DType::BF16, DType::FP16}));
    addField(training, boolField("training.precision.master_weights", tr("FP32 master weights"),
                                 tr("Without the master copy, mixed-precision Adam needs 12 bytes per parameter."),
                                 [](const Scenario &s) { return s.training.precision.master_weights; },
                                 [](Scenario &s, bool v) { s.training.precision.master_weights = v; }));
    addField(training, choiceField("training.optimizer", tr("Optimizer"), tr("Adam/AdamW keep two fp32 moments; 8-bit Adam two bytes; Adafactor factored moments."),
                                   std::function<Optimizer(const Scenario &)>([](const Scenario &s) { return s.training.optimizer; }),
                                   std::function<void(Scenario &, Optimizer)>([](Scenario &s, Optimizer v) { s.training.optimizer = v; }),
                                   std::vector<Optimizer>{Optimizer::SGD, Optimizer::Momentum, Optimizer::Adam, Optimizer::AdamW,
                                                          Optimizer::Adafactor, Optimizer::Adam8bit}));
    addField(training, choiceField("training.recomputation", tr("Recomputation"),
                                   tr("Selective recomputes the attention core; full keeps only each layer's input (Korthikanti et al. 2022)."),
                                   std::function<Recomputation(const Scenario &)>([](const Scenario &s) { return s.training.recomputation; }),
                                   std::function<void(Scenario &, Recomputation)>([](Scenario &s, Recomputation v) { s.training.recomputation = v; }),
                                   std::vector<Recomputation>{Recomputation::None, Recomputation::Selective, Recomputation::Full}));
    addField(training, boolField("training.flash_attention", tr("FlashAttention"), tr("The s x s score matrix is never stored (Dao et al. 2022)."),
                                 [](const Scenario &s) { return s.training.flash_attention; },
                                 [](Scenario &s, bool v) { s.training.flash_attention = v; }));
    addField(training, choiceField("training.attention_kernel", tr("Attention kernel"),
                                   tr("The FlashAttention generation the step-time prediction times (with FlashAttention "
                                      "on): FlashAttention-2 (Dao 2023) or FlashAttention-3, Hopper's asynchronous "
                                      "warp-specialised kernel (Shah et al. 2024), each at its own fitted fraction of "
                                      "peak. Memory does not depend on it."),
                                   std::function<AttentionKernel(const Scenario &)>([](const Scenario &s) { return s.training.attention_kernel; }),
                                   std::function<void(Scenario &, AttentionKernel)>([](Scenario &s, AttentionKernel v) { s.training.attention_kernel = v; }),
                                   std::vector<AttentionKernel>{AttentionKernel::FlashAttention2, AttentionKernel::FlashAttention3}));
    addField(training, boolField("training.fused_elementwise", tr("Fused element-wise"),
                                 tr("On: element-wise chains (bias+GeLU, bias+dropout+add, scale+mask+softmax, norms) "
                                    "run as fused kernels whose intermediates stay on chip (Megatron-LM and Transformer "
                                    "Engine fused kernels, torch.compile); the predicted step streams each chain's "
                                    "bytes once. Off: one kernel per operator, as in eager PyTorch."),
                                 [](const Scenario &s) { return s.training.fused_elementwise; },
                                 [](Scenario &s, bool v) { s.training.fused_elementwise = v; }));
    addField(training, boolField("training.dropout", tr("Dropout"), tr("Dropout masks are saved activations (Korthikanti et al. count them)."),
                                 [](const Scenario &s) { return s.training.dropout; },
                                 [](Scenario &s, bool v) { s.training.dropout = v; }));
    addField(training, choiceField("training.attention_flops", tr("Attention FLOPs"),
                                   tr("full counts the whole s x s score matrix (the papers' MFU); causal counts half (Megatron-LM)."),
                                   std::function<AttentionFlops(const Scenario &)>([](const Scenario &s) { return s.training.attention_flops; }),
                                   std::function<void(Scenario &, AttentionFlops)>([](Scenario &s, AttentionFlops v) { s.training.attention_flops = v; }),
                                   std::vector<AttentionFlops>{AttentionFlops::Full, AttentionFlops::Causal}));
    addField(training, choiceField("training.flops_model", tr("Time from"), tr("Exact operator count or 6·N·D (Kaplan et al. 2020)."),
                                   std::function<FlopsModel(const Scenario &)>([](const Scenario &s) { return s.training.flops_model; }),
                                   std::function<void(Scenario &, FlopsModel)>([](Scenario &s, FlopsModel v) { s.training.flops_model = v; }),
                                   std::vector<FlopsModel>{FlopsModel::Exact, FlopsModel::SixND}));
    addField(training, choiceField("training.mfu_source", tr("MFU from"),
                                   tr("given: the MFU typed below drives the time. predicted: the MFU follows from the "
                                      "predicted step time (operator-level kernel times + exposed communication + "
                                      "pipeline bubble; see the Validation page)."),
                                   std::function<MfuSource(const Scenario &)>([](const Scenario &s) { return s.training.mfu_source; }),
                                   std::function<void(Scenario &, MfuSource)>([](Scenario &s, MfuSource v) { s.training.mfu_source = v; }),
                                   std::vector<MfuSource>{MfuSource::Given, MfuSource::Predicted}));
    addField(training, realField("training.mfu", tr("MFU"), tr("Model FLOPs utilization: achieved model FLOP/s over peak (PaLM App. B)."),
                                 [](const Scenario &s) { return s.training.mfu; },
                                 [](Scenario &s, double v) { s.training.mfu = v; }, 0, 1, 3));
    addField(training, realField("training.framework_reserve_bytes", tr("Framework reserve"),
                                 tr("Memory per GPU the framework holds besides the model states and activations: the CUDA context, "
                                    "NCCL buffers and allocator fragmentation (default 4.1 GB, from published measurements; "
                                    "0 counts the model's own memory only)."),
                                 [](const Scenario &s) { return double(s.training.framework_reserve_bytes); },
                                 [](Scenario &s, double v) { s.training.framework_reserve_bytes = std::int64_t(v); },
                                 0, 1e4, 1, 1e-9, tr(" GB")));

    // --- Parallelism ---------------------------------------------------------------------------
    QFormLayout *parallel = makeTab(tr("Parallelism"));
    addField(parallel, intField("training.dp", tr("DP"), tr("Data-parallel degree."),
                                [](const Scenario &s) { return s.training.parallel.dp; },
                                [](Scenario &s, double v) { s.training.parallel.dp = int(v); }));
    addField(parallel, intField("training.tp", tr("TP"), tr("Tensor-parallel degree (Megatron column/row splits)."),
                                [](const Scenario &s) { return s.training.parallel.tp; },
                                [](Scenario &s, double v) { s.training.parallel.tp = int(v); }));
    addField(parallel, intField("training.pp", tr("PP"), tr("Pipeline stages."),
                                [](const Scenario &s) { return s.training.parallel.pp; },
                                [](Scenario &s, double v) { s.training.parallel.pp = int(v); }));
    addField(parallel, intField("training.cp", tr("CP"), tr("Context-parallel degree (ring attention)."),
                                [](const Scenario &s) { return s.training.parallel.cp; },
                                [](Scenario &s, double v) { s.training.parallel.cp = int(v); }));
    addField(parallel, intField("training.ep", tr("EP"), tr("Expert-parallel degree (MoE)."),
                                [](const Scenario &s) { return s.training.parallel.ep; },
                                [](Scenario &s, double v) { s.training.parallel.ep = int(v); }));
    addField(parallel, intField("training.virtual_stages", tr("Virtual stages"), tr("Interleaved pipeline chunks per GPU (v)."),
                                [](const Scenario &s) { return s.training.parallel.virtual_stages; },
                                [](Scenario &s, double v) { s.training.parallel.virtual_stages = int(v); }));
    {
        Field layers;
        layers.path = "training.stage_layers";
        layers.label = tr("Layers per stage");
        layers.tooltip = tr("Transformer layers on each pipeline stage, stage 0 first, e.g. 7,8,8,7: one count per "
                            "stage, summing to the model's layers. Empty: as even as possible, the extra layers on "
                            "the middle stages so the first (embedding) and last (head, loss) are lighter, as "
                            "Llama 3 405B ran 126 layers on 16 stages. Memory and time use the most loaded stage.");
        layers.kind = K::LayerList;
        layers.get = [](const Scenario &) { return 0.0; };
        layers.get_list = [](const Scenario &s) { return s.training.parallel.stage_layers; };
        layers.set_list = [](Scenario &s, std::vector<int> v) { s.training.parallel.stage_layers = std::move(v); };
        layers.empty_meaning = [](const Scenario &s) {
            // Long splits would not fit the field; the rule is then said in words.
            constexpr int kMaxListedStages = 32;
            const ParallelConfig &p = s.training.parallel;
            if (p.pp < 1 || p.pp > kMaxListedStages || s.model.n_layers < p.pp)
                return tr("automatic: as even as possible");
            return tr("automatic: %1").arg(qstr(stageLayersText(evenLayerSplit(s.model.n_layers, p.pp))));
        };
        addField(parallel, std::move(layers));
    }
    addField(parallel, intField("training.zero_stage", tr("ZeRO stage"), tr("1: optimizer states, 2: + gradients, 3: + parameters sharded over DP (Rajbhandari et al. 2019)."),
                                [](const Scenario &s) { return s.training.parallel.zero_stage; },
                                [](Scenario &s, double v) { s.training.parallel.zero_stage = int(v); }, 0, 3));
    addField(parallel, boolField("training.sequence_parallel", tr("Sequence parallel"),
                                 tr("Splits norms and dropout along the sequence across TP ranks (Korthikanti et al. 2022)."),
                                 [](const Scenario &s) { return s.training.parallel.sequence_parallel; },
                                 [](Scenario &s, bool v) { s.training.parallel.sequence_parallel = v; }));
    addField(parallel, boolField("training.dp_overlap", tr("DP overlap"),
                                 tr("Gradient all-reduce runs in buckets during the backward pass (PyTorch DDP, Megatron "
                                    "overlap_grad_reduce); only the last bucket stays exposed. Off: all of it follows "
                                    "backward, as older Megatron runs did. Default: on."),
                                 [](const Scenario &s) { return s.training.parallel.dp_overlap; },
                                 [](Scenario &s, bool v) { s.training.parallel.dp_overlap = v; }));
    addField(parallel, boolField("training.dp_param_gather_overlap", tr("Param gather overlap"),
                                 tr("ZeRO-1/2: the all-gather of the updated parameters runs bucket by bucket during the "
                                    "next step's first forward pass (Megatron-Core overlap_param_gather). Off: it follows "
                                    "the optimizer step, exposed. Default: on."),
                                 [](const Scenario &s) { return s.training.parallel.dp_param_gather_overlap; },
                                 [](Scenario &s, bool v) { s.training.parallel.dp_param_gather_overlap = v; }));
    addField(parallel, boolField("training.tp_comm_overlap", tr("TP comm overlap"),
                                 tr("Each TP collective is split into tp chunks pipelined with the GEMM that produces or "
                                    "consumes it (Megatron-Core --tp-comm-overlap, PyTorch async TP; Wang et al. 2023): "
                                    "exposed = max(traffic / tp, traffic − the GEMMs' time). Off: all of it is exposed, "
                                    "as in Megatron-LM of 2021/22. Default: off."),
                                 [](const Scenario &s) { return s.training.parallel.tp_comm_overlap; },
                                 [](Scenario &s, bool v) { s.training.parallel.tp_comm_overlap = v; }));
    addField(parallel, boolField("training.pp_comm_overlap", tr("PP comm overlap"),
                                 tr("Pipeline sends and receives run while the next model chunk computes (Megatron-Core "
                                    "overlap_p2p_comm, interleaved schedule): only the first send of the step and the "
                                    "last receive are exposed. Default: off."),
                                 [](const Scenario &s) { return s.training.parallel.pp_comm_overlap; },
                                 [](Scenario &s, bool v) { s.training.parallel.pp_comm_overlap = v; }));

    // --- Problems ------------------------------------------------------------------------------
    adjustment_label_ = new QLabel;
    adjustment_label_->setObjectName("adjustments");
    adjustment_label_->setWordWrap(true);
    adjustment_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(adjustment_label_);
    problem_header_ = new QLabel;
    problem_header_->setWordWrap(true);
    layout->addWidget(problem_header_);
    problem_list_ = new QListWidget;
    problem_list_->setObjectName("problems");
    problem_list_->setWordWrap(true);
    problem_list_->setMaximumHeight(140);
    connect(problem_list_, &QListWidget::itemActivated, this, [this, tabs](QListWidgetItem *item) {
        QWidget *widget = widgets_.value(item->data(Qt::UserRole).toString());
        if (!widget)
            return;
        // Bring the field's tab forward, then focus it.
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->widget(i)->isAncestorOf(widget))
                tabs->setCurrentIndex(i);
        widget->setFocus();
    });
    layout->addWidget(problem_list_);

    problem_list_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(problem_list_, &QListWidget::customContextMenuRequested, this, &ScenarioEditor::showProblemMenu);
    fix_button_ = new QPushButton(tr("Fix"));
    fix_button_->setObjectName("fixProblem");
    fix_button_->setToolTip(tr("Apply the repair of the selected problem (undoable)."));
    fix_all_button_ = new QPushButton(tr("Fix all"));
    fix_all_button_->setObjectName("fixAllProblems");
    fix_all_button_->setToolTip(tr("Apply every repair on offer, one undo step."));
    connect(fix_button_, &QPushButton::clicked, this, [this] { document_->fixProblem(problem_list_->currentRow()); });
    connect(fix_all_button_, &QPushButton::clicked, this, [this] { document_->fixAllProblems(); });
    connect(problem_list_, &QListWidget::currentRowChanged, this, [this](int row) {
        const QListWidgetItem *item = problem_list_->item(row);
        fix_button_->setEnabled(item && !item->data(kRepairRole).toString().isEmpty());
    });
    auto *fix_row = new QHBoxLayout;
    fix_row->addStretch(1);
    fix_row->addWidget(fix_button_);
    fix_row->addWidget(fix_all_button_);
    layout->addLayout(fix_row);

    // A combo box as wide as a typical choice, not its longest one (a preset or accelerator name
    // made every tab scroll sideways in a 330-px dock); the open list shows every name in full.
    for (QComboBox *box : findChildren<QComboBox *>()) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(12);
    }
}

// The problem list's items follow document_->problems() in order (markProblems builds them); this
// adds the repair core offers for each, so the Fix actions only appear where a repair exists.
void ScenarioEditor::updateFixActions()
{
    const Problems &problems = document_->problems();
    int fixable = 0;
    for (int row = 0; row < problem_list_->count() && row < int(problems.size()); ++row) {
        QListWidgetItem *item = problem_list_->item(row);
        const std::optional<Repair> repair = repairProblem(document_->scenario(), problems[std::size_t(row)]);
        const QString description = repair ? QString::fromStdString(repair->description) : QString();
        item->setData(kRepairRole, description);
        item->setToolTip(repair ? tr("Fix: %1").arg(description) : tr("No automatic fix; change the field by hand."));
        fixable += repair ? 1 : 0;
    }
    const QListWidgetItem *current = problem_list_->currentItem();
    fix_button_->setEnabled(current && !current->data(kRepairRole).toString().isEmpty());
    fix_button_->setVisible(!problems.empty());
    fix_all_button_->setVisible(!problems.empty());
    fix_all_button_->setEnabled(fixable > 0);
    fix_all_button_->setText(fixable > 0 ? tr("Fix all (%n)", nullptr, fixable) : tr("Fix all"));

    const QString note = document_->adjustmentNote();
    adjustment_label_->setVisible(!note.isEmpty());
    adjustment_label_->setText(note);
}

void ScenarioEditor::showProblemMenu(const QPoint &position)
{
    QListWidgetItem *item = problem_list_->itemAt(position);
    if (!item)
        return;
    const QString repair = item->data(kRepairRole).toString();
    QMenu menu(this);
    QAction *fix = menu.addAction(repair.isEmpty() ? tr("No automatic fix") : tr("Fix: %1").arg(repair));
    fix->setEnabled(!repair.isEmpty());
    const int row = problem_list_->row(item);
    connect(fix, &QAction::triggered, this, [this, row] { document_->fixProblem(row); });
    QAction *fix_all = menu.addAction(tr("Fix all"));
    fix_all->setEnabled(fix_all_button_->isEnabled());
    connect(fix_all, &QAction::triggered, this, [this] { document_->fixAllProblems(); });
    menu.exec(problem_list_->viewport()->mapToGlobal(position));
}

void ScenarioEditor::refreshFromDocument()
{
    refreshing_ = true;
    const Scenario &scenario = document_->scenario();
    for (const Field &field : fields_) {
        QWidget *widget = widgets_.value(field.path);
        const QSignalBlocker blocker(widget);
        const double value = field.get(scenario);
        switch (field.kind) {
        case Field::Kind::Integer:
            static_cast<QSpinBox *>(widget)->setValue(int(std::clamp(value * field.display_scale, -2e9, 2e9)));
            break;
        case Field::Kind::Real:
            static_cast<QDoubleSpinBox *>(widget)->setValue(value * field.display_scale);
            break;
        case Field::Kind::Count:
            static_cast<QLineEdit *>(widget)->setText(QString::fromStdString(formatCountText(std::int64_t(value))));
            break;
        case Field::Kind::Bool:
            static_cast<QCheckBox *>(widget)->setChecked(value != 0);
            break;
        case Field::Kind::Choice:
            static_cast<QComboBox *>(widget)->setCurrentIndex(int(value));
            break;
        case Field::Kind::LayerList: {
            auto *line = static_cast<QLineEdit *>(widget);
            line->setText(qstr(stageLayersText(field.get_list(scenario))));
            line->setPlaceholderText(field.empty_meaning(scenario));
            break;
        }
        }
    }
    {
        const QSignalBlocker blocker(preset_picker_);
        int preset_index = 0;
        for (int i = 1; i < preset_picker_->count(); ++i) {
            // By shape, not name: an edited preset is no longer the preset, whatever it is called.
            const ModelPreset *preset = findModelPreset(preset_picker_->itemData(i).toString().toStdString());
            if (preset && sameArchitecture(preset->model, scenario.model))
                preset_index = i;
        }
        preset_picker_->setCurrentIndex(preset_index);
    }
    {
        const QSignalBlocker blocker(gpu_picker_);
        if (gpu_picker_->findData(qstr(scenario.cluster.accelerator.id)) < 0)
            addUserAccelerators(gpu_picker_);  // an entry saved since the list was filled
        const int index = gpu_picker_->findData(qstr(scenario.cluster.accelerator.id));
        gpu_picker_->setCurrentIndex(index >= 0 ? index : gpu_picker_->count() - 1);
    }
    refreshing_ = false;
    markProblems();
    updateFixActions();
    showMfuSource();
}

// With "MFU from: predicted" the typed MFU does not count: its box is read-only and shows the MFU
// the engine predicted (when the estimate is the current scenario's), the tooltip says where it
// comes from. The typed value stays in the scenario for switching back to "given".
void ScenarioEditor::showMfuSource()
{
    auto *spin = qobject_cast<QDoubleSpinBox *>(widgets_.value(QStringLiteral("training.mfu")));
    if (!spin)
        return;
    const Scenario &scenario = document_->scenario();
    const bool predicted = scenario.training.mfu_source == MfuSource::Predicted;
    spin->setEnabled(!predicted);
    if (!predicted)
        return;
    const TimeEstimate &time = document_->estimate().time;
    const bool current = document_->isValid() && document_->hasEstimate() && time.predicted.has_value();
    if (current) {
        const QSignalBlocker blocker(spin);
        spin->setValue(time.mfu);
    }
    QString tooltip = tr("Predicted MFU%1: model FLOPs / (GPUs · peak · predicted step time), the step from "
                         "operator-level kernel times + exposed communication + pipeline bubble (see the Validation "
                         "page). Choose \"given\" under \"MFU from\" to type an MFU; the typed value (%2) is kept.")
                          .arg(current ? QStringLiteral(" %1").arg(time.mfu, 0, 'f', 3) : QString())
                          .arg(scenario.training.mfu, 0, 'f', 3);
    const QString problems = spin->toolTip().section(QStringLiteral("\n\n"), 1);
    spin->setToolTip(problems.isEmpty() ? tooltip : tooltip + QStringLiteral("\n\n") + problems);
}

void ScenarioEditor::markProblems()
{
    QHash<QString, QStringList> messages;
    problem_list_->clear();
    for (const Problem &problem : document_->problems()) {
        const QString field = QString::fromStdString(problem.field);
        const QString message = QString::fromStdString(problem.message);
        messages[field] << message;
        for (const std::string &related : problem.related)
            messages[QString::fromStdString(related)] << message;
        auto *item = new QListWidgetItem(message, problem_list_);
        item->setData(Qt::UserRole, field);
    }
    for (const Field &field : fields_) {
        QWidget *widget = widgets_.value(field.path);
        const QStringList list = messages.value(field.path);
        setInvalid(widget, !list.isEmpty());
        setInvalid(labels_.value(field.path), !list.isEmpty());
        widget->setToolTip(list.isEmpty() ? field.tooltip : field.tooltip + "\n\n" + list.join('\n'));
    }
    const int count = int(document_->problems().size());
    problem_list_->setVisible(count > 0);
    problem_header_->setText(count == 0 ? tr("✓ The scenario is valid.")
                                        : tr("%n problem(s); the pages show the last valid results.", nullptr, count));
}

void ScenarioEditor::commitPendingEdits()
{
    for (const Field &field : fields_) {
        QWidget *widget = widgets_.value(field.path);
        if (auto *spin = qobject_cast<QAbstractSpinBox *>(widget))
            spin->interpretText();  // emits valueChanged when the typed text differs
        else if (auto *line = qobject_cast<QLineEdit *>(widget); line && line->isModified())
            commitText(field.path);
    }
}

void ScenarioEditor::setPresentation(bool)
{
    // The editor inherits the application font, which presentation mode enlarges and restores;
    // a font set here would stay pinned at one size after leaving presentation mode.
    setFont(QFont());
}

}  // namespace lse::gui
