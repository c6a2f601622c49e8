// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/reference/reference_run_page.h"

#include "reference/engine_scenario.h"
#include "reference/peak_utilisation.h"
#include "reference/step_time_prediction.h"
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

using reference::OpRecord;
using reference::StepReport;
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

ReferenceRunPage::ReferenceRunPage(QWidget *parent) : Page(parent)
{
    content_ = addScrollingContent(this);
    auto *layout = new QVBoxLayout(content_);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);

    intro_ = new QLabel(content_);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    // Setup: preset, text, vocabulary, steps, controls.
    setup_box_ = new QGroupBox(content_);
    auto *setup = new QGridLayout(setup_box_);
    preset_label_ = new QLabel(setup_box_);
    preset_box_ = new QComboBox(setup_box_);
    shape_label_ = new QLabel(setup_box_);
    shape_label_->setWordWrap(true);
    text_label_ = new QLabel(setup_box_);
    text_box_ = new QComboBox(setup_box_);
    text_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    text_box_->setMinimumContentsLength(22);
    file_button_ = new QPushButton(setup_box_);
    vocab_label_ = new QLabel(setup_box_);
    vocab_spin_ = new QSpinBox(setup_box_);
    vocab_spin_->setRange(260, 16384);
    vocab_spin_->setValue(512);
    vocab_spin_->setSingleStep(64);
    steps_label_ = new QLabel(setup_box_);
    steps_spin_ = new QSpinBox(setup_box_);
    steps_spin_->setRange(1, 1000000);
    start_button_ = new QPushButton(setup_box_);
    pause_button_ = new QPushButton(setup_box_);
    stop_button_ = new QPushButton(setup_box_);
    measure_button_ = new QPushButton(setup_box_);
    progress_ = new QProgressBar(setup_box_);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    status_label_ = new QLabel(setup_box_);
    status_label_->setWordWrap(true);
    status_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    peak_label_ = new QLabel(setup_box_);
    peak_label_->setWordWrap(true);

    auto *preset_row = new QHBoxLayout;
    preset_row->addWidget(preset_label_);
    preset_row->addWidget(preset_box_);
    preset_row->addWidget(shape_label_, 1);
    setup->addLayout(preset_row, 0, 0);
    auto *text_row = new QHBoxLayout;
    text_row->addWidget(text_label_);
    text_row->addWidget(text_box_);
    text_row->addWidget(file_button_);
    text_row->addStretch(1);
    text_row->addWidget(vocab_label_);
    text_row->addWidget(vocab_spin_);
    setup->addLayout(text_row, 1, 0);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(steps_label_);
    buttons->addWidget(steps_spin_);
    buttons->addWidget(start_button_);
    buttons->addWidget(pause_button_);
    buttons->addWidget(stop_button_);
    buttons->addWidget(progress_, 1);
    setup->addLayout(buttons, 2, 0);
    auto *peak_row = new QHBoxLayout;
    peak_row->addWidget(peak_label_, 1);
    peak_row->addWidget(measure_button_);
    setup->addLayout(peak_row, 3, 0);
    setup->addWidget(status_label_, 4, 0);
    layout->addWidget(setup_box_);

    stats_label_ = new QLabel(content_);
    stats_label_->setWordWrap(true);
    stats_label_->setTextFormat(Qt::RichText);
    layout->addWidget(stats_label_);

    loss_chart_ = new ChartView(QStringLiteral("reference-run-loss"), content_);
    loss_chart_->setMinimumHeight(kChartMinimumHeight);
    layout->addWidget(loss_chart_);

    table_label_ = new QLabel(content_);
    table_label_->setWordWrap(true);
    layout->addWidget(table_label_);
    table_ = new QTableWidget(8, 4, content_);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(table_);

    ops_chart_ = new ChartView(QStringLiteral("reference-run-op-times"), content_);
    ops_chart_->setMinimumHeight(kChartMinimumHeight);
    layout->addWidget(ops_chart_);

    // Generation.
    gen_box_ = new QGroupBox(content_);
    auto *gen = new QGridLayout(gen_box_);
    prompt_label_ = new QLabel(gen_box_);
    prompt_edit_ = new QLineEdit(gen_box_);
    prompt_edit_->setText(QStringLiteral("Once upon a time"));
    max_tokens_label_ = new QLabel(gen_box_);
    max_tokens_spin_ = new QSpinBox(gen_box_);
    max_tokens_spin_->setRange(1, 4096);
    max_tokens_spin_->setValue(60);
    temperature_label_ = new QLabel(gen_box_);
    temperature_spin_ = new QDoubleSpinBox(gen_box_);
    temperature_spin_->setRange(0, 5);
    temperature_spin_->setSingleStep(0.1);
    temperature_spin_->setValue(0.8);
    top_k_label_ = new QLabel(gen_box_);
    top_k_spin_ = new QSpinBox(gen_box_);
    top_k_spin_->setRange(0, 100000);
    top_k_spin_->setValue(20);
    generate_button_ = new QPushButton(gen_box_);
    output_edit_ = new QPlainTextEdit(gen_box_);
    output_edit_->setReadOnly(true);
    output_edit_->setMinimumHeight(100);
    gen->addWidget(prompt_label_, 0, 0);
    gen->addWidget(prompt_edit_, 0, 1, 1, 7);
    gen->addWidget(max_tokens_label_, 1, 0);
    gen->addWidget(max_tokens_spin_, 1, 1);
    gen->addWidget(temperature_label_, 1, 2);
    gen->addWidget(temperature_spin_, 1, 3);
    gen->addWidget(top_k_label_, 1, 4);
    gen->addWidget(top_k_spin_, 1, 5);
    gen->addWidget(generate_button_, 1, 7);
    gen->setColumnStretch(6, 1);
    gen->addWidget(output_edit_, 2, 0, 1, 8);
    layout->addWidget(gen_box_);
    layout->addStretch(1);

    loadPresets();
    loadSamples();
    cpu_ = loadCachedMachineRoofline();
    if (cpu_)
        peak_flops_ = cpu_->peak_flops_per_s_all_cores;

    connect(preset_box_, &QComboBox::currentIndexChanged, this, [this] {
        const TrainConfig c = selectedConfig();
        steps_spin_->setValue(c.steps);
        vocab_spin_->setValue(int(std::clamp<std::int64_t>(c.model.vocab_size, vocab_spin_->minimum(), vocab_spin_->maximum())));
        updateShape();
    });
    connect(vocab_spin_, &QSpinBox::valueChanged, this, &ReferenceRunPage::updateShape);
    connect(file_button_, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Choose a text file"), QString(),
                                                          tr("Text files (*.txt *.md);;All files (*)"));
        if (!file.isEmpty())
            addTextFile(file);
    });
    connect(start_button_, &QPushButton::clicked, this, [this] { start(); });
    connect(pause_button_, &QPushButton::clicked, this, [this] {
        if (state_ == State::Paused)
            resume();
        else
            pause();
    });
    connect(stop_button_, &QPushButton::clicked, this, &ReferenceRunPage::stop);
    connect(measure_button_, &QPushButton::clicked, this, &ReferenceRunPage::measureMachine);
    connect(generate_button_, &QPushButton::clicked, this, [this] {
        generate(prompt_edit_->text(), max_tokens_spin_->value(), temperature_spin_->value(), top_k_spin_->value());
    });
    connect(prompt_edit_, &QLineEdit::returnPressed, generate_button_, &QPushButton::click);

    if (!presets_.empty()) {
        steps_spin_->setValue(presets_.front().config.steps);
        vocab_spin_->setValue(int(std::clamp<std::int64_t>(presets_.front().config.model.vocab_size, vocab_spin_->minimum(),
                                                           vocab_spin_->maximum())));
    }
    applyFonts();
    retranslateUi();
    nameLessonRegions();
}

ReferenceRunPage::~ReferenceRunPage()
{
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
        cancel_ = true;
    }
    wake_.notify_all();
    if (worker_.joinable())
        worker_.join();
}

QString ReferenceRunPage::id() const { return QStringLiteral("reference_run"); }

QString ReferenceRunPage::title() const { return tr("Reference run"); }

void ReferenceRunPage::showEstimate(const Scenario &, const Estimate &) {}

QList<ChartView *> ReferenceRunPage::charts() const
{
    // Only charts with something plotted (for export-all): before a run both are empty.
    QList<ChartView *> list;
    if (!loss_x_.isEmpty())
        list << loss_chart_;
    if (last_profile_ && !last_profile_->ops.empty())
        list << ops_chart_;
    return list;
}

void ReferenceRunPage::setPresentation(bool presentation)
{
    presentation_ = presentation;
    loss_chart_->setPresentation(presentation);  // charts() lists only charts with data
    ops_chart_->setPresentation(presentation);
    applyFonts();
}

void ReferenceRunPage::retranslate() { retranslateUi(); }

void ReferenceRunPage::changeEvent(QEvent *event)
{
    Page::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    else if (event->type() == QEvent::FontChange)
        applyFonts();  // table row heights follow the font
}

void ReferenceRunPage::applyFonts()
{
    // The text follows the application font, which presentation mode and zoom scale; a font of
    // the page's own would scale twice. Row heights are derived from it each time.
    const QFont f = QApplication::font();
    const int chart_height = presentation_ ? kPresentationChartMinimumHeight : kChartMinimumHeight;
    loss_chart_->setMinimumHeight(chart_height);
    ops_chart_->setMinimumHeight(chart_height);
    output_edit_->setMinimumHeight(presentation_ ? 200 : 100);
    const int row_height = QFontMetrics(f).height() + 10;
    table_->verticalHeader()->setMinimumSectionSize(row_height);
    table_->verticalHeader()->setDefaultSectionSize(row_height);
    for (int r = 0; r < table_->rowCount(); ++r)
        table_->setRowHeight(r, row_height);
    int height = table_->horizontalHeader()->sizeHint().height() + 2 * table_->frameWidth() + 2;
    for (int r = 0; r < table_->rowCount(); ++r)
        height += table_->rowHeight(r);
    table_->setFixedHeight(height);
}

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

void ReferenceRunPage::setState(State state)
{
    state_ = state;
    updateButtons();
    refreshStats();
    emit stateChanged(state);
}

void ReferenceRunPage::updateButtons()
{
    const bool running = state_ == State::Preparing || state_ == State::Training || state_ == State::Paused;
    start_button_->setEnabled(!running);
    pause_button_->setEnabled(state_ == State::Training || state_ == State::Paused);
    pause_button_->setText(state_ == State::Paused ? tr("Resume") : tr("Pause"));
    stop_button_->setEnabled(running);
    for (QWidget *w : std::initializer_list<QWidget *>{preset_box_, text_box_, file_button_, vocab_spin_, steps_spin_})
        w->setEnabled(!running);
    const bool has_model = run_.has_value() && state_ != State::Preparing;
    generate_button_->setEnabled(has_model && !generating_);
    measure_button_->setEnabled(!measuring_);
}

void ReferenceRunPage::ensureWorker()
{
    if (!worker_.joinable())
        worker_ = std::thread([this] { workerLoop(); });
}

bool ReferenceRunPage::start()
{
    if (state_ == State::Preparing || state_ == State::Training || state_ == State::Paused)
        return false;
    QString error;
    const QString text = selectedText(&error);
    if (text.isEmpty()) {
        error_ = error.isEmpty() ? tr("The text is empty.") : error;
        setState(State::Failed);
        retranslateUi();
        return false;
    }
    Setup setup;
    setup.id = ++run_id_;
    setup.config = selectedConfig();
    setup.config.steps = steps_spin_->value();
    setup.config.peak_flops_per_s = peak_flops_;
    setup.text = text.toStdString();
    setup.vocab = vocab_spin_->value();
    setup.roofline = cpu_;
    run_.reset();
    step_seconds_.clear();
    last_report_.reset();
    last_profile_.reset();
    loss_x_.clear();
    loss_y_.clear();
    val_x_.clear();
    val_y_.clear();
    error_.clear();
    generated_.clear();
    generating_ = false;
    output_edit_->clear();
    progress_->setRange(0, 0);
    {
        std::lock_guard lock(mutex_);
        setup_request_ = std::move(setup);
        generate_request_.reset();
        train_ = false;
        paused_ = false;
        cancel_ = true;  // ends a generation still running for the previous model
    }
    wake_.notify_all();
    ensureWorker();
    setState(State::Preparing);
    refreshLossChart();
    refreshTable();
    refreshOpsChart();
    retranslateUi();
    return true;
}

void ReferenceRunPage::pause()
{
    if (state_ != State::Training)
        return;
    {
        std::lock_guard lock(mutex_);
        paused_ = true;
    }
    setState(State::Paused);
    retranslateUi();
}

void ReferenceRunPage::resume()
{
    if (state_ != State::Paused)
        return;
    {
        std::lock_guard lock(mutex_);
        paused_ = false;
    }
    wake_.notify_all();
    setState(State::Training);
    retranslateUi();
}

void ReferenceRunPage::stop()
{
    if (state_ != State::Preparing && state_ != State::Training && state_ != State::Paused)
        return;
    {
        std::lock_guard lock(mutex_);
        train_ = false;
        paused_ = false;
        if (setup_request_) {
            setup_request_.reset();
        }
        if (state_ == State::Preparing)
            cancel_ = true;  // ends the BPE training
    }
    wake_.notify_all();
    if (state_ == State::Preparing)
        run_.reset();
    progress_->setRange(0, 1);
    setState(State::Stopped);
    retranslateUi();
}

bool ReferenceRunPage::generate(const QString &prompt, int max_tokens, double temperature, int top_k)
{
    if (!run_ || state_ == State::Preparing || generating_)
        return false;
    GenerateRequest request;
    request.prompt = prompt.toStdString();
    request.options.max_new_tokens = max_tokens;
    request.options.temperature = temperature;
    request.options.top_k = top_k;
    request.options.seed = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    {
        std::lock_guard lock(mutex_);
        generate_request_ = std::move(request);
    }
    wake_.notify_all();
    ensureWorker();
    generating_ = true;
    generated_.clear();
    output_edit_->setPlainText(prompt);
    updateButtons();
    return true;
}

void ReferenceRunPage::measureMachine()
{
    if (measuring_)
        return;
    {
        std::lock_guard lock(mutex_);
        measure_request_ = true;
    }
    wake_.notify_all();
    ensureWorker();
    measuring_ = true;
    updateButtons();
    retranslateUi();
}

void ReferenceRunPage::postStatus(const QString &text)
{
    QMetaObject::invokeMethod(
        this,
        [this, text] {
            status_ = text;
            status_label_->setText(text);
        },
        Qt::QueuedConnection);
}

// ---- UI thread: results ----------------------------------------------------------------------

void ReferenceRunPage::onRunReady(int id, std::shared_ptr<RunInfo> info)
{
    if (id != run_id_ || state_ != State::Preparing)
        return;  // stopped meanwhile
    run_ = *info;
    progress_->setRange(0, info->config.steps);
    progress_->setValue(0);
    setState(State::Training);
    refreshTable();
    retranslateUi();
}

void ReferenceRunPage::onRunFailed(int id, const QString &error)
{
    if (id != run_id_ || state_ == State::Stopped || state_ == State::Idle)
        return;  // a cancelled preparation
    error_ = error;
    progress_->setRange(0, 1);
    progress_->setValue(0);
    if (state_ == State::Preparing)
        run_.reset();
    setState(State::Failed);
    retranslateUi();
}

void ReferenceRunPage::drainSteps()
{
    std::vector<PendingStep> steps;
    {
        std::lock_guard lock(mutex_);
        steps.swap(pending_steps_);
        drain_posted_ = false;
    }
    bool finished = false;
    int applied = 0;
    for (PendingStep &p : steps) {
        if (p.id != run_id_ || !run_)
            continue;  // a report of an earlier run
        last_report_ = p.report;
        step_seconds_.push_back(p.report.seconds);
        if (step_seconds_.size() > kTimedSteps + 1)  // keep the first (left out) and the latest
            step_seconds_.erase(step_seconds_.begin() + 1);
        if (p.profile)
            last_profile_ = std::move(p.profile);
        loss_x_.push_back(p.report.step);
        loss_y_.push_back(p.report.loss);
        if (p.report.validation_loss) {
            val_x_.push_back(p.report.step);
            val_y_.push_back(*p.report.validation_loss);
        }
        finished = finished || p.finished;
        ++applied;
    }
    if (applied == 0)
        return;
    progress_->setValue(last_report_->step);
    refreshLossChart();
    refreshTable();
    refreshOpsChart();
    refreshStats();
    for (const PendingStep &p : steps)
        if (p.id == run_id_)
            emit stepReported(p.report.step);
    if (finished && (state_ == State::Training || state_ == State::Paused)) {
        setState(State::Finished);
        retranslateUi();
    }
}

void ReferenceRunPage::onGenerated(const QString &text, bool done, bool ok)
{
    if (!generating_)
        return;
    if (!ok) {
        output_edit_->setPlainText(tr("Generation failed: %1").arg(text));
    } else {
        output_edit_->setPlainText(text);
        generated_ = text;
    }
    if (done) {
        generating_ = false;
        updateButtons();
        emit generationFinished(ok);
    }
}

void ReferenceRunPage::onMeasured(std::shared_ptr<MachineRoofline> roofline)
{
    measuring_ = false;
    const bool ok = roofline->peak_flops_per_s_all_cores > 0;
    if (ok) {
        peak_flops_ = roofline->peak_flops_per_s_all_cores;
        cpu_ = *roofline;
    }
    updateButtons();
    retranslateUi();
    emit machineMeasured(ok);
}

void ReferenceRunPage::retranslateUi()
{
    intro_->setText(tr("Train a real decoder-only transformer on this CPU (Eigen, float32, hand-written backward "
                       "pass) and check the cost engine against it: the same model, batch and sequence length "
                       "predicted and measured side by side. Pick a preset and a text, press Start; the page stays "
                       "responsive while a worker thread trains."));
    setup_box_->setTitle(tr("Run"));
    preset_label_->setText(tr("Preset:"));
    preset_box_->setToolTip(tr("Small training configurations (TrainConfig JSON) compiled into the app."));
    text_label_->setText(tr("Text:"));
    for (int i = 0; i < text_box_->count(); ++i)
        if (text_box_->itemData(i).toString().isEmpty())
            text_box_->setItemText(i, tr("Built-in sample (short stories)"));
    text_box_->setToolTip(tr("The training text: a bundled sample or a file you choose. The last 10% of its tokens "
                             "are held out for the validation loss."));
    file_button_->setText(tr("Choose file…"));
    vocab_label_->setText(tr("BPE vocabulary:"));
    vocab_spin_->setToolTip(tr("A byte-level BPE with this many tokens (256 bytes + <|endoftext|> + merges) is trained "
                               "on the text at Start. A small vocabulary keeps the LM head small."));
    steps_label_->setText(tr("Steps:"));
    start_button_->setText(tr("Start"));
    stop_button_->setText(tr("Stop"));
    measure_button_->setText(measuring_ ? tr("Measuring…") : cpu_ ? tr("Re-measure this machine") : tr("Measure this machine"));
    measure_button_->setToolTip(tr("Runs Eigen SGEMM on large square matrices and a STREAM triad in the worker "
                                   "(a few seconds) and caches the result for MFU and the predicted step time."));
    QString machine;
    if (cpu_)
        machine = tr("Measured roofline of this machine: %1 peak on all cores, %2 on one core (SGEMM), %3 bandwidth, "
                     "measured %4; MFU and the predicted step time use it (from the next Start).")
                      .arg(format::si(cpu_->peak_flops_per_s_all_cores, QStringLiteral("FLOP/s")),
                           format::si(cpu_->peak_flops_per_s_one_core, QStringLiteral("FLOP/s")),
                           format::si(cpu_->bandwidth_bytes_per_s_all_cores, QStringLiteral("B/s")),
                           QString::fromStdString(cpu_->measured_at));
    else
        machine = tr("No measured roofline of this machine is cached, so MFU and the predicted step time are not "
                     "reported. Measure it once (applies from the next Start).");
    if (cpu_ && !machineWarningTexts(*cpu_).isEmpty())
        machine += QLatin1Char(' ') + machineWarningSentence(*cpu_);
    peak_label_->setText(machine);
    switch (state_) {
    case State::Idle: status_ = tr("Ready."); break;
    case State::Preparing: status_ = tr("Training the BPE, encoding the text and building the model…"); break;
    case State::Training: status_ = tr("Training…"); break;
    case State::Paused: status_ = tr("Paused: generate, or resume training."); break;
    case State::Finished: status_ = tr("Finished all steps."); break;
    case State::Stopped: status_ = tr("Stopped. The model stays for generation; Start begins a new run."); break;
    case State::Failed: status_ = tr("Failed: %1").arg(error_); break;
    }
    status_label_->setText(status_);
    table_label_->setText(tr("Predicted (cost engine) vs measured (this run), for the same model, batch and sequence "
                             "length. Hover a cell for its formula or source."));
    table_->setHorizontalHeaderLabels({tr("Quantity"), tr("Predicted"), tr("Measured"), tr("Difference")});
    gen_box_->setTitle(tr("Generate"));
    prompt_label_->setText(tr("Prompt:"));
    max_tokens_label_->setText(tr("Max tokens:"));
    temperature_label_->setText(tr("Temperature:"));
    temperature_spin_->setToolTip(tr("Divides the logits before softmax; 0 is greedy."));
    top_k_label_->setText(tr("Top-k:"));
    top_k_spin_->setToolTip(tr("Sample only among the k most likely tokens; 0 is off."));
    generate_button_->setText(tr("Generate"));
    generate_button_->setToolTip(tr("Samples from the current model with its KV cache, between training steps or "
                                    "when paused or stopped; text is decoded with the run's BPE."));
    output_edit_->setPlaceholderText(tr("Generated text appears here as tokens arrive."));
    updateShape();
    updateButtons();
    refreshStats();
    refreshLossChart();
    refreshTable();
    refreshOpsChart();
    applyFonts();
}

}  // namespace lse::gui
