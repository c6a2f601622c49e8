// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/traces/trace_page.h"

#include "charts/chart_view.h"
#include "hardware/hardware_catalog.h"
#include "pages/page_format.h"
#include "pages/table_key_columns.h"
#include "pages/traces/trace_charts.h"
#include "pages/traces/trace_load_runner.h"
#include "pages/traces/trace_prediction_section.h"
#include "pages/traces/trace_timeline.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace lse::gui {

namespace {

const QStringList kTabIds = {QStringLiteral("timeline"), QStringLiteral("breakdown"), QStringLiteral("kernels"),
                             QStringLiteral("prediction")};

QTableWidget *table(QWidget *parent, const QString &name, int columns)
{
    auto *widget = new QTableWidget(0, columns, parent);
    widget->setObjectName(name);
    widget->setEditTriggers(QAbstractItemView::NoEditTriggers);
    widget->setSelectionBehavior(QAbstractItemView::SelectRows);
    widget->verticalHeader()->setVisible(false);
    widget->horizontalHeader()->setStretchLastSection(true);
    widget->setSortingEnabled(true);
    return widget;
}

QLabel *richLabel(QWidget *parent, const QString &name)
{
    auto *label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    return label;
}

}  // namespace

QString TracePage::pageId() { return QStringLiteral("trace"); }

QString TracePage::pageTitle() { return tr("Trace"); }

QString TracePage::samplePath() { return QStringLiteral(":/traces/sampled_rank-0.json.gz"); }

TracePage::TracePage(QWidget *parent) : Page(parent)
{
    own_session_ = new TraceSession(this);
    session_ = own_session_;
    runner_ = new TraceLoadRunner(this);
    connect(runner_, &TraceLoadRunner::progress, this, [this](qint64 read, qint64 total) {
        // Per mille: a 4 GB file overflows an int in bytes.
        progress_->setRange(0, 1000);
        progress_->setValue(total > 0 ? int(1000.0 * double(read) / double(total)) : 0);
    });
    connect(runner_, &TraceLoadRunner::finished, this, &TracePage::finishLoad);
    connect(session_, &TraceSession::changed, this, &TracePage::refresh);
    setAcceptDrops(true);
    buildUi();
    retranslateUi();
    refresh();
}

TracePage::~TracePage() = default;

void TracePage::setTraceSession(TraceSession *session)
{
    if (!session || session == session_)
        return;
    disconnect(session_, nullptr, this, nullptr);
    // What this page loaded before it had the window's session goes to it.
    if (session_ == own_session_ && !own_session_->isEmpty() && session->isEmpty())
        session->setTraces(std::vector<LoadedTrace>(*own_session_->traces()));
    session_ = session;
    connect(session_, &TraceSession::changed, this, &TracePage::refresh);
    refresh();
}

void TracePage::buildUi()
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);

    intro_ = richLabel(this, QStringLiteral("trace.intro"));
    layout->addWidget(intro_);

    auto *bar = new QHBoxLayout;
    open_button_ = new QPushButton(this);
    open_button_->setObjectName(QStringLiteral("trace.open"));
    connect(open_button_, &QPushButton::clicked, this, &TracePage::openWithDialog);
    sample_button_ = new QPushButton(this);
    sample_button_->setObjectName(QStringLiteral("trace.sample"));
    connect(sample_button_, &QPushButton::clicked, this, &TracePage::openSample);
    rank_label_ = new QLabel(this);
    rank_box_ = new QComboBox(this);
    rank_box_->setObjectName(QStringLiteral("trace.rank"));
    rank_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    rank_label_->setBuddy(rank_box_);
    connect(rank_box_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            session_->setCurrentRank(index);
    });
    cpu_rows_check_ = new QCheckBox(this);
    cpu_rows_check_->setObjectName(QStringLiteral("trace.cpuRows"));
    cpu_rows_check_->setVisible(false);
    connect(cpu_rows_check_, &QCheckBox::toggled, this, [this] {
        if (session_->current())
            timeline_chart_->setData(traceTimelineChart(session_->traces(), session_->currentRank(),
                                                        cpu_rows_check_->isChecked()));
    });
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("trace.progress"));
    progress_->setVisible(false);
    cancel_button_ = new QPushButton(this);
    cancel_button_->setObjectName(QStringLiteral("trace.cancel"));
    cancel_button_->setVisible(false);
    connect(cancel_button_, &QPushButton::clicked, this, &TracePage::cancelLoad);
    bar->addWidget(open_button_);
    bar->addWidget(sample_button_);
    bar->addSpacing(12);
    bar->addWidget(rank_label_);
    bar->addWidget(rank_box_);
    bar->addSpacing(12);
    bar->addWidget(cpu_rows_check_);
    bar->addWidget(progress_, 1);
    bar->addWidget(cancel_button_);
    bar->addStretch(0);
    layout->addLayout(bar);

    status_label_ = richLabel(this, QStringLiteral("trace.status"));
    status_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_label_);
    problem_label_ = richLabel(this, QStringLiteral("trace.problems"));
    problem_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problem_label_->setVisible(false);
    layout->addWidget(problem_label_);

    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("trace.tabs"));
    layout->addWidget(tabs_, 1);
    // Keeps the empty state's text and buttons together at the top.
    empty_filler_ = new QWidget(this);
    empty_filler_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Expanding);
    layout->addWidget(empty_filler_, 1);

    timeline_chart_ = new ChartView(QStringLiteral("trace-timeline"), tabs_);
    tabs_->addTab(timeline_chart_, QString());

    // The two charts one above the other, scrolling: side by side in the page area beside the editor
    // (~780 pixels at 1280) their legends and category labels were cut.
    auto *breakdown = new QWidget(tabs_);
    QWidget *breakdown_content = addScrollingContent(breakdown);
    auto *breakdown_layout = new QVBoxLayout(breakdown_content);
    breakdown_layout->setContentsMargins(0, 4, 0, 0);
    breakdown_chart_ = new ChartView(QStringLiteral("trace-breakdown"), breakdown_content);
    class_chart_ = new ChartView(QStringLiteral("trace-kernel-classes"), breakdown_content);
    breakdown_chart_->setMinimumHeight(kChartMinimumHeight + 60);
    class_chart_->setMinimumHeight(kChartMinimumHeight);
    classification_label_ = richLabel(breakdown_content, QStringLiteral("trace.classification"));
    breakdown_layout->addWidget(breakdown_chart_, 3);
    breakdown_layout->addWidget(classification_label_);
    breakdown_layout->addWidget(class_chart_, 2);
    tabs_->addTab(breakdown, QString());

    auto *kernels = new QWidget(tabs_);
    auto *kernels_layout = new QVBoxLayout(kernels);
    kernels_layout->setContentsMargins(0, 4, 0, 0);
    kernels_title_ = richLabel(kernels, QStringLiteral("trace.kernelsTitle"));
    kernel_table_ = table(kernels, QStringLiteral("trace.kernels"), 7);
    operators_title_ = richLabel(kernels, QStringLiteral("trace.operatorsTitle"));
    operator_table_ = table(kernels, QStringLiteral("trace.operators"), 9);
    setKeyColumns(kernel_table_, {0, 3});
    setKeyColumns(operator_table_, {0, 5});
    kernels_layout->addWidget(kernels_title_);
    kernels_layout->addWidget(kernel_table_, 1);
    kernels_layout->addWidget(operators_title_);
    kernels_layout->addWidget(operator_table_, 1);
    tabs_->addTab(kernels, QString());

    prediction_ = new TracePredictionSection(tabs_);
    tabs_->addTab(prediction_, QString());
    connect(prediction_, &TracePredictionSection::gemmsChanged, this, [this] {
        session_->setGemmPrediction(prediction_->gemms()
                                        ? std::make_shared<const traces::GemmPredictionSummary>(*prediction_->gemms())
                                        : nullptr);
    });
}

void TracePage::estimateChanged(const Scenario * /*previous*/) { prediction_->setScenario(scenario()); }

void TracePage::retranslate()
{
    retranslateUi();
    refresh();
}

void TracePage::retranslateUi()
{
    open_button_->setText(tr("Open Trace…"));
    open_button_->setToolTip(tr("Open one PyTorch profiler trace (.json or .json.gz), or several: one rank each "
                                "(Ctrl+Shift+O; or drop the files on this page)"));
    sample_button_->setText(tr("Open the Sample Trace"));
    sample_button_->setToolTip(tr("Rank 0 of a 128-GPU training job (NVIDIA A100, NCCL, shapes recorded), from "
                                  "Holistic Trace Analysis's test data (MIT licence)"));
    rank_label_->setText(tr("&Rank:"));
    cpu_rows_check_->setText(tr("CPU operators"));
    cpu_rows_check_->setToolTip(tr("Also draw each CPU thread's top-level operators and those one level in on the "
                                   "timeline (a CPU-only trace always shows them)"));
    cancel_button_->setText(tr("Cancel"));
    tabs_->setTabText(0, tr("Timeline"));
    tabs_->setTabText(1, tr("Breakdown"));
    tabs_->setTabText(2, tr("Kernels and operators"));
    tabs_->setTabText(3, tr("Measured vs predicted"));
    kernel_table_->setHorizontalHeaderLabels({tr("Kernel"), tr("Class"), tr("Count"), tr("Time (ms)"), tr("Share"),
                                              tr("FLOPs"), tr("Achieved FLOP/s")});
    operator_table_->setHorizontalHeaderLabels({tr("Operator"), tr("Class"), tr("Shape"), tr("Type"), tr("Count"),
                                                tr("Time (ms)"), tr("Share"), tr("FLOPs"), tr("Achieved FLOP/s")});
}

QList<ChartView *> TracePage::charts() const
{
    if (session_->isEmpty())
        return {};
    return QList<ChartView *>{timeline_chart_, breakdown_chart_, class_chart_} + prediction_->charts();
}

bool TracePage::isReady() const { return !runner_->isRunning(); }

bool TracePage::loading() const { return runner_->isRunning(); }

void TracePage::openFiles(const QStringList &paths)
{
    if (paths.isEmpty())
        return;
    loading_names_.clear();
    for (const QString &path : paths)
        loading_names_ << QFileInfo(path).fileName();
    progress_->setRange(0, 0);
    progress_->setVisible(true);
    cancel_button_->setVisible(true);
    runner_->startFiles(paths);
    fillStatus();
}

void TracePage::openSample()
{
    QFile file(samplePath());
    if (!file.open(QIODevice::ReadOnly)) {
        last_problems_ = tr("The sample trace is missing from the resources (%1).").arg(samplePath());
        fillStatus();
        return;
    }
    loading_names_ = {QFileInfo(samplePath()).fileName()};
    progress_->setRange(0, 0);
    progress_->setVisible(true);
    cancel_button_->setVisible(true);
    runner_->startBytes(file.readAll(), QFileInfo(samplePath()).fileName());
    fillStatus();
}

void TracePage::openWithDialog()
{
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open Trace"), QString(),
        tr("PyTorch profiler traces (*.json *.json.gz *.pt.trace.json *.pt.trace.json.gz);;All files (*)"));
    openFiles(paths);
}

void TracePage::cancelLoad() { runner_->cancel(); }

void TracePage::finishLoad()
{
    progress_->setVisible(false);
    cancel_button_->setVisible(false);
    const std::optional<TraceLoadResult> &result = runner_->result();
    if (result && !result->cancelled && result->problems.empty() && !result->traces.empty()) {
        last_problems_.clear();
        session_->setTraces(result->traces);
    } else if (result && result->cancelled) {
        last_problems_ = tr("Loading %1 was cancelled; the trace shown before is kept.")
                             .arg(loading_names_.join(QStringLiteral(", ")));
    } else if (result) {
        QStringList lines;
        for (const Problem &problem : result->problems)
            lines << (QString::fromStdString(problem.field) + QStringLiteral(": ") +
                      QString::fromStdString(problem.message))
                         .toHtmlEscaped();
        last_problems_ = tr("%1 could not be read; the trace shown before is kept:").arg(loading_names_.join(QStringLiteral(", "))) +
                         QStringLiteral("<br>") + lines.join(QStringLiteral("<br>"));
    }
    loading_names_.clear();
    fillStatus();
    emit loadFinished();
    emit ready();
}

void TracePage::fillRankBox()
{
    const QSignalBlocker blocker(rank_box_);
    rank_box_->clear();
    if (session_->isEmpty())
        return;
    for (const LoadedTrace &trace : *session_->traces()) {
        const QString file = QFileInfo(QString::fromStdString(trace.rank.source)).fileName();
        rank_box_->addItem(trace.rank.rank >= 0 ? tr("rank %1 · %2").arg(trace.rank.rank).arg(file) : file);
    }
    rank_box_->setCurrentIndex(session_->currentRank());
}

void TracePage::fillStatus()
{
    const bool empty = session_->isEmpty();
    if (empty)
        intro_->setText(tr("<b>Open a PyTorch profiler trace</b> to see where a real run's time went: the timeline "
                           "of every GPU stream, each step split into compute, exposed communication, memory copies "
                           "and idle time (host-bound or waiting), the kernels and operators that took the time, and "
                           "on the Roofline page the kernels beside the prediction.<br>Record one with "
                           "<code>torch.profiler.profile(activities=[CPU, CUDA], record_shapes=True)</code> and "
                           "<code>prof.export_chrome_trace(\"trace.json\")</code> (or its tensorboard handler's "
                           "<code>.pt.trace.json.gz</code>). Open or drop one file, or several (one rank each), or "
                           "start with the sample."));
    else
        intro_->setText(tr("A PyTorch profiler trace: the GPU's time per step after Holistic Trace Analysis, the "
                           "kernels by class and the operators that launched them. Hover a bar for its figures."));
    rank_label_->setVisible(session_->rankCount() > 1);
    rank_box_->setVisible(session_->rankCount() > 1);
    tabs_->setVisible(!empty);
    empty_filler_->setVisible(empty);
    open_button_->setEnabled(!loading());
    sample_button_->setEnabled(!loading());

    QString status;
    if (loading())
        status = tr("Reading %1…").arg(loading_names_.join(QStringLiteral(", ")).toHtmlEscaped());
    else if (const LoadedTrace *trace = session_->current()) {
        const traces::TraceRankAnalysis &a = trace->analysis;
        const traces::TraceRank &r = trace->rank;
        QStringList parts;
        parts << QStringLiteral("<b>%1</b>").arg(QFileInfo(QString::fromStdString(r.source)).fileName().toHtmlEscaped());
        if (!r.device_name.empty())
            parts << QString::fromStdString(r.device_name).toHtmlEscaped();
        if (r.rank >= 0 && r.world_size > 0)
            parts << tr("rank %1 of %2").arg(r.rank).arg(r.world_size);
        const std::int64_t steps =
            std::count_if(a.steps.begin(), a.steps.end(), [](const traces::TraceStepAnalysis &s) { return s.number >= 0; });
        parts << tr("%Ln ProfilerStep(s)", nullptr, int(steps));
        parts << tr("%1 kernels (%2 ms summed)").arg(format::integer(a.kernel_count), format::decimal(a.kernel_seconds * 1e3, 3));
        if (a.has_gpu)
            parts << tr("GPU busy %1 of the window, communication overlap %2")
                         .arg(format::percent(a.breakdown.window_seconds > 0
                                                  ? 1.0 - a.breakdown.idle_seconds / a.breakdown.window_seconds
                                                  : 0),
                              a.breakdown.communication_total_seconds > 0
                                  ? format::percent(a.breakdown.overlap_percent / 100.0)
                                  : tr("none (no NCCL kernels)"));
        else
            parts << tr("CPU-only trace: no GPU activity, the operators are timed on the CPU");
        if (a.cpu_communication.count > 0)
            parts << tr("communication on the CPU: %Ln call(s), %1 ms, %2", nullptr, int(a.cpu_communication.count))
                         .arg(format::decimal(a.cpu_communication.seconds * 1e3, 3), format::bytes(a.cpu_communication.bytes));
        if (!r.record_shapes)
            parts << tr("recorded without shapes: no FLOPs");
        status = parts.join(QStringLiteral(" · "));
    }
    status_label_->setText(status);
    status_label_->setVisible(!status.isEmpty());
    problem_label_->setText(last_problems_.isEmpty() ? QString()
                                                     : QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(last_problems_));
    problem_label_->setVisible(!last_problems_.isEmpty());
}

void TracePage::refresh()
{
    fillRankBox();
    fillStatus();
    const LoadedTrace *trace = session_->current();
    prediction_->setTrace(trace);
    cpu_rows_check_->setVisible(trace && trace->rank.hasGpu() && !trace->rank.cpu_ops.empty());
    if (!trace) {
        timeline_chart_->setData(traceTimelineChart({}, -1));
        return;
    }
    timeline_chart_->setData(
        traceTimelineChart(session_->traces(), session_->currentRank(), cpu_rows_check_->isChecked()));
    breakdown_chart_->setData(TraceCharts::breakdown(trace->analysis));
    class_chart_->setData(TraceCharts::classes(trace->analysis));
    const traces::TraceClassification &c = trace->analysis.classification;
    classification_label_->setText(
        tr("<b>Classification:</b> %1 of %2 GPU activities unknown (%3): their names match no rule and no "
           "matrix-multiply or attention operator launched them.")
            .arg(format::integer(c.unknown_count), format::integer(c.activity_count),
                 format::percent(c.unknown_percent / 100.0)));
    fillKernelTable();
    fillOperatorTable();
}

void TracePage::applyPresentation(bool presentation)
{
    const int height = presentation ? kPresentationChartMinimumHeight : kChartMinimumHeight;
    timeline_chart_->setMinimumHeight(height);
    breakdown_chart_->setMinimumHeight(height + 60);
    class_chart_->setMinimumHeight(height);
    for (ChartView *chart : prediction_->allCharts()) {
        chart->setPresentation(presentation);
        chart->setMinimumHeight(height);
    }
}

void TracePage::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        for (const QUrl &url : event->mimeData()->urls())
            if (url.isLocalFile()) {
                event->acceptProposedAction();
                return;
            }
}

void TracePage::dropEvent(QDropEvent *event)
{
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    if (!paths.isEmpty()) {
        event->acceptProposedAction();
        openFiles(paths);
    }
}

QJsonObject TracePage::lessonSettings() const
{
    return {{QStringLiteral("tab"), kTabIds.value(tabs_->currentIndex())},
            {QStringLiteral("rank"), session_->currentRank()},
            {QStringLiteral("sample"), !session_->isEmpty() && session_->traces()->size() == 1 &&
                                           session_->traces()->front().rank.source ==
                                               QFileInfo(samplePath()).fileName().toStdString()},
            {QStringLiteral("accelerator"), prediction_->acceleratorChoice()},
            {QStringLiteral("compare"), prediction_->comparing()}};
}

bool TracePage::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    const auto fail = [error](const QString &text) {
        if (error)
            *error = text;
        return false;
    };
    for (auto it = settings.begin(); it != settings.end(); ++it)
        if (!QStringList{QStringLiteral("tab"), QStringLiteral("rank"), QStringLiteral("sample"),
                         QStringLiteral("accelerator"), QStringLiteral("compare")}
                 .contains(it.key()))
            return fail(tr("%1: not a setting of this page (tab, rank, sample, accelerator, compare)").arg(it.key()));
    int tab = tabs_->currentIndex();
    if (settings.contains(QLatin1String("tab"))) {
        tab = int(kTabIds.indexOf(settings.value(QLatin1String("tab")).toString()));
        if (tab < 0)
            return fail(tr("tab: expected %1, got '%2'")
                            .arg(kTabIds.join(QLatin1Char('|')), settings.value(QLatin1String("tab")).toVariant().toString()));
    }
    int rank = -1;
    if (settings.contains(QLatin1String("rank"))) {
        const QJsonValue value = settings.value(QLatin1String("rank"));
        if (!value.isDouble() || value.toDouble() != double(value.toInt()) || value.toInt() < 0)
            return fail(tr("rank: expected an index from 0, got '%1'").arg(value.toVariant().toString()));
        rank = value.toInt();
    }
    const QJsonValue sample = settings.value(QLatin1String("sample"));
    if (settings.contains(QLatin1String("sample")) && !sample.isBool())
        return fail(tr("sample: expected true or false"));
    const QJsonValue compare = settings.value(QLatin1String("compare"));
    if (settings.contains(QLatin1String("compare")) && !compare.isBool())
        return fail(tr("compare: expected true or false"));
    const QString accelerator = settings.value(QLatin1String("accelerator")).toString();
    if (settings.contains(QLatin1String("accelerator")) && accelerator != QLatin1String("trace") &&
        !builtinHardwareCatalog().find(accelerator.toStdString()))
        return fail(tr("accelerator: expected trace or a hardware catalog id, got '%1'")
                        .arg(settings.value(QLatin1String("accelerator")).toVariant().toString()));
    tabs_->setCurrentIndex(tab);
    if (settings.contains(QLatin1String("accelerator")))
        prediction_->chooseAccelerator(accelerator);
    if (settings.contains(QLatin1String("compare")))
        prediction_->setComparing(compare.toBool());
    if (sample.toBool() && !lessonSettings().value(QLatin1String("sample")).toBool())
        openSample();
    if (rank >= 0)
        session_->setCurrentRank(rank);  // an index past the loaded ranks changes nothing
    return true;
}

}  // namespace lse::gui
