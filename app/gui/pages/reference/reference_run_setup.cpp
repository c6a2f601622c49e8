// SPDX-License-Identifier: GPL-3.0-or-later
// The Reference run page's setup panel: the presets (compiled-in or built-in tiny ones), the
// training text (samples, a file, custom text), the vocabulary and step counts, and the model
// shape they give.
#include "pages/reference/reference_run_page.h"

#include "reference/engine_scenario.h"
#include "reference/peak_utilisation.h"
#include "reference/training_text.h"

#include "charts/chart_view.h"
#include "common/file_bytes.h"
#include "cost/estimate.h"
#include "cost/parameters.h"
#include "pages/page_format.h"
#include "pages/roofline/machine_warnings.h"
#include "reference/token_data.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/bpe_trainer.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QApplication>
#include <QFontMetrics>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

namespace lse::gui {

using reference::TrainConfig;

namespace {

// Used when no :/samples/*.txt is compiled in: a short public-domain-style story, enough for a
// tiny model to learn word shapes in a few hundred steps.
constexpr const char *kBuiltinSample =
    R"(Once upon a time there was a little robot named Tim. Tim liked to count the stars at night. Every night he went up the hill, sat on a big rock and counted: one, two, three, many. One night a small bird sat next to him. "What are you doing?" asked the bird. "I am counting the stars," said Tim. "There are too many," said the bird. "Then I will count them again tomorrow," said Tim, and he smiled.
The next day Tim met a cat in the garden. The cat was sad because it had lost its red ball. Tim looked under the tree, behind the house and in the old box. The ball was in the box. The cat was happy and said thank you. Tim was happy too, because helping a friend is better than counting stars.
Lily had a blue kite. She ran in the park and the kite went up and up into the sky. The wind was strong and the string broke. The kite flew over the trees. Lily was sad, but her dad said, "Let us make a new kite together." They made a kite with red paper and a long tail. It flew even higher than the blue one.
)";

TrainConfig tinyConfig(const char *name, int layers, int d_model, int heads, int d_ff, int context, int batch, int steps)
{
    TrainConfig c;
    c.model.name = name;
    c.model.n_layers = layers;
    c.model.d_model = d_model;
    c.model.n_heads = heads;
    c.model.n_kv_heads = heads;
    c.model.head_dim = d_model / heads;
    c.model.d_ff = d_ff;
    c.model.vocab_size = 512;
    c.model.max_seq_len = context;
    c.model.norm = NormType::RMSNorm;
    c.model.norm_placement = NormPlacement::Pre;
    c.model.activation = Activation::SwiGLU;
    c.model.positional_encoding = PositionalEncoding::RoPE;
    c.batch_size = batch;
    c.steps = steps;
    c.lr_max = 3e-3;
    c.lr_min = 3e-4;
    c.warmup_steps = std::max(1, steps / 20);
    c.eval_every = std::max(1, steps / 20);
    c.eval_batches = 2;
    return c;
}

}  // namespace

void ReferenceRunPage::loadPresets()
{
    presets_.clear();
    const QDir dir(QStringLiteral(":/reference"));
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        Result<TrainConfig> config = reference::trainConfigFromJson(file.readAll(), name.toStdString());
        if (!config)
            continue;
        QString label = QFileInfo(name).completeBaseName();
        if (!config->model.name.empty())
            label = QString::fromStdString(config->model.name);
        presets_.push_back({label, config.value()});
    }
    // Smallest first: the default is the one that trains in minutes.
    std::stable_sort(presets_.begin(), presets_.end(), [](const Preset &a, const Preset &b) {
        return countParameters(a.config.model).total < countParameters(b.config.model).total;
    });
    if (presets_.empty()) {
        presets_.push_back({QStringLiteral("tiny"), tinyConfig("tiny", 2, 64, 4, 172, 64, 8, 300)});
        presets_.push_back({QStringLiteral("small"), tinyConfig("small", 4, 256, 8, 688, 128, 16, 1000)});
    }
    const QSignalBlocker block(preset_box_);
    preset_box_->clear();
    for (const Preset &p : presets_)
        preset_box_->addItem(p.name);
}

void ReferenceRunPage::loadSamples()
{
    const QSignalBlocker block(text_box_);
    text_box_->clear();
    const QDir dir(QStringLiteral(":/samples"));
    for (const QString &name : dir.entryList({QStringLiteral("*.txt")}, QDir::Files, QDir::Name))
        text_box_->addItem(QFileInfo(name).completeBaseName(), dir.filePath(name));
    if (text_box_->count() == 0)
        text_box_->addItem(QString(), QString());  // the built-in sample; named in retranslateUi
}

QStringList ReferenceRunPage::presetNames() const
{
    QStringList names;
    for (const Preset &p : presets_)
        names << p.name;
    return names;
}

TrainConfig ReferenceRunPage::selectedConfig() const
{
    const int i = preset_box_->currentIndex();
    return i >= 0 && i < int(presets_.size()) ? presets_[std::size_t(i)].config : TrainConfig{};
}

void ReferenceRunPage::setPresetConfig(const TrainConfig &config)
{
    const int i = preset_box_->currentIndex();
    if (i < 0 || i >= int(presets_.size()))
        return;
    presets_[std::size_t(i)].config = config;
    steps_spin_->setValue(config.steps);
    updateShape();
}

void ReferenceRunPage::addTextFile(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    int index = text_box_->findData(absolute);
    if (index < 0) {
        text_box_->addItem(QFileInfo(absolute).fileName(), absolute);
        index = text_box_->count() - 1;
    }
    text_box_->setCurrentIndex(index);
    custom_text_.clear();
}

void ReferenceRunPage::setCustomText(const QString &text) { custom_text_ = text; }

void ReferenceRunPage::setVocabSize(int vocab) { vocab_spin_->setValue(vocab); }

void ReferenceRunPage::setSteps(int steps) { steps_spin_->setValue(steps); }

QString ReferenceRunPage::selectedText(QString *error) const
{
    if (!custom_text_.isEmpty())
        return custom_text_;
    const QString path = text_box_->currentData().toString();
    if (path.isEmpty())
        return QString::fromUtf8(kBuiltinSample);
    // The loaders' rule: a regular file of sensible size (a device or FIFO would be read forever).
    const Result<QByteArray> bytes = readFileBytes(path.toStdString(), FileKind::Text);
    if (!bytes) {
        if (error)
            *error = tr("Cannot read %1: %2")
                         .arg(QDir::toNativeSeparators(path), QString::fromStdString(bytes.problems().front().message));
        return QString();
    }
    return QString::fromUtf8(*bytes);
}

QString ReferenceRunPage::generatedText() const { return output_edit_->toPlainText(); }

QString ReferenceRunPage::statusText() const { return status_label_->text(); }

std::optional<TrainConfig> ReferenceRunPage::runConfig() const
{
    return run_ ? std::optional<TrainConfig>(run_->config) : std::nullopt;
}

QString ReferenceRunPage::machineText() const { return peak_label_->text(); }

QString ReferenceRunPage::statsText() const { return stats_label_->text(); }

void ReferenceRunPage::updateShape()
{
    TrainConfig c = selectedConfig();
    c.model.vocab_size = vocab_spin_->value();
    const ParameterCounts counts = countParameters(c.model);
    shape_label_->setText(tr("%1 layers, d_model %2, %3 heads (head dim %4), d_ff %5, context %6, batch %7 · "
                             "%8 parameters at vocabulary %9")
                              .arg(c.model.n_layers)
                              .arg(format::integer(c.model.d_model))
                              .arg(c.model.n_heads)
                              .arg(c.model.head_dim)
                              .arg(format::integer(c.model.d_ff))
                              .arg(format::integer(c.model.max_seq_len))
                              .arg(c.batch_size)
                              .arg(format::count(double(counts.total)), format::integer(c.model.vocab_size)));
    shape_label_->setToolTip(tr("Parameter count from the cost engine (core/cost/parameters): embeddings, attention, "
                                "feed-forward, norms and LM head. The vocabulary is the BPE's, trained on the chosen "
                                "text at Start."));
}

}  // namespace lse::gui
