// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/parallel/layout_page.h"
#include "pages/table_fill_batch.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "pages/framework_reserve_text.h"
#include "pages/parallel/collective_where_text.h"
#include "pages/page_format.h"
#include "pages/parallel/layout/duration_format.h"
#include "pages/parallel/layout/mesh_grid_chart.h"
#include "parallel/model_parallel_communication.h"
#include "pages/table_key_columns.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace lse::gui {

using parallel::MeshDim;

namespace {

constexpr double kGigabyte = 1e-9;  // charts show GB (SI, as GPU datasheets quote memory)
constexpr MeshDim kColourDims[] = {MeshDim::TP, MeshDim::CP, MeshDim::EP, MeshDim::DP, MeshDim::PP};
// Pixel height per node row of the grid: enough for a rank label at normal font size.
constexpr int kRowPixels = 30;
constexpr int kPresentationRowPixels = 56;
constexpr int kMemoryChartMaximumWidth = 640;
constexpr int kPresentationMemoryChartMaximumWidth = 1100;

// "Where" comes last so it takes the width left over.
enum EventColumn { Dim, Collective, Count, Bytes, Crosses, Seconds, TotalSeconds, Overlap, Where, EventColumnCount };

QTableWidgetItem *cell(const QString &text, const QString &tip = QString())
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (!tip.isEmpty())
        item->setToolTip(tip);
    return item;
}

QString gpuName(const Accelerator &gpu) { return QString::fromStdString(gpu.name.empty() ? gpu.id : gpu.name); }

}  // namespace

LayoutPage::LayoutPage(QWidget *parent) : Page(parent)
{
    auto *layout = new QVBoxLayout(addScrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);

    auto *controls = new QHBoxLayout;
    colour_label_ = new QLabel(this);
    colour_combo_ = new QComboBox(this);
    for (MeshDim dim : kColourDims)
        colour_combo_->addItem(meshDimName(dim), int(dim));
    colour_label_->setBuddy(colour_combo_);
    rank_label_ = new QLabel(this);
    rank_spin_ = new QSpinBox(this);
    rank_spin_->setRange(-1, 0);
    rank_label_->setBuddy(rank_spin_);
    summary_label_ = new QLabel(this);
    summary_label_->setWordWrap(true);
    controls->addWidget(colour_label_);
    controls->addWidget(colour_combo_);
    controls->addSpacing(12);
    controls->addWidget(rank_label_);
    controls->addWidget(rank_spin_);
    controls->addStretch(1);
    layout->addLayout(controls);
    // The summary gets a row of its own: beside the controls it was squeezed to a column one
    // character wide in presentation mode (and one word wide beside the editor).
    layout->addWidget(summary_label_);

    warnings_label_ = new QLabel(this);
    warnings_label_->setObjectName(QStringLiteral("meshWarnings"));
    warnings_label_->setWordWrap(true);
    warnings_label_->setTextFormat(Qt::RichText);
    layout->addWidget(warnings_label_);

    grid_chart_ = new ChartView(QStringLiteral("device-mesh"), this);
    layout->addWidget(grid_chart_, 3);
    grid_chart_->plot()->setMouseTracking(true);
    grid_chart_->plot()->installEventFilter(this);
    connect(grid_chart_->plot(), &QCustomPlot::mouseMove, this,
            [this](QMouseEvent *event) { onPlotMouseMove(event->position()); });

    // Memory and collectives below the grid, each at full width: the table's "where" column needs it.
    // One stacked bar: a narrow chart reads better than a bar stretched across the page.
    memory_chart_ = new ChartView(QStringLiteral("memory-most-loaded-gpu"), this);
    memory_chart_->setMaximumWidth(kMemoryChartMaximumWidth);
    auto *memory_row = new QHBoxLayout;
    memory_row->addWidget(memory_chart_, 1);
    memory_row->addStretch(0);
    layout->addLayout(memory_row, 2);
    events_label_ = new QLabel(this);
    events_label_->setWordWrap(true);
    events_table_ = new QTableWidget(0, EventColumnCount, this);
    events_table_->verticalHeader()->setVisible(false);
    events_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    events_table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    events_table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    events_table_->horizontalHeader()->setSectionResizeMode(Where, QHeaderView::Stretch);
    events_table_->setWordWrap(false);
    setKeyColumns(events_table_, {Dim, Collective, TotalSeconds});
    layout->addWidget(events_label_);
    layout->addWidget(events_table_, 2);

    // Lesson highlight regions and table (docs/lesson-pages-parallelism.md); "meshWarnings"
    // predates them.
    colour_combo_->setObjectName(QStringLiteral("colour-by"));
    rank_spin_->setObjectName(QStringLiteral("outlined-rank"));
    summary_label_->setObjectName(QStringLiteral("layout-summary"));
    events_table_->setObjectName(QStringLiteral("communication-events"));

    connect(rank_spin_, qOverload<int>(&QSpinBox::valueChanged), this, [this](int rank) {
        setHoveredRank(rank >= 0 ? std::optional<int>(rank) : std::nullopt);
    });
    connect(colour_combo_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        hovered_.reset();
        refreshGrid();
    });

    retranslateControls();
    setPresentation(false);
    refresh();
}

LayoutPage::~LayoutPage() = default;

QString LayoutPage::pageId() { return QStringLiteral("layout"); }

QString LayoutPage::pageTitle() { return tr("Layout"); }

QList<ChartView *> LayoutPage::charts() const { return {grid_chart_, memory_chart_}; }

void LayoutPage::estimateChanged(const Scenario * /*previous*/)
{
    hovered_.reset();
    refresh();
}

void LayoutPage::applyPresentation(bool presentation)
{
    // No font of its own: the application font already grows in presentation mode (and with zoom);
    // a font set here would scale twice and stop following later changes.
    memory_chart_->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kChartMinimumHeight);
    memory_chart_->setMaximumWidth(presentation ? kPresentationMemoryChartMaximumWidth : kMemoryChartMaximumWidth);
    if (mesh_)
        fillEvents(*mesh_);  // row heights follow the font
    refreshGrid();
}

void LayoutPage::retranslate()
{
    retranslateControls();
    refresh();
}

void LayoutPage::changeEvent(QEvent *event)
{
    Page::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        refreshGrid();  // cell and outline colours come from the palette
    else if (event->type() == QEvent::FontChange && mesh_)
        fillEvents(*mesh_);  // row heights follow the font
}

bool LayoutPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == grid_chart_->plot() && event->type() == QEvent::Leave && hovered_)
        setHoveredRank(std::nullopt);
    return Page::eventFilter(watched, event);
}

void LayoutPage::retranslateControls()
{
    colour_label_->setText(tr("&Colour GPUs by:"));
    rank_label_->setText(tr("&Outline groups of rank:"));
    rank_spin_->setSpecialValueText(tr("none"));
    rank_spin_->setToolTip(tr("Outline every GPU that shares a TP, CP, EP, DP or PP group with this rank (hovering a "
                              "GPU does the same)"));
    colour_combo_->setToolTip(
        tr("GPUs of the same group along this dimension share a colour. TP: tensor parallel (splits every matmul), "
           "CP: context parallel (splits the sequence), EP: expert parallel (splits the MoE experts), DP: data "
           "parallel (replicas), PP: pipeline parallel (splits the layers)."));
    events_label_->setText(tr("<b>Collectives of one step on the most loaded GPU</b> (hover the headers for the "
                              "formulas)"));
    const QStringList headers = {tr("Dim"),       tr("Collective"),    tr("Per step"),
                                 tr("Bytes each"), tr("Crosses nodes"), tr("Time each"),
                                 tr("Time per step"), tr("Overlaps compute"), tr("Where")};
    events_table_->setHorizontalHeaderLabels(headers);
    const QStringList tips = {
        tr("The parallel dimension whose group runs the collective"),
        tr("The NCCL collective"),
        tr("How many times one GPU runs it per optimizer step"),
        tr("Bytes one GPU sends per occurrence, with the nccl-tests bus-bandwidth factors: all-reduce 2(n−1)/n·S, "
           "all-gather and reduce-scatter (n−1)/n·S, all-to-all (n−1)/n·S, send/recv S"),
        tr("Whether the group spans nodes, so the inter-node link (and its latency) limits it"),
        tr("Alpha-beta model: t = steps·α + bytes / (link bandwidth · link efficiency); α and the bandwidth are the "
           "intra- or inter-node figures of the cluster"),
        tr("Time each × per step: what it costs if nothing overlaps"),
        tr("Whether it can overlap with compute (DP gradient buckets, ZeRO-3 parameter prefetch)"),
        tr("Where in the step it runs")};
    for (int column = 0; column < EventColumnCount; ++column)
        if (QTableWidgetItem *header = events_table_->horizontalHeaderItem(column))
            header->setToolTip(tips.value(column));
}

void LayoutPage::setColourDimension(MeshDim dim)
{
    const int index = colour_combo_->findData(int(dim));
    if (index >= 0)
        colour_combo_->setCurrentIndex(index);
}

void LayoutPage::setHoveredRank(std::optional<int> rank)
{
    if (rank && (!grid_ || *rank < 0 || *rank >= int(grid_->cells().size())))
        rank.reset();  // only drawn GPUs can be outlined
    if (rank == hovered_)
        return;
    hovered_ = rank;
    {
        const QSignalBlocker block(rank_spin_);
        rank_spin_->setValue(rank.value_or(-1));
    }
    if (grid_)
        setGridData(grid_->chart(hovered_));
}

void LayoutPage::setGridData(const ChartData &chart)
{
    grid_chart_->setData(chart);
    // The hovered-GPU marker is drawn above the cells (items otherwise cover plottables).
    QCustomPlot *plot = grid_chart_->plot();
    if (plot->graphCount() > 0 && plot->layer(QStringLiteral("overlay"))) {
        plot->graph(0)->setLayer(QStringLiteral("overlay"));
        grid_chart_->requestReplot();
    }
}

QStringList LayoutPage::warningTexts() const { return warnings_; }

void LayoutPage::onPlotMouseMove(const QPointF &pos)
{
    if (!grid_)
        return;
    const QCustomPlot *plot = grid_chart_->plot();
    const std::optional<int> rank = grid_->rankAt(plot->xAxis->pixelToCoord(pos.x()), plot->yAxis->pixelToCoord(pos.y()));
    // Between cells the outlines stay, so moving across the grid does not flicker.
    if (rank)
        setHoveredRank(rank);
}

void LayoutPage::refresh()
{
    mesh_.reset();
    mesh_problem_.clear();
    if (hasEstimate()) {
        Result<parallel::DeviceMesh> mesh = parallel::makeDeviceMesh(scenario().cluster, scenario().training.parallel);
        if (mesh)
            mesh_ = *mesh;
        else
            mesh_problem_ = QString::fromStdString(formatProblems(mesh.problems()));
    }
    if (mesh_) {
        const ParallelConfig &p = scenario().training.parallel;
        // The node count is often 1 (one 8-GPU server): a plural form, not "1 nodes".
        summary_label_->setText(tr("%1 × %2 on %Ln node(s) of %3 GPUs: dp %4 · tp %5 · pp %6 · cp %7 · ep %8", nullptr,
                                   mesh_->nodes)
                                    .arg(format::integer(mesh_->gpus), gpuName(scenario().cluster.accelerator).toHtmlEscaped())
                                    .arg(mesh_->gpus_per_node)
                                    .arg(p.dp)
                                    .arg(p.tp)
                                    .arg(p.pp)
                                    .arg(p.cp)
                                    .arg(p.ep));
        fillWarnings(*mesh_);
        fillEvents(*mesh_);
    } else {
        summary_label_->setText(hasEstimate() ? tr("No device mesh: %1").arg(mesh_problem_) : tr("No valid scenario yet"));
        warnings_.clear();
        warnings_label_->setVisible(false);
        events_table_->setRowCount(0);
    }
    refreshGrid();
    memory_chart_->setData(memoryChart());
}

void LayoutPage::refreshGrid()
{
    if (!mesh_) {
        grid_.reset();
        ChartData empty;
        empty.title = hasEstimate() ? tr("Device mesh: %1").arg(mesh_problem_) : tr("Device mesh: no valid scenario yet");
        empty.show_axes = false;
        grid_chart_->setData(empty);
        return;
    }
    const auto dim = MeshDim(colour_combo_->currentData().toInt());
    grid_ = std::make_unique<MeshGridChart>(*mesh_, dim, palette());
    {
        const QSignalBlocker block(rank_spin_);
        rank_spin_->setRange(-1, int(grid_->cells().size()) - 1);
        rank_spin_->setValue(hovered_.value_or(-1));
    }
    const int rows = grid_->shownNodes();
    // Enough height per node row that a rank label fits; the page scrolls beyond that.
    const int row_pixels = presentation() ? kPresentationRowPixels : kRowPixels;
    const int minimum = presentation() ? kPresentationChartMinimumHeight : kChartMinimumHeight;
    grid_chart_->setMinimumHeight(std::max(minimum, 140 + rows * row_pixels));
    setGridData(grid_->chart(hovered_));
}

void LayoutPage::fillWarnings(const parallel::DeviceMesh &mesh)
{
    warnings_.clear();
    for (const Problem &warning : parallel::meshWarnings(mesh)) {
        // The rule names the dimension ("tp_crosses_nodes"); the text is built here so it translates.
        MeshDim dim = MeshDim::TP;
        for (MeshDim candidate : {MeshDim::TP, MeshDim::CP, MeshDim::EP})
            if (warning.rule.rfind(std::string(parallel::toString(candidate)), 0) == 0)
                dim = candidate;
        warnings_ << tr("%1 = %2 crosses nodes (%3 GPUs per node): each %1 group spans %4 nodes, so its collectives, "
                        "which run on every layer, go over the inter-node network instead of NVLink. Keep %1 within a "
                        "node (Narayanan et al. 2021 §3.2).")
                         .arg(meshDimName(dim))
                         .arg(mesh.size(dim))
                         .arg(mesh.gpus_per_node)
                         .arg(mesh.nodesPerGroup(dim));
    }
    if (warnings_.isEmpty()) {
        warnings_label_->setVisible(false);
        return;
    }
    const QColor color = chartReferenceColor(palette());
    QStringList lines;
    for (const QString &warning : std::as_const(warnings_))
        lines << QStringLiteral("⚠ ") + warning.toHtmlEscaped();
    warnings_label_->setText(QStringLiteral("<span style=\"color:%1\">%2</span>")
                                 .arg(color.name(), lines.join(QStringLiteral("<br>"))));
    warnings_label_->setVisible(true);
}

void LayoutPage::fillEvents(const parallel::DeviceMesh &mesh)
{
    const std::vector<parallel::CommunicationEvent> events = parallel::communicationEvents(scenario(), mesh);
    events_table_->setRowCount(int(events.size()));
    TableFillBatch batch(events_table_);
    for (int row = 0; row < int(events.size()); ++row) {
        const parallel::CommunicationEvent &event = events[std::size_t(row)];
        const QString group = tr("group of %1 GPUs").arg(mesh.size(event.dim));
        events_table_->setItem(row, Dim, cell(meshDimName(event.dim), group));
        events_table_->setItem(row, Collective, cell(format::fromStd(event.collective)));
        const QString where = collectiveWhereText(event.where);
        events_table_->setItem(row, Where, cell(where, where));
        events_table_->setItem(row, Count, cell(format::integer(event.count_per_step)));
        events_table_->setItem(row, Bytes, cell(format::bytes(event.bytes_per_rank),
                                                tr("%1 per occurrence; %2 per step")
                                                    .arg(format::bytesExact(event.bytes_per_rank),
                                                         format::bytes(event.totalBytes()))));
        events_table_->setItem(row, Crosses, cell(event.crosses_nodes ? tr("yes") : tr("no")));
        events_table_->setItem(row, Seconds, cell(format::duration(event.seconds)));
        events_table_->setItem(row, TotalSeconds, cell(format::duration(event.totalSeconds())));
        events_table_->setItem(row, Overlap, cell(event.overlappable ? tr("yes") : tr("no"),
                                                  event.overlappable ? tr("can hide behind compute") : tr("on the critical path")));
    }
    batch.finish();
    // Tall enough to show every row without an inner scroll bar (a step has a dozen kinds at most).
    events_table_->resizeRowsToContents();
    const int rows_height = events_table_->verticalHeader()->length();
    const int header_height = events_table_->horizontalHeader()->sizeHint().height();
    events_table_->setMinimumHeight(rows_height + header_height + 2 * events_table_->frameWidth() + 24);
}

ChartData LayoutPage::memoryChart() const
{
    ChartData chart;
    chart.y_label = tr("Memory per GPU (GB)");
    chart.y_unit = QStringLiteral("bytes");
    chart.y_display_scale = kGigabyte;
    if (!hasEstimate()) {
        chart.title = tr("Memory per GPU: no valid scenario yet");
        return chart;
    }
    const MemoryEstimate &m = estimate().memory;
    // The engine reports the most loaded pipeline stage only, so that one GPU is drawn.
    chart.title = tr("Memory of the most loaded GPU (pipeline stage %1 of %2)")
                      .arg(m.pipeline_stage)
                      .arg(scenario().training.parallel.pp);
    chart.categories << tr("stage %1").arg(m.pipeline_stage);
    const struct {
        QString name;
        std::int64_t bytes;
        QString formula;
    } parts[] = {
        {tr("Weights"), m.params, tr("Ψ = %1 parameters on this GPU × bytes per weight (÷ N_d with ZeRO-3)")
                                      .arg(format::integer(m.parameters_on_gpu))},
        {tr("Gradients"), m.grads, tr("Ψ × bytes per gradient (÷ N_d with ZeRO-2 and 3)")},
        {tr("Optimizer states"), m.optimizer, tr("Ψ × K optimizer bytes (fp32 master and moments; ÷ N_d with ZeRO-1 to 3)")},
        {tr("Activations"), m.activations,
         tr("%1 per layer × layers of the stage × %2 in-flight micro-batches (Korthikanti et al. 2022, Table 2, §4.2.3)")
             .arg(format::bytes(m.activation_bytes_per_layer), format::decimal(m.in_flight_micro_batches, 2))},
        {tr("Framework reserve"), m.framework_reserve, frameworkReserveExplanation(m.framework_reserve)},
    };
    for (const auto &part : parts) {
        ChartSeries series;
        series.name = part.name;
        series.kind = ChartSeries::Kind::Bar;
        series.stack_group = 0;
        series.x << 0;
        series.y << double(part.bytes);
        series.point_tooltips << tr("%1: %2<br>%3").arg(part.name, format::bytesExact(double(part.bytes)), part.formula);
        chart.series << series;
    }
    chart.reference_lines << ReferenceLine{double(m.capacity),
                                          tr("%1 capacity: %2").arg(gpuName(scenario().cluster.accelerator),
                                                                    format::bytes(double(m.capacity))),
                                          QColor()};
    chart.formula.inputs = tr("total %1 of %2 (%3); ZeRO stage %4, N_d = dp·cp = %5; the engine reports the most "
                              "loaded pipeline stage only")
                               .arg(format::bytes(double(m.total)), format::bytes(double(m.capacity)),
                                    m.fits ? tr("fits") : tr("does not fit"))
                               .arg(scenario().training.parallel.zero_stage)
                               .arg(scenario().training.parallel.dp * scenario().training.parallel.cp);
    chart.formula.formula = tr("memory = weights + gradients + optimizer states + activations + reserve");
    chart.formula.source = tr("Rajbhandari et al. 2020 (ZeRO) §3.1, §5; Korthikanti et al. 2022, Table 2");
    return chart;
}

}  // namespace lse::gui
