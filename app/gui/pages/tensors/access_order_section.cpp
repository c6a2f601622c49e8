// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/table_fill_batch.h"
#include "pages/tensors/access_order_section.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "pages/page_format.h"
#include "pages/table_key_columns.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

#include <memory>

namespace lse::gui {

namespace {

constexpr AccessVariant kVariants[] = {AccessVariant::MatmulContiguous, AccessVariant::MatmulTransposedView,
                                       AccessVariant::MatmulCopy,       AccessVariant::SweepByRows,
                                       AccessVariant::SweepByColumns,   AccessVariant::SweepCopy};

QString variantName(AccessVariant variant)
{
    switch (variant) {
    case AccessVariant::MatmulContiguous: return AccessOrderSection::tr("A·B, B contiguous (column-major)");
    case AccessVariant::MatmulTransposedView: return AccessOrderSection::tr("A·B, B a transposed view (row-major)");
    case AccessVariant::MatmulCopy: return AccessOrderSection::tr("Copy B to contiguous");
    case AccessVariant::SweepByRows: return AccessOrderSection::tr("Loop by rows (stride 1)");
    case AccessVariant::SweepByColumns: return AccessOrderSection::tr("Loop by columns (strided)");
    case AccessVariant::SweepCopy: return AccessOrderSection::tr("Copy matrix to column order");
    }
    return {};
}

QString shortName(AccessVariant variant)
{
    switch (variant) {
    case AccessVariant::MatmulContiguous: return AccessOrderSection::tr("A·B contiguous");
    case AccessVariant::MatmulTransposedView: return AccessOrderSection::tr("A·B view");
    case AccessVariant::MatmulCopy: return AccessOrderSection::tr("copy B");
    case AccessVariant::SweepByRows: return AccessOrderSection::tr("by rows");
    case AccessVariant::SweepByColumns: return AccessOrderSection::tr("by columns");
    case AccessVariant::SweepCopy: return AccessOrderSection::tr("copy matrix");
    }
    return {};
}

// Three kinds of bar: the contiguous read, the strided read, the copy between them.
int kindOf(AccessVariant variant)
{
    switch (variant) {
    case AccessVariant::MatmulContiguous:
    case AccessVariant::SweepByRows:
        return 0;
    case AccessVariant::MatmulTransposedView:
    case AccessVariant::SweepByColumns:
        return 1;
    default:
        return 2;
    }
}

}  // namespace

AccessOrderSection::AccessOrderSection(QWidget *parent) : PageSection(parent)
{
    QWidget *content = addScrollingContent(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    intro_ = new QLabel(content);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    auto *sizes = new QGridLayout;
    auto spin = [&](QLabel *&label, QSpinBox *&box, int slot, int low, int high, int value) {
        label = new QLabel(content);
        box = new QSpinBox(content);
        box->setRange(low, high);
        box->setValue(value);
        sizes->addWidget(label, slot / 2, 2 * (slot % 2));
        sizes->addWidget(box, slot / 2, 2 * (slot % 2) + 1);
        connect(box, &QSpinBox::valueChanged, this, [this] { refresh(); });
    };
    const AccessTimingRequest defaults;
    spin(matmul_label_, matmul_spin_, 0, 1, int(kMaxAccessMatmulSize), int(defaults.matmul_size));
    spin(repetitions_label_, repetitions_spin_, 1, 1, 100, defaults.repetitions);
    spin(rows_label_, rows_spin_, 2, 1, 1 << 16, int(defaults.sweep_rows));
    spin(cols_label_, cols_spin_, 3, 1, 1 << 16, int(defaults.sweep_cols));
    sizes->setColumnStretch(4, 1);
    layout->addLayout(sizes);

    auto *row = new QHBoxLayout;
    measure_button_ = new QPushButton(content);
    cancel_button_ = new QPushButton(content);
    cancel_button_->setEnabled(false);
    progress_ = new QProgressBar(content);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setMaximumWidth(200);
    row->addWidget(measure_button_);
    row->addWidget(cancel_button_);
    row->addWidget(progress_);
    row->addStretch(1);
    layout->addLayout(row);
    status_ = new QLabel(content);
    status_->setWordWrap(true);
    layout->addWidget(status_);

    table_ = new QTableWidget(content);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    table_->setMinimumHeight(220);
    setKeyColumns(table_, {0, 1, 4});  // variant, median time, GB/s
    layout->addWidget(table_);
    verdict_ = new QLabel(content);
    verdict_->setWordWrap(true);
    verdict_->setTextFormat(Qt::RichText);
    layout->addWidget(verdict_);
    time_chart_ = new ChartView(QStringLiteral("access-order-time"), content);
    bandwidth_chart_ = new ChartView(QStringLiteral("access-order-bandwidth"), content);
    layout->addWidget(time_chart_);
    layout->addWidget(bandwidth_chart_);
    sources_ = new QLabel(content);
    sources_->setWordWrap(true);
    sources_->setTextFormat(Qt::RichText);
    sources_->setOpenExternalLinks(true);
    layout->addWidget(sources_);
    layout->addStretch(1);

    connect(measure_button_, &QPushButton::clicked, this, &AccessOrderSection::measure);
    connect(cancel_button_, &QPushButton::clicked, this, &AccessOrderSection::cancel);
    setPresentation(false);
    retranslate();
    bindLessonControls();
}

AccessOrderSection::~AccessOrderSection() = default;  // measurement_ cancels and joins

QString AccessOrderSection::title() const { return tr("Why layout matters"); }

QList<ChartView *> AccessOrderSection::charts() const { return {time_chart_, bandwidth_chart_}; }

void AccessOrderSection::showEstimate(const Scenario &, const Estimate &)
{
    // Measured on this CPU; nothing here depends on the scenario.
}

void AccessOrderSection::setPresentation(bool presentation)
{
    PageSection::setPresentation(presentation);
    for (ChartView *chart : charts())
        chart->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kChartMinimumHeight + 60);
}

void AccessOrderSection::setRequest(const AccessTimingRequest &request)
{
    matmul_spin_->setValue(int(request.matmul_size));
    rows_spin_->setValue(int(request.sweep_rows));
    cols_spin_->setValue(int(request.sweep_cols));
    repetitions_spin_->setValue(request.repetitions);
}

AccessTimingRequest AccessOrderSection::request() const
{
    AccessTimingRequest request;
    request.matmul_size = matmul_spin_->value();
    request.sweep_rows = rows_spin_->value();
    request.sweep_cols = cols_spin_->value();
    request.repetitions = repetitions_spin_->value();
    return request;  // threads: 1, the default (OpenMP threads spin on a busy machine)
}

void AccessOrderSection::measure()
{
    if (measurement_.isRunning())
        return;
    message_.clear();
    const AccessTimingRequest request = this->request();
    progress_->setRange(0, int(std::size(kVariants)) * request.repetitions);
    progress_->setValue(0);
    measure_button_->setEnabled(false);
    cancel_button_->setEnabled(true);
    status_->setText(tr("Timing the access orders on this CPU (one thread)…"));
    measurement_.start(
        this,
        [request](const std::atomic<bool> &cancel, const BackgroundMeasurement::ProgressFn &progress) {
            return timeAccessOrders(request, cancel, progress);
        },
        [this](int done, int total) {
            progress_->setRange(0, total);
            progress_->setValue(done);
        },
        [this](const Result<AccessTiming> &timing) { finish(timing); });
}

void AccessOrderSection::cancel() { measurement_.cancel(); }

void AccessOrderSection::finish(const Result<AccessTiming> &timing)
{
    measure_button_->setEnabled(true);
    cancel_button_->setEnabled(false);
    bool cancelled = false;
    if (!timing) {
        message_ = format::fromStd(formatProblems(timing.problems())).trimmed();
    } else if (timing->cancelled) {
        cancelled = true;
        message_ = tr("Cancelled; the table keeps the last finished measurement.");
    } else {
        result_ = timing.value();
    }
    refresh();
    emit finished(cancelled);
    emit ready();
}

void AccessOrderSection::retranslate()
{
    intro_->setText(
        tr("The same arithmetic over the same bytes, read in two orders, timed on this CPU with one thread (median of "
           "the timed calls after one warm-up call). A transposed tensor is a view: same storage, swapped strides, so "
           "its inner loop jumps a whole row between neighbours. .contiguous() is a copy that reads and writes every "
           "element once; it pays for itself when the strided reads cost more than the copy does."));
    matmul_label_->setText(tr("Product n:"));
    rows_label_->setText(tr("Loop rows:"));
    cols_label_->setText(tr("Loop columns:"));
    repetitions_label_->setText(tr("Timed calls:"));
    measure_button_->setText(tr("Measure"));
    cancel_button_->setText(tr("Cancel"));
    sources_->setText(
        tr("<b>Why:</b> memory moves in 64-byte cache lines. Reading by rows uses all 16 floats of each line; reading by "
           "columns uses one float per line, and once a column's lines no longer fit in the cache, every read fetches a "
           "new line: up to 16× the traffic, plus a TLB miss per 4 KiB page (Drepper 2007, <i>What Every Programmer "
           "Should Know About Memory</i>, §6.2). Eigen stores matrices column-major by default and a row-major Map over "
           "the same buffer is the transpose without a copy (Eigen documentation, <i>Storage orders</i>). Its matrix "
           "product copies blocks of both operands into packed, contiguous panels before multiplying (Goto & van de "
           "Geijn 2008), so the product barely notices the operand's order: the copy is already inside the GEMM. A "
           "plain loop has no such packing, and there the order decides."));
    refresh();
}

std::vector<AccessVariantTiming> AccessOrderSection::shownVariants() const
{
    std::vector<AccessVariantTiming> variants;
    for (AccessVariant variant : kVariants) {
        const AccessVariantTiming *measured = result_ ? result_->find(variant) : nullptr;
        variants.push_back(measured ? *measured : accessCost(variant, request()));
    }
    return variants;
}

void AccessOrderSection::refresh()
{
    const AccessTimingRequest r = request();
    const QString sizes = tr("C = A·B with n = %1 (fp32, %2 per matrix); loop over a %3 × %4 fp32 matrix (%5); %n timed "
                             "call(s) per variant",
                             nullptr, r.repetitions)
                              .arg(format::integer(r.matmul_size), format::bytes(4.0 * double(r.matmul_size * r.matmul_size)),
                                   format::integer(r.sweep_rows), format::integer(r.sweep_cols),
                                   format::bytes(4.0 * double(r.sweep_rows) * double(r.sweep_cols)));
    if (!isRunning())
        status_->setText(message_.isEmpty() ? sizes : message_ + QStringLiteral("\n") + sizes);

    const QStringList headers{tr("Variant"),          tr("Median (ms)"), tr("Bytes read + written"),
                              tr("Inner-loop stride"), tr("GB/s"),        tr("GFLOP/s")};
    table_->setColumnCount(int(headers.size()));
    table_->setHorizontalHeaderLabels(headers);
    const std::vector<AccessVariantTiming> variants = shownVariants();
    table_->setRowCount(int(variants.size()));
    TableFillBatch batch(table_);
    for (int row = 0; row < int(variants.size()); ++row) {
        const AccessVariantTiming &v = variants[std::size_t(row)];
        const bool measured = v.median_seconds > 0;
        const QString dash = QStringLiteral("—");
        const QStringList cells{variantName(v.variant),
                                measured ? format::decimal(v.median_seconds * 1e3, 3) : dash,
                                format::bytes(v.bytes),
                                tr("%1 bytes").arg(format::integer(v.inner_stride_bytes)),
                                measured ? format::decimal(v.bytesPerSecond() / 1e9, 2) : dash,
                                measured && v.flops > 0 ? format::decimal(v.flopsPerSecond() / 1e9, 2) : dash};
        for (int column = 0; column < int(cells.size()); ++column) {
            auto *item = new QTableWidgetItem(cells[column]);
            if (column > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(row, column, item);
        }
    }
    batch.finish();
    verdict_->setText(verdict());
    time_chart_->setData(timeData());
    bandwidth_chart_->setData(bandwidthData());
}

QString AccessOrderSection::verdict() const
{
    if (!result_)
        return tr("Press Measure to time the six variants.");
    auto line = [](const QString &what, double saving_seconds, int break_even_reads) {
        QString text = saving_seconds > 0
            ? tr("%1: copying first and then reading contiguously is <b>%2 ms faster</b> than reading the view in place "
                 "— the copy pays for itself.")
                  .arg(what, format::decimal(saving_seconds * 1e3, 3))
            : tr("%1: copying first costs <b>%2 ms more</b> than reading the view in place — for one read the copy "
                 "does not pay for itself.")
                  .arg(what, format::decimal(-saving_seconds * 1e3, 3));
        text += QLatin1Char(' ')
            + (break_even_reads > 0
                   ? tr("A tensor read %n time(s) or more repays its copy.", nullptr, break_even_reads)
                   : tr("The strided read is no slower here, so the copy never repays itself."));
        return text;
    };
    return line(tr("Product"), result_->matmulCopySavingSeconds(), result_->matmulCopyBreakEvenReads())
        + QStringLiteral("<br>") + line(tr("Loop"), result_->sweepCopySavingSeconds(), result_->sweepCopyBreakEvenReads());
}

ChartData AccessOrderSection::timeData() const
{
    ChartData chart;
    const bool measured = result_.has_value();
    chart.title = measured ? tr("Median time per call on this CPU") : tr("Bytes each variant reads and writes");
    chart.y_label = measured ? tr("Median time (ms)") : tr("Bytes read + written (MB)");
    chart.y_unit = measured ? QStringLiteral("ms") : QStringLiteral("MB");
    chart.formula.inputs = status_->text();
    chart.formula.formula = measured ? tr("median of the timed calls after one warm-up call (std::chrono::steady_clock)")
                                     : tr("product: read A and B, write C = 3·n²·4 bytes; loop: rows·cols·4; copy: 2× "
                                          "the matrix");
    chart.formula.source = tr("core/tensors/access_timing.cpp; Drepper 2007 §6.2");
    for (AccessVariant variant : kVariants)
        chart.categories << shortName(variant);
    const QStringList kinds{tr("contiguous read"), tr("strided read"), tr("copy")};
    const std::vector<AccessVariantTiming> variants = shownVariants();
    for (int kind = 0; kind < 3; ++kind) {
        ChartSeries series;
        series.kind = ChartSeries::Kind::Bar;
        series.name = kinds[kind];
        series.color = chartSeriesColor(kind, palette());
        for (int index = 0; index < int(variants.size()); ++index) {
            const AccessVariantTiming &v = variants[std::size_t(index)];
            if (kindOf(v.variant) != kind)
                continue;
            series.x << index;
            series.y << (measured ? v.median_seconds * 1e3 : v.bytes / 1e6);
            series.point_tooltips << tr("%1: %2 ms, %3, stride %4 bytes")
                                         .arg(variantName(v.variant), format::decimal(v.median_seconds * 1e3, 3),
                                              format::bytes(v.bytes), format::integer(v.inner_stride_bytes));
        }
        chart.series << series;
    }
    return chart;
}

ChartData AccessOrderSection::bandwidthData() const
{
    ChartData chart;
    chart.title = result_ ? tr("Achieved bandwidth: bytes read + written / median time")
                          : tr("Achieved bandwidth: press Measure");
    chart.y_label = tr("GB/s");
    chart.y_unit = QStringLiteral("GB/s");
    chart.formula.inputs = status_->text();
    chart.formula.formula = tr("GB/s = (bytes each element is read and written once) / median time; the strided "
                               "variants move whole 64-byte lines, so their real traffic is higher");
    chart.formula.source = tr("core/tensors/access_timing.cpp; Drepper 2007 §6.2");
    for (AccessVariant variant : kVariants)
        chart.categories << shortName(variant);
    const QStringList kinds{tr("contiguous read"), tr("strided read"), tr("copy")};
    const std::vector<AccessVariantTiming> variants = shownVariants();
    for (int kind = 0; kind < 3; ++kind) {
        ChartSeries series;
        series.kind = ChartSeries::Kind::Bar;
        series.name = kinds[kind];
        series.color = chartSeriesColor(kind, palette());
        for (int index = 0; index < int(variants.size()); ++index) {
            const AccessVariantTiming &v = variants[std::size_t(index)];
            if (kindOf(v.variant) != kind)
                continue;
            series.x << index;
            series.y << v.bytesPerSecond() / 1e9;
            series.point_tooltips << tr("%1: %2 GB/s, %3 GFLOP/s")
                                         .arg(variantName(v.variant), format::decimal(v.bytesPerSecond() / 1e9, 2),
                                              format::decimal(v.flopsPerSecond() / 1e9, 2));
        }
        chart.series << series;
    }
    return chart;
}

void AccessOrderSection::bindLessonControls()
{
    intro_->setObjectName(QStringLiteral("access-order-intro"));
    table_->setObjectName(QStringLiteral("access-order-table"));
    verdict_->setObjectName(QStringLiteral("access-order-verdict"));
    sources_->setObjectName(QStringLiteral("access-order-sources"));
    lesson_controls_.addInt(QStringLiteral("matmul_size"), matmul_spin_);
    lesson_controls_.addInt(QStringLiteral("rows"), rows_spin_);
    lesson_controls_.addInt(QStringLiteral("cols"), cols_spin_);
    lesson_controls_.addInt(QStringLiteral("repetitions"), repetitions_spin_);
}

QJsonObject AccessOrderSection::lessonSettings() const { return lesson_controls_.settings(); }

bool AccessOrderSection::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    return lesson_controls_.apply(settings, error);
}

}  // namespace lse::gui
