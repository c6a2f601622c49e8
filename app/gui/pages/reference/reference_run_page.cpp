// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/reference/reference_run_page.h"

#include "pages/flow_layout.h"
#include "reference/engine_scenario.h"
#include "reference/peak_utilisation.h"
#include "reference/step_time_comparison.h"
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
#include "pages/table_key_columns.h"

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
    trace_button_ = new QPushButton(setup_box_);
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
    // The text and vocabulary controls wrap beside the scenario editor on a 1024-px screen.
    auto *text_row = new FlowLayout(nullptr, 12);
    auto *text_pair = new QHBoxLayout;
    text_pair->addWidget(text_label_);
    text_pair->addWidget(text_box_);
    text_pair->addWidget(file_button_);
    text_row->addLayout(text_pair);
    text_row->addLabelled(vocab_label_, vocab_spin_);
    setup->addLayout(text_row, 1, 0);
    auto *buttons = new FlowLayout;
    buttons->addLabelled(steps_label_, steps_spin_);
    buttons->addWidget(start_button_);
    buttons->addWidget(pause_button_);
    buttons->addWidget(stop_button_);
    buttons->addWidget(trace_button_);
    buttons->addWidget(progress_);
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
    // The quantity's name is never elided (an even split cut "Parameters (engine count)" at 1024×768).
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setKeyColumns(table_, {0, 1, 2, 3});  // quantity, predicted, measured, difference
    layout->addWidget(table_);

    operators_label_ = new QLabel(content_);
    operators_label_->setWordWrap(true);
    layout->addWidget(operators_label_);
    operators_table_ = new QTableWidget(0, 5, content_);
    operators_table_->verticalHeader()->setVisible(false);
    operators_table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    operators_table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    operators_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    operators_table_->setSelectionMode(QAbstractItemView::NoSelection);
    operators_table_->setMinimumHeight(160);
    setKeyColumns(operators_table_, {0, 2, 3, 4});  // operator, predicted, measured, difference
    layout->addWidget(operators_table_);

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
    gen->addWidget(prompt_edit_, 0, 1);
    // The sampling settings and Generate wrap beside the scenario editor on a 1024-px screen.
    auto *sampling = new FlowLayout(nullptr, 12);
    sampling->addLabelled(max_tokens_label_, max_tokens_spin_);
    sampling->addLabelled(temperature_label_, temperature_spin_);
    sampling->addLabelled(top_k_label_, top_k_spin_);
    sampling->addWidget(generate_button_);
    gen->addLayout(sampling, 1, 0, 1, 2);
    gen->addWidget(output_edit_, 2, 0, 1, 2);
    layout->addWidget(gen_box_);
    layout->addStretch(1);

    loadPresets();
    loadSamples();
    cpu_ = loadCachedMachineRoofline();
    if (cpu_) {
        peak_flops_ = cpu_->peak_flops_per_s_all_cores;
        cache_measured_at_ = cpu_->measured_at;
    }

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
    connect(trace_button_, &QPushButton::clicked, this, &ReferenceRunPage::chooseTraceFile);
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
        interrupt_step_ = true;
    }
    wake_.notify_all();
    if (worker_.joinable())
        worker_.join();
}

QString ReferenceRunPage::pageId() { return QStringLiteral("reference_run"); }

QString ReferenceRunPage::pageTitle() { return tr("Reference run"); }

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

// charts() lists only charts with data; presentation mode sizes both.
QList<ChartView *> ReferenceRunPage::presentationCharts() const { return {loss_chart_, ops_chart_}; }

void ReferenceRunPage::applyPresentation(bool /*presentation*/) { applyFonts(); }

void ReferenceRunPage::retranslate() { retranslateUi(); }

void ReferenceRunPage::showEvent(QShowEvent *event)
{
    Page::showEvent(event);
    // The Roofline page measures this machine too; all pages are built when a lesson starts, so
    // this one looks again each time it is shown (a run keeps the peak it started with).
    if (measuring_)
        return;
    const std::optional<MachineRoofline> cached = loadCachedMachineRoofline();
    if (cached && cached->measured_at != cache_measured_at_) {
        cache_measured_at_ = cached->measured_at;
        cpu_ = cached;
        peak_flops_ = cached->peak_flops_per_s_all_cores;
        updateButtons();
        retranslateUi();
    }
}

void ReferenceRunPage::changeEvent(QEvent *event)
{
    Page::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        applyFonts();  // table row heights follow the font
}

void ReferenceRunPage::applyFonts()
{
    // The text follows the application font, which presentation mode and zoom scale; a font of
    // the page's own would scale twice. Row heights are derived from it each time.
    const QFont f = QApplication::font();
    const int chart_height = presentation() ? kPresentationChartMinimumHeight : kChartMinimumHeight;
    loss_chart_->setMinimumHeight(chart_height);
    ops_chart_->setMinimumHeight(chart_height);
    output_edit_->setMinimumHeight(presentation() ? 200 : 100);
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
    trace_button_->setEnabled(hasTrace());
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
    trace_document_.clear();  // the new run records its own steps
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
        interrupt_step_ = true;
    }
    wake_.notify_all();
    ensureWorker();
    setState(State::Preparing);
    refreshLossChart();
    refreshTable();
    refreshOperatorsTable();
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
        interrupt_step_ = true;
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
    refreshOperatorsTable();
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
    refreshOperatorsTable();
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
        cache_measured_at_ = roofline->measured_at;
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
    retranslateTrace();
    measure_button_->setToolTip(tr("Runs Eigen SGEMM on large square matrices and a STREAM triad in the worker "
                                   "(a few seconds) and caches the result for MFU; the step time is predicted from this "
                                   "CPU's kernel factors, measured at Start when none are cached for the run's threads."));
    QString machine;
    if (cpu_)
        machine = tr("Measured roofline of this machine: %1 peak on all cores, %2 on one core (SGEMM), %3 bandwidth, "
                     "measured %4; MFU uses it (from the next Start).")
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
    operators_label_->setText(tr("Each operator's time in the last step: predicted by the operator-level step predictor "
                                 "from this CPU's measured kernel factors, and measured by the op profiler; largest "
                                 "differences first."));
    operators_table_->setHorizontalHeaderLabels(
        {tr("Operator"), tr("Pass"), tr("Predicted (ms)"), tr("Measured (ms)"), tr("Difference")});
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
    refreshOperatorsTable();
    refreshOpsChart();
    applyFonts();
}

}  // namespace lse::gui
