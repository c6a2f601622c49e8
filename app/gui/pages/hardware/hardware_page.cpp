// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/hardware/hardware_page.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "hardware/hardware_catalog.h"
#include "pages/side_by_side_layout.h"
#include "pages/flow_layout.h"
#include "pages/page_format.h"
#include "roofline/roofline_machine.h"
#include "pages/table_key_columns.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

namespace lse::gui {

namespace {

constexpr const char *kDefaultFirst = "h100-sxm";
constexpr const char *kDefaultSecond = "a100-sxm-80gb";
constexpr MemoryLevelKind kAllLevels[] = {MemoryLevelKind::Registers, MemoryLevelKind::Sram,
                                          MemoryLevelKind::L2,        MemoryLevelKind::Hbm,
                                          MemoryLevelKind::HostRam,   MemoryLevelKind::Nvme,
                                          MemoryLevelKind::Network};

QString unknown() { return HardwarePage::tr("not published"); }

QString bytesOrUnknown(double bytes) { return bytes > 0 ? format::bytes(bytes) : unknown(); }
QString rateOrUnknown(double bytes_per_second)
{
    return bytes_per_second > 0 ? format::si(bytes_per_second, QStringLiteral("B/s")) : unknown();
}
// On-chip sizes are binary (the catalog's convention): "228 KiB".
QString kibOrUnknown(std::int64_t bytes)
{
    return bytes > 0 ? HardwarePage::tr("%1 KiB").arg(format::integer(bytes / 1024)) : unknown();
}

// Column headers and legends without the vendor prefix: "H100 SXM5 80GB".
QString shortName(const std::string &name)
{
    QString text = QString::fromStdString(name);
    for (const char *prefix : {"NVIDIA ", "AMD Instinct ", "AMD ", "Google Cloud "})
        if (text.startsWith(QLatin1String(prefix)))
            return text.mid(int(qstrlen(prefix)));
    return text;
}

// Short forms for the labels beside the points.
QString levelShortName(MemoryLevelKind kind)
{
    switch (kind) {
    case MemoryLevelKind::Sram:
        return HardwarePage::tr("SRAM");
    case MemoryLevelKind::L2:
        return HardwarePage::tr("L2");
    case MemoryLevelKind::Hbm:
        return HardwarePage::tr("HBM");
    case MemoryLevelKind::Nvme:
        return HardwarePage::tr("NVMe");
    default:
        return HardwarePage::levelName(kind);
    }
}
QString levelShortAnalogy(MemoryLevelKind kind)
{
    switch (kind) {
    case MemoryLevelKind::Registers:
        return HardwarePage::tr("hands");
    case MemoryLevelKind::Sram:
        return HardwarePage::tr("cutting board");
    case MemoryLevelKind::L2:
        return HardwarePage::tr("spice rack");
    case MemoryLevelKind::Hbm:
        return HardwarePage::tr("prep table");
    case MemoryLevelKind::HostRam:
        return HardwarePage::tr("counter");
    case MemoryLevelKind::Nvme:
        return HardwarePage::tr("pantry");
    case MemoryLevelKind::Network:
        return HardwarePage::tr("delivery van");
    }
    return {};
}

QString levelTooltip(const MemoryLevel &level, const QString &accelerator)
{
    return HardwarePage::tr("<b>%1</b> of %2 — %3<br>capacity %4 per GPU<br>bandwidth %5<br>latency ~%6<br>"
                            "<small>%7</small>")
        .arg(HardwarePage::levelName(level.kind), accelerator.toHtmlEscaped(), HardwarePage::levelAnalogy(level.kind),
             level.capacity_bytes > 0 ? format::bytes(level.capacity_bytes)
                                      : (level.kind == MemoryLevelKind::Network ? HardwarePage::tr("a link, not a store")
                                                                                : unknown()),
             rateOrUnknown(level.bandwidth_bytes_per_second),
             level.latency_seconds > 0 ? format::si(level.latency_seconds, QStringLiteral("s"), 1) : unknown(),
             QString::fromStdString(level.source).toHtmlEscaped());
}

}  // namespace

QString HardwarePage::levelName(MemoryLevelKind kind)
{
    switch (kind) {
    case MemoryLevelKind::Registers:
        return tr("Registers");
    case MemoryLevelKind::Sram:
        return tr("SRAM (shared mem / L1)");
    case MemoryLevelKind::L2:
        return tr("L2 cache");
    case MemoryLevelKind::Hbm:
        return tr("HBM (VRAM)");
    case MemoryLevelKind::HostRam:
        return tr("Host RAM");
    case MemoryLevelKind::Nvme:
        return tr("NVMe SSD");
    case MemoryLevelKind::Network:
        return tr("Network");
    }
    return {};
}

QString HardwarePage::levelAnalogy(MemoryLevelKind kind)
{
    switch (kind) {
    case MemoryLevelKind::Registers:
        return tr("the chef's hands");
    case MemoryLevelKind::Sram:
        return tr("the cutting board");
    case MemoryLevelKind::L2:
        return tr("the spice rack");
    case MemoryLevelKind::Hbm:
        return tr("the chef's prep table");
    case MemoryLevelKind::HostRam:
        return tr("the kitchen counter");
    case MemoryLevelKind::Nvme:
        return tr("the pantry");
    case MemoryLevelKind::Network:
        return tr("the delivery van");
    }
    return {};
}

HardwarePage::HardwarePage(QWidget *parent) : Page(parent)
{
    auto *layout = new QVBoxLayout(addScrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    QWidget *content = layout->parentWidget();

    intro_ = new QLabel(content);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    // Wraps to two lines beside the scenario editor on a 1024-px screen.
    auto *choose = new FlowLayout(nullptr, 16);
    first_label_ = new QLabel(content);
    first_box_ = new QComboBox(content);
    first_box_->setObjectName(QStringLiteral("firstAccelerator"));
    first_label_->setBuddy(first_box_);
    second_label_ = new QLabel(content);
    second_box_ = new QComboBox(content);
    second_box_->setObjectName(QStringLiteral("secondAccelerator"));
    second_label_->setBuddy(second_box_);
    // Sized by a typical name, not the longest one (which made the page wider than a projector);
    // the open list still shows every name in full.
    for (QComboBox *box : {first_box_, second_box_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(18);
    }
    choose->addLabelled(first_label_, first_box_);
    choose->addLabelled(second_label_, second_box_);
    layout->addLayout(choose);

    // The table (two thirds) and the kitchen text side by side when the table gets 460 px, enough
    // for its values; the text goes below the table beside the editor on a 1024-px screen and in
    // presentation mode (setPresentation).
    auto *middle = new SideBySideLayout;
    middle->setStretch(2, 1);
    middle->setSideBySideMinimumWidths(460, 240);
    anatomy_row_ = middle;
    anatomy_table_ = new QTableWidget(0, 2, content);
    anatomy_table_->setObjectName(QStringLiteral("anatomyTable"));
    anatomy_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    anatomy_table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    anatomy_table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    setKeyColumns(anatomy_table_, {0, 1});  // the accelerators compared (rows are the parts)
    anatomy_table_->verticalHeader()->setDefaultSectionSize(anatomy_table_->fontMetrics().height() + 8);
    anatomy_table_->setMinimumHeight(15 * (anatomy_table_->fontMetrics().height() + 8) + 8);
    kitchen_label_ = new QLabel(content);
    kitchen_label_->setWordWrap(true);
    kitchen_label_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    kitchen_label_->setMinimumWidth(240);
    middle->addWidget(anatomy_table_);
    middle->addWidget(kitchen_label_);
    layout->addLayout(middle);

    hierarchy_chart_ = new ChartView(QStringLiteral("memory-hierarchy"), content);
    layout->addWidget(hierarchy_chart_, 2);
    // Side by side when each gets 360 px, one above the other beside the editor on a 1024-px screen.
    auto *bars = new SideBySideLayout;
    capacity_chart_ = new ChartView(QStringLiteral("memory-capacity-by-level"), content);
    bandwidth_chart_ = new ChartView(QStringLiteral("memory-bandwidth-by-level"), content);
    bars->addWidget(capacity_chart_);
    bars->addWidget(bandwidth_chart_);
    layout->addLayout(bars, 1);

    if (const Accelerator *h100 = builtinHardwareCatalog().find(kDefaultFirst))
        scenario_accelerator_ = *h100;
    else
        scenario_accelerator_ = builtinHardwareCatalog().accelerators.front();
    fillAcceleratorBoxes();
    if (const int index = second_box_->findData(QString::fromLatin1(kDefaultSecond)); index >= 0)
        second_box_->setCurrentIndex(index);
    connect(first_box_, &QComboBox::currentIndexChanged, this, &HardwarePage::selectionChanged);
    connect(second_box_, &QComboBox::currentIndexChanged, this, &HardwarePage::selectionChanged);
    setPresentation(false);
    retranslateUi();
    bindLessonControls();
}

QString HardwarePage::pageId() { return QStringLiteral("hardware"); }

QString HardwarePage::pageTitle() { return tr("Hardware"); }

QList<ChartView *> HardwarePage::charts() const { return {hierarchy_chart_, capacity_chart_, bandwidth_chart_}; }

void HardwarePage::estimateChanged(const Scenario * /*previous*/)
{
    scenario_accelerator_ = scenario().cluster.accelerator;
    fillAcceleratorBoxes();
    selectionChanged();
}

void HardwarePage::applyPresentation(bool presentation)
{
    hierarchy_chart_->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kChartMinimumHeight + 100);
    for (ChartView *chart : {capacity_chart_, bandwidth_chart_})
        chart->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kChartMinimumHeight);
    // At projector font sizes the table needs the full width for its values: the kitchen text
    // moves below it.
    // The hierarchy chart's plot asks for ~900 px at projector font sizes (axis labels and
    // legend); the page must not grow wider than a 1024-pixel projector for it, so in presentation
    // mode it takes the width the page has.
    QSizePolicy policy = hierarchy_chart_->sizePolicy();
    policy.setHorizontalPolicy(presentation ? QSizePolicy::Ignored : QSizePolicy::Preferred);
    hierarchy_chart_->setSizePolicy(policy);
    anatomy_row_->setStacked(presentation);
    // Every row visible without scrolling (presentation mode enlarges the application font).
    const int row = anatomy_table_->fontMetrics().height() + 8;
    anatomy_table_->verticalHeader()->setDefaultSectionSize(row);
    anatomy_table_->setMinimumHeight(15 * row + 8);
}

void HardwarePage::retranslate() { retranslateUi(); }

void HardwarePage::retranslateUi()
{
    intro_->setText(tr("What one accelerator is made of and where its data lives. Each level of the memory "
                       "hierarchy is larger and slower than the one above it; training spends its time moving "
                       "tensors between them (the roofline page shows when that, not the math, sets the pace)."));
    first_label_->setText(tr("&Accelerator"));
    second_label_->setText(tr("&Compare with"));
    QString kitchen = tr("<b>The kitchen</b> (CS336): a chef (the SMs) cooks fast only with ingredients within "
                         "reach.<ul>");
    for (MemoryLevelKind kind : kAllLevels)
        kitchen += tr("<li><b>%1</b> = %2</li>").arg(levelName(kind), levelAnalogy(kind));
    kitchen += tr("</ul>Fetching from one step further away costs roughly 10× more time per byte; good kernels keep "
                  "the ingredients on the cutting board and the spice rack. Figures marked ≈ are estimates (hover for "
                  "the source).");
    kitchen_label_->setText(kitchen);
    fillAcceleratorBoxes();
    selectionChanged();
}

void HardwarePage::fillAcceleratorBoxes()
{
    const QString first = first_box_->currentData().toString();
    const QString second = second_box_->currentData().toString();
    const bool second_set = second_box_->count() > 0;
    const QSignalBlocker block_first(first_box_);
    const QSignalBlocker block_second(second_box_);
    first_box_->clear();
    second_box_->clear();
    first_box_->addItem(tr("Scenario: %1").arg(QString::fromStdString(scenario_accelerator_.name)), QString());
    second_box_->addItem(tr("(none)"), QStringLiteral("-"));
    for (const Accelerator &accelerator : builtinHardwareCatalog().accelerators) {
        first_box_->addItem(QString::fromStdString(accelerator.name), QString::fromStdString(accelerator.id));
        second_box_->addItem(QString::fromStdString(accelerator.name), QString::fromStdString(accelerator.id));
    }
    first_box_->setCurrentIndex(std::max(0, first_box_->findData(first)));
    if (second_set)
        second_box_->setCurrentIndex(std::max(0, second_box_->findData(second)));
}

void HardwarePage::selectionChanged()
{
    const HardwareCatalog &catalog = builtinHardwareCatalog();
    const QString first = first_box_->currentData().toString();
    const Accelerator *chosen = first.isEmpty() ? nullptr : catalog.find(first.toStdString());
    first_ = chosen ? *chosen : scenario_accelerator_;
    const QString second = second_box_->currentData().toString();
    const Accelerator *compared = catalog.find(second.toStdString());
    second_ = compared ? std::optional<Accelerator>(*compared) : std::nullopt;
    refresh();
}

void HardwarePage::refresh()
{
    fillAnatomy();
    hierarchy_chart_->setData(hierarchyChartData());
    capacity_chart_->setData(levelChartData(false));
    bandwidth_chart_->setData(levelChartData(true));
}

void HardwarePage::fillAnatomy()
{
    std::vector<const Accelerator *> shown{&first_};
    if (second_)
        shown.push_back(&*second_);
    anatomy_table_->clear();
    anatomy_table_->setColumnCount(int(shown.size()));
    QStringList headers;
    for (const Accelerator *accelerator : shown)
        headers << shortName(accelerator->name);
    anatomy_table_->setHorizontalHeaderLabels(headers);
    for (int column = 0; column < int(shown.size()); ++column)
        anatomy_table_->horizontalHeaderItem(column)->setToolTip(QString::fromStdString(shown[std::size_t(column)]->name));

    struct Row {
        QString label;
        QString tooltip;
    };
    const QVector<Row> rows = {
        {tr("Compute units (SMs / CUs)"), tr("Streaming multiprocessors (NVIDIA), compute units (AMD), TensorCores (TPU)")},
        {tr("Matrix units"), tr("Tensor cores / matrix cores / MXUs: per SM × SMs")},
        {tr("Clock (implied)"), tr("FP32 peak / (SMs × FP32 FLOP per clock per SM)")},
        {tr("Register file per SM"), tr("64 K 32-bit registers = 256 KiB on NVIDIA (CUDA C++ Programming Guide)")},
        {tr("SRAM per SM"), tr("Shared memory / L1 (or LDS) per SM = catalog SRAM / SMs")},
        {tr("SRAM total"), tr("Catalog sram_bytes")},
        {tr("L2 cache"), tr("Catalog l2_bytes")},
        {tr("HBM capacity"), tr("Catalog memory_bytes")},
        {tr("HBM bandwidth"), tr("Catalog memory bandwidth")},
        {tr("Dense BF16 peak"), tr("Catalog dense (not 2:4 sparse) peak")},
        {tr("Ridge point (BF16)"), tr("peak / HBM bandwidth (Williams et al. 2009): intensity above which a kernel is "
                                      "compute-bound")},
        {tr("Scale-up link"), tr("NVLink / Infinity Fabric / ICI per GPU, one direction")},
        {tr("Host link (PCIe)"), tr("PCIe to the CPU, one direction (PCI Express Base Specification)")},
        {tr("Network per GPU"), tr("NIC bandwidth per GPU, one direction (catalog note)")},
    };
    anatomy_table_->setRowCount(int(rows.size()));
    QStringList row_labels;
    for (const Row &row : rows)
        row_labels << row.label;
    anatomy_table_->setVerticalHeaderLabels(row_labels);
    for (int r = 0; r < rows.size(); ++r)
        anatomy_table_->verticalHeaderItem(r)->setToolTip(rows[r].tooltip);

    for (int column = 0; column < int(shown.size()); ++column) {
        const Accelerator &accelerator = *shown[std::size_t(column)];
        const AcceleratorAnatomy a = anatomyOf(accelerator);
        const RooflineMachine bf16 = rooflineMachine(accelerator, DType::BF16);
        const QStringList values = {
            a.sm_count > 0 ? tr("%1 %2").arg(format::integer(a.sm_count), QString::fromStdString(a.compute_unit_name))
                           : unknown(),
            a.matrix_units > 0 ? tr("%1 (%2 per %3)")
                                     .arg(format::integer(a.matrix_units), format::integer(a.matrix_units_per_sm),
                                          QString::fromStdString(a.compute_unit_name))
                               : unknown(),
            a.clock_hz > 0 ? format::si(a.clock_hz, QStringLiteral("Hz")) : unknown(),
            kibOrUnknown(a.register_bytes_per_sm),
            kibOrUnknown(a.sram_bytes_per_sm),
            a.sram_bytes > 0 ? tr("%1 MiB").arg(format::decimal(double(a.sram_bytes) / (1024.0 * 1024.0), 1))
                             : unknown(),
            a.l2_bytes > 0 ? tr("%1 MiB").arg(format::decimal(double(a.l2_bytes) / (1024.0 * 1024.0), 0)) : unknown(),
            bytesOrUnknown(double(a.hbm_bytes)),
            rateOrUnknown(a.hbm_bandwidth_bytes_per_second),
            bf16.peak_flops_per_second > 0 ? format::si(bf16.peak_flops_per_second, tr("FLOP/s")) : unknown(),
            bf16.valid() ? format::si(bf16.ridgePointFlopPerByte(), tr("FLOP/B")) : unknown(),
            rateOrUnknown(a.intra_node_bandwidth_bytes_per_second),
            a.host_link.empty() ? unknown()
                                : tr("%1 · %2").arg(QString::fromStdString(a.host_link).remove(QStringLiteral("PCIe ")),
                                                    rateOrUnknown(a.host_link_bandwidth_bytes_per_second)),
            rateOrUnknown(a.inter_node_bandwidth_bytes_per_second),
        };
        for (int r = 0; r < values.size(); ++r) {
            auto *item = new QTableWidgetItem(values[r]);
            item->setToolTip(tr("%1<br><small>%2</small>")
                                 .arg(rows[r].tooltip.toHtmlEscaped(), QString::fromStdString(a.source).toHtmlEscaped()));
            anatomy_table_->setItem(r, column, item);
        }
    }
}

ChartData HardwarePage::hierarchyChartData() const
{
    ChartData chart;
    chart.title = second_ ? tr("Memory hierarchy: %1 vs %2")
                                .arg(QString::fromStdString(first_.name), QString::fromStdString(second_->name))
                          : tr("Memory hierarchy of %1").arg(QString::fromStdString(first_.name));
    chart.x_label = tr("Capacity per GPU (bytes, log scale)");
    chart.x_unit = QStringLiteral("bytes");
    chart.y_label = tr("Bandwidth to the SMs (bytes/s, log scale)");
    chart.y_unit = QStringLiteral("B/s");
    chart.log_x = true;
    chart.log_y = true;
    chart.formula.formula = tr("one point per level: (capacity, bandwidth); the network is a link (dashed line), "
                               "not a store");
    chart.formula.source = tr("catalog datasheets; register file, shared-memory and L2 bandwidth: CUDA C++ Programming "
                              "Guide, NVIDIA A100/H100 whitepapers, AMD CDNA 3 white paper (≈ estimates); host: DGX "
                              "user guides, PCI Express Base Specification; latency: Jia et al. 2018/2019, Luo et al. "
                              "2024 (orders of magnitude)");
    std::vector<const Accelerator *> shown{&first_};
    if (second_)
        shown.push_back(&*second_);
    const QPalette palette = hierarchy_chart_->palette();
    QStringList inputs;
    QStringList network_parts;
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const Accelerator &accelerator = *shown[i];
        const QString name = shortName(accelerator.name);
        ChartSeries series;
        series.name = name;
        series.color = chartSeriesColor(int(i), palette);
        series.dashed = i > 0;
        QStringList unplotted;
        for (const MemoryLevel &level : memoryHierarchy(accelerator)) {
            if (level.kind == MemoryLevelKind::Network) {
                if (level.bandwidth_bytes_per_second > 0) {
                    // In legend order; the line colours tell the accelerators apart.
                    network_parts << format::si(level.bandwidth_bytes_per_second, QStringLiteral("B/s"));
                    chart.reference_lines << ReferenceLine{level.bandwidth_bytes_per_second, QString(), series.color};
                }
                continue;
            }
            if (!(level.capacity_bytes > 0) || !(level.bandwidth_bytes_per_second > 0)) {
                unplotted << levelName(level.kind);
                continue;
            }
            series.x << level.capacity_bytes;
            series.y << level.bandwidth_bytes_per_second;
            // Labels on the first accelerator only, so two staircases stay readable.
            series.point_labels << (i == 0 ? tr("%1%2 · %3")
                                                 .arg(level.approximate ? QStringLiteral("≈") : QString(),
                                                      levelShortName(level.kind), levelShortAnalogy(level.kind))
                                           : QString());
            series.point_tooltips << levelTooltip(level, name);
        }
        chart.series << series;
        inputs << tr("%1: %2 levels plotted%3")
                      .arg(name.toHtmlEscaped())
                      .arg(series.x.size())
                      .arg(unplotted.isEmpty() ? QString()
                                               : tr(" (not published: %1)").arg(unplotted.join(QStringLiteral(", "))));
    }
    // One label for the network lines (two labels at 25 and 50 GB/s would overlap), on the highest.
    ChartText network_label;
    if (!network_parts.isEmpty()) {
        int top = 0;
        for (int i = 1; i < chart.reference_lines.size(); ++i)
            if (chart.reference_lines[i].y > chart.reference_lines[top].y)
                top = i;
        network_label.text = tr("network per GPU (%1): %2")
                                 .arg(levelShortAnalogy(MemoryLevelKind::Network),
                                      network_parts.join(QStringLiteral(" · ")));
        network_label.y = chart.reference_lines[top].y;
        network_label.color = chart.reference_lines[top].color;
        network_label.alignment = Qt::AlignLeft | Qt::AlignBottom;
    }
    // Room around the points for their labels, which extend to the right of and above them.
    double min_capacity = 0, max_capacity = 0, min_bandwidth = 0, max_bandwidth = 0;
    for (const ChartSeries &series : chart.series)
        for (int k = 0; k < series.x.size(); ++k) {
            const bool first_point = min_capacity == 0;
            min_capacity = first_point ? series.x[k] : std::min(min_capacity, series.x[k]);
            max_capacity = std::max(max_capacity, series.x[k]);
            min_bandwidth = first_point ? series.y[k] : std::min(min_bandwidth, series.y[k]);
            max_bandwidth = std::max(max_bandwidth, series.y[k]);
        }
    if (max_capacity > 0) {
        if (!network_label.text.isEmpty()) {
            network_label.x = min_capacity / 100;  // left, where no level sits
            chart.texts << network_label;
        }
        ChartText caption;
        caption.x = min_capacity / 100;
        caption.y = min_bandwidth / 3;
        caption.text = tr("↑ faster   larger →");
        caption.alignment = Qt::AlignLeft | Qt::AlignBottom;
        chart.texts << caption;
        ChartText room;
        room.x = max_capacity * 40;
        room.y = max_bandwidth * 3;
        room.text = QStringLiteral(" ");
        chart.texts << room;
    }
    chart.formula.inputs = inputs.join(QStringLiteral("<br>"));
    return chart;
}

ChartData HardwarePage::levelChartData(bool bandwidth) const
{
    ChartData chart;
    chart.title = bandwidth ? tr("Bandwidth by level") : tr("Capacity by level (per GPU)");
    chart.x_label = tr("Level (fast → slow)");
    chart.y_label = bandwidth ? tr("Bandwidth (bytes/s, log scale)") : tr("Capacity (bytes, log scale)");
    chart.y_unit = bandwidth ? QStringLiteral("B/s") : QStringLiteral("bytes");
    chart.log_y = true;
    chart.formula.formula = bandwidth ? tr("bandwidth each level delivers to the SMs, one direction")
                                      : tr("capacity per GPU (a node's RAM and drives divided by its GPUs)");
    chart.formula.source = tr("see the memory-hierarchy chart; hover a bar for its source");
    QVector<MemoryLevelKind> kinds;
    for (MemoryLevelKind kind : kAllLevels)
        if (bandwidth || kind != MemoryLevelKind::Network)
            kinds << kind;
    for (MemoryLevelKind kind : kinds)
        chart.categories << levelName(kind);
    std::vector<const Accelerator *> shown{&first_};
    if (second_)
        shown.push_back(&*second_);
    const QPalette palette = (bandwidth ? bandwidth_chart_ : capacity_chart_)->palette();
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const QString name = QString::fromStdString(shown[i]->name);
        ChartSeries series;
        series.name = name;
        series.kind = ChartSeries::Kind::Bar;
        series.color = chartSeriesColor(int(i), palette);
        const std::vector<MemoryLevel> levels = memoryHierarchy(*shown[i]);
        for (int index = 0; index < kinds.size(); ++index) {
            for (const MemoryLevel &level : levels) {
                if (level.kind != kinds[index])
                    continue;
                const double value = bandwidth ? level.bandwidth_bytes_per_second : level.capacity_bytes;
                if (!(value > 0))
                    continue;  // not published: no bar rather than an invented one
                series.x << index;
                series.y << value;
                series.point_tooltips << levelTooltip(level, name);
            }
        }
        chart.series << series;
    }
    chart.formula.inputs = second_ ? tr("%1 vs %2").arg(QString::fromStdString(first_.name).toHtmlEscaped(),
                                                         QString::fromStdString(second_->name).toHtmlEscaped())
                                    : QString::fromStdString(first_.name).toHtmlEscaped();
    return chart;
}

void HardwarePage::bindLessonControls()
{
    intro_->setObjectName(QStringLiteral("hardware-intro"));
    kitchen_label_->setObjectName(QStringLiteral("kitchen-analogy"));
    // Items carry catalog ids; the scenario's own accelerator ("") and "(none)" ("-") get names.
    lesson_controls_.addChoiceByData(QStringLiteral("first_accelerator"), first_box_,
                                     {{QString(), QStringLiteral("scenario")}});
    lesson_controls_.addChoiceByData(QStringLiteral("second_accelerator"), second_box_,
                                     {{QStringLiteral("-"), QStringLiteral("none")}});
}

QJsonObject HardwarePage::lessonSettings() const { return lesson_controls_.settings(); }

bool HardwarePage::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    return lesson_controls_.apply(settings, error);
}

}  // namespace lse::gui
