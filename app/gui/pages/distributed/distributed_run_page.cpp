// SPDX-License-Identifier: GPL-3.0-or-later
// The Distributed run page: setup, launching and cancelling the run, status.
#include "pages/distributed/distributed_run_page.h"

#include "charts/chart_view.h"
#include "common/file_bytes.h"
#include "cost/parameters.h"
#include "pages/page_format.h"
#include "pages/distributed/distributed_run_files.h"
#include "pages/distributed/distributed_run_process.h"
#include "pages/distributed/distributed_run_timeline.h"
#include "pages/parallel/pipeline_measured_panel.h"
#include "pages/table_key_columns.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QScrollBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include <algorithm>

namespace lse::gui {

using distributed::DataParallelMode;

namespace {

void setupResultTable(QTableWidget *table)
{
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->setVisible(false);
    // Sized to their contents ("1.97 MB …" was elided in an even split); a narrow page scrolls
    // the columns after the key ones.
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
}

}  // namespace

DistributedRunPage::DistributedRunPage(QWidget *parent)
    : Page(parent), process_(new DistributedRunProcess(this))
{
    content_ = addScrollingContent(this);
    auto *layout = new QVBoxLayout(content_);
    intro_ = new QLabel(content_);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    setup_box_ = new QGroupBox(content_);
    setup_box_->setObjectName(QStringLiteral("distributed-setup"));
    auto *grid = new QGridLayout(setup_box_);
    const auto addRow = [grid](int row, int column, QLabel *label, QWidget *field) {
        grid->addWidget(label, row, column);
        grid->addWidget(field, row, column + 1);
    };
    const auto spin = [this](int minimum, int maximum, int value) {
        auto *box = new QSpinBox(setup_box_);
        box->setRange(minimum, maximum);
        box->setValue(value);
        return box;
    };
    parallelism_label_ = new QLabel(setup_box_);
    parallelism_box_ = new QComboBox(setup_box_);
    parallelism_box_->setObjectName(QStringLiteral("distributed-parallelism"));
    for (int i = 0; i < 5; ++i)  // DistributedParallelism's order
        parallelism_box_->addItem(QString());
    ranks_label_ = new QLabel(setup_box_);
    ranks_spin_ = spin(kMinRanks, kMaxRanks, 2);
    mode_label_ = new QLabel(setup_box_);
    mode_box_ = new QComboBox(setup_box_);
    for (int i = 0; i < 5; ++i)  // DataParallelMode: naive, bucketed, ZeRO-1, -2, -3
        mode_box_->addItem(QString());
    bucket_label_ = new QLabel(setup_box_);
    bucket_spin_ = spin(1, 1024, 25);  // PyTorch DDP's bucket_cap_mb default
    dp_label_ = new QLabel(setup_box_);
    dp_spin_ = spin(1, kMaxRanks, 2);
    tp_label_ = new QLabel(setup_box_);
    tp_spin_ = spin(1, kMaxRanks, 2);
    sp_check_ = new QCheckBox(setup_box_);
    sp_check_->setObjectName(QStringLiteral("distributed-sequence-parallel"));
    pp_label_ = new QLabel(setup_box_);
    pp_spin_ = spin(1, kMaxRanks, 2);
    schedule_label_ = new QLabel(setup_box_);
    schedule_box_ = new QComboBox(setup_box_);
    schedule_box_->addItem(QString());  // GPipe
    schedule_box_->addItem(QString());  // 1F1B
    schedule_box_->setCurrentIndex(1);
    micro_label_ = new QLabel(setup_box_);
    micro_spin_ = spin(1, 256, 4);
    steps_label_ = new QLabel(setup_box_);
    steps_spin_ = spin(1, 10000, 10);
    batch_label_ = new QLabel(setup_box_);
    batch_spin_ = spin(1, 1024, 8);
    preset_label_ = new QLabel(setup_box_);
    preset_box_ = new QComboBox(setup_box_);
    text_label_ = new QLabel(setup_box_);
    text_box_ = new QComboBox(setup_box_);
    file_button_ = new QPushButton(setup_box_);
    tokenizer_label_ = new QLabel(setup_box_);
    tokenizer_box_ = new QComboBox(setup_box_);
    tokenizer_box_->addItem(QString());
    tokenizer_box_->addItem(QString());
    // Two label-field pairs per row: the page fits a 1024-pixel projector in presentation mode.
    addRow(0, 0, parallelism_label_, parallelism_box_);
    addRow(0, 2, ranks_label_, ranks_spin_);
    addRow(1, 0, mode_label_, mode_box_);
    addRow(1, 2, bucket_label_, bucket_spin_);
    addRow(2, 0, dp_label_, dp_spin_);
    addRow(2, 2, tp_label_, tp_spin_);
    addRow(3, 0, pp_label_, pp_spin_);
    addRow(3, 2, schedule_label_, schedule_box_);
    addRow(4, 0, micro_label_, micro_spin_);
    grid->addWidget(sp_check_, 4, 2, 1, 2);
    addRow(5, 0, steps_label_, steps_spin_);
    addRow(5, 2, batch_label_, batch_spin_);
    addRow(6, 0, preset_label_, preset_box_);
    addRow(6, 2, tokenizer_label_, tokenizer_box_);
    // The text spans the row: a sample's file name is read whole.
    grid->addWidget(text_label_, 7, 0);
    text_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    text_box_->setMinimumContentsLength(12);  // a long file name must not widen the page
    auto *text_row = new QHBoxLayout;
    text_row->addWidget(text_box_, 1);
    text_row->addWidget(file_button_);
    grid->addLayout(text_row, 7, 1, 1, 3);
    auto *buttons = new QHBoxLayout;
    start_button_ = new QPushButton(setup_box_);
    start_button_->setObjectName(QStringLiteral("distributed-start"));
    cancel_button_ = new QPushButton(setup_box_);
    cancel_button_->setObjectName(QStringLiteral("distributed-cancel"));
    progress_ = new QProgressBar(setup_box_);
    progress_->setObjectName(QStringLiteral("distributed-progress"));
    buttons->addWidget(start_button_);
    buttons->addWidget(cancel_button_);
    buttons->addWidget(progress_, 1);
    grid->addLayout(buttons, 8, 0, 1, 4);
    launcher_label_ = new QLabel(setup_box_);
    launcher_label_->setObjectName(QStringLiteral("distributed-launcher"));
    launcher_label_->setWordWrap(true);
    grid->addWidget(launcher_label_, 9, 0, 1, 4);
    status_label_ = new QLabel(setup_box_);
    status_label_->setObjectName(QStringLiteral("distributed-status"));
    status_label_->setWordWrap(true);
    status_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Paths in these lines do not wrap: they take the width the page has instead of widening it.
    for (QLabel *label : {launcher_label_, status_label_})
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    grid->addWidget(status_label_, 10, 0, 1, 4);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 1);
    layout->addWidget(setup_box_);

    summary_label_ = new QLabel(content_);
    summary_label_->setObjectName(QStringLiteral("distributed-summary"));
    summary_label_->setWordWrap(true);
    layout->addWidget(summary_label_);
    steps_table_label_ = new QLabel(content_);
    layout->addWidget(steps_table_label_);
    step_table_ = new QTableWidget(0, 7, content_);
    step_table_->setObjectName(QStringLiteral("distributed-steps-table"));
    memory_table_label_ = new QLabel(content_);
    memory_table_ = new QTableWidget(4, 4, content_);
    memory_table_->setObjectName(QStringLiteral("distributed-memory-table"));
    for (QTableWidget *table : {step_table_, memory_table_})
        setupResultTable(table);
    // The bytes each rank sent beside the engine's figure, then the rest of the step.
    setKeyColumns(step_table_, {0, 3, 4, 5});
    setKeyColumns(memory_table_, {0, 3, 1});  // category, equal to the engine's, measured; the engine's follows
    traffic_table_label_ = new QLabel(content_);
    traffic_table_label_->setWordWrap(true);
    traffic_table_ = new QTableWidget(0, 7, content_);
    traffic_table_->setObjectName(QStringLiteral("distributed-traffic-table"));
    setupResultTable(traffic_table_);
    // The rank, the purpose, its bytes and the engine's figure for the same events first.
    setKeyColumns(traffic_table_, {0, 1, 4, 5, 6});
    layout->addWidget(step_table_);
    layout->addWidget(traffic_table_label_);
    layout->addWidget(traffic_table_);
    layout->addWidget(memory_table_label_);
    layout->addWidget(memory_table_);
    timeline_chart_ = new ChartView(QStringLiteral("distributed-timeline"), content_);
    layout->addWidget(timeline_chart_);
    // A pipeline run's last step, drawn as the Pipeline page draws a loaded run.
    pipeline_panel_ = new PipelineMeasuredPanel(content_);
    pipeline_panel_->setLoadButtonVisible(false);
    layout->addWidget(pipeline_panel_);
    layout->addStretch(1);

    loadPresets();
    loadTexts();
    setLaunchers(findMpiexec(), findExplorerCli());
    bindLessonControls();

    for (QComboBox *box : {mode_box_, parallelism_box_, preset_box_})
        connect(box, &QComboBox::currentIndexChanged, this, &DistributedRunPage::updateControls);
    connect(file_button_, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Choose a text file"), QString(),
                                                          tr("Text files (*.txt *.md);;All files (*)"));
        if (file.isEmpty())
            return;
        text_box_->addItem(QFileInfo(file).fileName(), file);
        text_box_->setCurrentIndex(text_box_->count() - 1);
    });
    connect(start_button_, &QPushButton::clicked, this, [this] { start(); });
    connect(cancel_button_, &QPushButton::clicked, this, &DistributedRunPage::cancel);
    connect(process_, &DistributedRunProcess::progress, this, [this](int step, int steps) {
        steps_done_ = step;
        steps_total_ = steps;
        progress_->setRange(0, steps);
        progress_->setValue(step);
        retranslateUi();
        emit stepProgress(step, steps);
    });
    connect(process_, &DistributedRunProcess::finished, this, &DistributedRunPage::onProcessFinished);

    applyFonts();
    retranslateUi();
    refreshResults();
}

DistributedRunPage::~DistributedRunPage()
{
    cancel_preparation_ = true;
    joinPreparation();
}

QString DistributedRunPage::pageId() { return QStringLiteral("distributed_run"); }

QString DistributedRunPage::pageTitle() { return tr("Distributed run"); }

QList<ChartView *> DistributedRunPage::charts() const
{
    // Only a chart with something plotted (for export-all): before a run it is empty.
    if (results_ && results_->pipeline)
        return {pipeline_panel_->chart()};
    if (results_ && !results_->steps.empty() && results_->isDataParallel())
        return {timeline_chart_};
    return {};
}

// charts() leaves the timeline out before a run; presentation mode sizes it anyway.
QList<ChartView *> DistributedRunPage::presentationCharts() const { return {timeline_chart_, pipeline_panel_->chart()}; }

void DistributedRunPage::applyPresentation(bool /*presentation*/) { applyFonts(); }

void DistributedRunPage::retranslate() { retranslateUi(); }

bool DistributedRunPage::isReady() const { return state_ != State::Preparing && state_ != State::Running; }

void DistributedRunPage::changeEvent(QEvent *event)
{
    Page::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        applyFonts();
}

void DistributedRunPage::applyFonts()
{
    // The application font carries presentation scaling; row heights and the table's height follow it.
    timeline_chart_->setMinimumHeight(presentation() ? kPresentationChartMinimumHeight : kChartMinimumHeight);
    const int row_height = QFontMetrics(QApplication::font()).height() + 10;
    for (QTableWidget *table : {step_table_, memory_table_, traffic_table_}) {
        table->verticalHeader()->setMinimumSectionSize(row_height);
        table->verticalHeader()->setDefaultSectionSize(row_height);
        for (int r = 0; r < table->rowCount(); ++r)
            table->setRowHeight(r, row_height);
        int height = table->horizontalHeader()->sizeHint().height() + 2 * table->frameWidth() + 2;
        // At most a dozen step rows: a long run scrolls inside its table; a narrow one scrolls
        // sideways below its last row.
        height += std::min(table->rowCount(), 12) * row_height + table->horizontalScrollBar()->sizeHint().height();
        table->setFixedHeight(height);
    }
}

void DistributedRunPage::loadPresets()
{
    presets_.clear();
    const QDir dir(QStringLiteral(":/reference"));
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        if (Result<reference::TrainConfig> config = reference::trainConfigFromJson(file.readAll(), name.toStdString()))
            presets_.push_back({QFileInfo(name).completeBaseName(), config.value()});
    }
    // Smallest first: the default is the one that runs in seconds.
    std::stable_sort(presets_.begin(), presets_.end(), [](const Preset &a, const Preset &b) {
        return countParameters(a.config.model).total < countParameters(b.config.model).total;
    });
    for (const Preset &preset : presets_)
        preset_box_->addItem(preset.name);
}

void DistributedRunPage::loadTexts()
{
    const QDir dir(QStringLiteral(":/samples"));
    for (const QString &name : dir.entryList({QStringLiteral("*.txt")}, QDir::Files, QDir::Name))
        text_box_->addItem(QFileInfo(name).completeBaseName(), dir.filePath(name));
}

void DistributedRunPage::setLaunchers(const QString &mpiexec, const QString &cli)
{
    mpiexec_ = mpiexec;
    cli_ = cli;
    updateControls();
    retranslateUi();
}

void DistributedRunPage::setPresetConfig(const reference::TrainConfig &config)
{
    const int i = preset_box_->currentIndex();
    if (i >= 0 && i < int(presets_.size()))
        presets_[std::size_t(i)].config = config;
    else {
        presets_.push_back({QStringLiteral("custom"), config});
        preset_box_->addItem(QStringLiteral("custom"));
    }
    updateControls();  // the tooltips name the model's heads, d_ff and layers
}

void DistributedRunPage::setCustomText(const QString &text) { custom_text_ = text; }

DistributedRunSetup DistributedRunPage::setup() const
{
    DistributedRunSetup setup;
    setup.ranks = ranks_spin_->value();
    static constexpr DataParallelMode kModes[] = {DataParallelMode::Naive, DataParallelMode::Bucketed, DataParallelMode::Zero1,
                                                  DataParallelMode::Zero2, DataParallelMode::Zero3};
    setup.mode = kModes[std::clamp(mode_box_->currentIndex(), 0, 4)];
    setup.bucket_mib = bucket_spin_->value();
    // The degrees the layout uses: a single layout's is the ranks, a combined one's as entered.
    setup.parallelism = parallelism();
    switch (setup.parallelism) {
    case DistributedParallelism::Data:
        setup.dp = setup.ranks;
        break;
    case DistributedParallelism::Tensor:
        setup.tp = setup.ranks;
        break;
    case DistributedParallelism::Pipeline:
        setup.pp = setup.ranks;
        break;
    case DistributedParallelism::DataTensor:
        setup.dp = dp_spin_->value();
        setup.tp = tp_spin_->value();
        break;
    case DistributedParallelism::DataPipeline:
        setup.dp = dp_spin_->value();
        setup.pp = pp_spin_->value();
        break;
    }
    setup.sequence_parallel = usesTensorParallelism(setup.parallelism) && sp_check_->isChecked();
    setup.schedule = schedule_box_->currentIndex() == 0 ? parallel::PipelineScheduleKind::GPipe
                                                        : parallel::PipelineScheduleKind::OneFOneB;
    setup.micro_batches = micro_spin_->value();
    setup.steps = steps_spin_->value();
    setup.global_batch = batch_spin_->value();
    const int preset = preset_box_->currentIndex();
    if (preset >= 0 && preset < int(presets_.size()))
        setup.config = presets_[std::size_t(preset)].config;
    setup.tokenizer = tokenizer_box_->currentIndex() == 1 ? DistributedTokenizer::Bpe : DistributedTokenizer::Bytes;
    return setup;
}

QString DistributedRunPage::selectedText(QString *error) const
{
    if (!custom_text_.isEmpty())
        return custom_text_;
    const QString path = text_box_->currentData().toString();
    if (path.isEmpty()) {
        *error = tr("Text: choose a training text.");
        return {};
    }
    // The loaders' rule: a regular file of sensible size (a device or FIFO would be read forever).
    const Result<QByteArray> bytes = readFileBytes(path.toStdString(), FileKind::Text);
    if (!bytes) {
        *error = tr("Text: cannot read %1: %2")
                     .arg(QDir::toNativeSeparators(path), QString::fromStdString(bytes.problems().front().message));
        return {};
    }
    return QString::fromUtf8(*bytes);
}

bool DistributedRunPage::start()
{
    if (!isReady())
        return false;
    const DistributedRunSetup chosen = setup();
    if (const QString problem = distributedSetupProblem(chosen); !problem.isEmpty()) {
        fail(problem);
        return false;
    }
    if (mpiexec_.isEmpty() || cli_.isEmpty()) {
        fail(launcher_label_->text());
        return false;
    }
    QString error;
    const QString text = selectedText(&error);
    if (text.isEmpty()) {
        fail(error.isEmpty() ? tr("Text: the text is empty.") : error);
        return false;
    }
    folder_ = std::make_unique<QTemporaryDir>();
    if (!folder_->isValid()) {
        fail(tr("Cannot create a temporary folder: %1").arg(folder_->errorString()));
        return false;
    }
    joinPreparation();
    running_setup_ = chosen;
    results_.reset();
    steps_done_ = 0;
    steps_total_ = chosen.steps;
    progress_->setRange(0, chosen.steps);
    progress_->setValue(0);
    message_.clear();
    refreshResults();
    setState(State::Preparing);
    const int run_id = ++run_id_;
    cancel_preparation_ = false;
    // Tokenizing a long text with a BPE takes seconds: off the UI thread, posted back when done.
    preparation_ = std::thread([this, run_id, chosen, text = text.toStdString(), folder = folder_->path()] {
        QString message;
        std::optional<DistributedRunFiles> files = writeDistributedRunFiles(chosen, text, folder, &cancel_preparation_, &message);
        auto shared = files ? std::make_shared<DistributedRunFiles>(*files) : nullptr;
        QMetaObject::invokeMethod(this, [this, run_id, shared, message] { onFilesWritten(run_id, shared, message); },
                                  Qt::QueuedConnection);
    });
    return true;
}

void DistributedRunPage::joinPreparation()
{
    if (preparation_.joinable())
        preparation_.join();
}

void DistributedRunPage::onFilesWritten(int run_id, std::shared_ptr<DistributedRunFiles> files, const QString &error)
{
    if (run_id != run_id_ || state_ != State::Preparing)
        return;  // cancelled while tokenizing
    joinPreparation();
    if (!files) {
        fail(error);
        return;
    }
    message_ = tr("%1 tokens, vocabulary %2").arg(format::integer(files->tokens), format::integer(files->vocab_size));
    setState(State::Running);
    process_->start(mpiexec_, mpiexecArguments(running_setup_, cli_, files->config_path, files->tokens_path));
}

void DistributedRunPage::cancel()
{
    if (state_ == State::Preparing) {
        cancel_preparation_ = true;
        ++run_id_;  // drops the files when they arrive
        setState(State::Cancelled);
    } else if (state_ == State::Running) {
        process_->cancel();  // finished(Cancelled) follows when mpiexec and its ranks are gone
    }
}

qint64 DistributedRunPage::launcherProcessId() const { return process_->isRunning() ? process_->processId() : 0; }

void DistributedRunPage::onProcessFinished(DistributedRunProcess::Outcome outcome)
{
    if (outcome == DistributedRunProcess::Outcome::Cancelled) {
        setState(State::Cancelled);
        return;
    }
    const QString errors = process_->errorText();
    if (outcome == DistributedRunProcess::Outcome::Failed) {
        // The CLI's exit-2 message names the flag or field; mpiexec's own say why it could not start.
        fail(errors.isEmpty() ? tr("mpiexec ended without a message.") : errors);
        return;
    }
    QString error;
    results_ = parseDistributedRunResults(process_->standardOutput(), &error);
    if (!results_) {
        fail(errors.isEmpty() ? error : error + QLatin1Char('\n') + errors);
        return;
    }
    refreshResults();
    setState(State::Finished);
}

void DistributedRunPage::fail(const QString &message)
{
    message_ = message;
    setState(State::Failed);
}

void DistributedRunPage::setState(State state)
{
    const bool was_ready = isReady();
    state_ = state;
    updateControls();
    retranslateUi();
    emit stateChanged(state);
    if (!was_ready && isReady()) {
        emit runEnded();
        emit ready();
    }
}

void DistributedRunPage::updateControls()
{
    const bool idle = isReady();
    const bool launchable = !mpiexec_.isEmpty() && !cli_.isEmpty();
    for (QWidget *control : std::initializer_list<QWidget *>{parallelism_box_, ranks_spin_, steps_spin_, batch_spin_,
                                                             preset_box_, text_box_, file_button_, tokenizer_box_})
        control->setEnabled(idle);
    updateLayoutControls(idle);
    start_button_->setEnabled(idle && launchable);
    cancel_button_->setEnabled(!idle);
}

QString DistributedRunPage::statusText() const { return status_label_->text(); }

QString DistributedRunPage::summaryText() const { return summary_label_->text(); }

}  // namespace lse::gui
