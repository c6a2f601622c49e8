// SPDX-License-Identifier: GPL-3.0-or-later
// The Trace page's tables: the top kernels by time and the operators that launched them.
#include "pages/traces/trace_page.h"

#include "pages/page_format.h"
#include "pages/traces/trace_timeline.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>

namespace lse::gui {

namespace {

// Shows formatted text, sorts by the number.
class NumberItem : public QTableWidgetItem {
public:
    NumberItem(const QString &text, double value) : QTableWidgetItem(text)
    {
        setData(Qt::UserRole, value);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem &other) const override
    {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

QTableWidgetItem *textItem(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setToolTip(text.toHtmlEscaped());
    return item;
}

QString flopsText(double flops) { return flops > 0 ? format::si(flops, TracePage::tr("FLOP")) : QStringLiteral("–"); }

QString rateText(double rate) { return rate > 0 ? format::si(rate, TracePage::tr("FLOP/s")) : QStringLiteral("–"); }

}  // namespace

void TracePage::fillKernelTable()
{
    const LoadedTrace *trace = session_->current();
    kernel_table_->setSortingEnabled(false);
    kernel_table_->setRowCount(0);
    if (!trace)
        return;
    const traces::TraceRankAnalysis &a = trace->analysis;
    kernels_title_->setText(tr("<b>Top %Ln kernel(s) by GPU time</b> (share of all GPU activity time; achieved "
                               "FLOP/s = FLOPs of the linked operators' shapes ÷ summed duration):",
                               nullptr, int(a.top_kernels.size())));
    kernel_table_->setRowCount(int(a.top_kernels.size()));
    for (int row = 0; row < int(a.top_kernels.size()); ++row) {
        const traces::TraceKernelRow &k = a.top_kernels[std::size_t(row)];
        kernel_table_->setItem(row, 0, textItem(QString::fromStdString(k.name)));
        kernel_table_->setItem(row, 1, textItem(kernelClassLabel(k.kernel_class)));
        kernel_table_->setItem(row, 2, new NumberItem(format::integer(k.count), double(k.count)));
        kernel_table_->setItem(row, 3, new NumberItem(format::decimal(k.seconds * 1e3, 3), k.seconds));
        kernel_table_->setItem(row, 4, new NumberItem(format::percent(k.percent / 100.0), k.percent));
        kernel_table_->setItem(row, 5, new NumberItem(flopsText(k.flops), k.flops));
        kernel_table_->setItem(row, 6, new NumberItem(rateText(k.achieved_flops_per_second), k.achieved_flops_per_second));
    }
    kernel_table_->setSortingEnabled(true);
    kernel_table_->sortByColumn(3, Qt::DescendingOrder);
    kernel_table_->resizeColumnsToContents();
    kernel_table_->setColumnWidth(0, std::min(kernel_table_->columnWidth(0), 420));
}

void TracePage::fillOperatorTable()
{
    const LoadedTrace *trace = session_->current();
    operator_table_->setSortingEnabled(false);
    operator_table_->setRowCount(0);
    if (!trace)
        return;
    const traces::TraceRankAnalysis &a = trace->analysis;
    double total = 0;
    for (const traces::TraceOperatorRow &op : a.operators)
        total += op.seconds;
    operators_title_->setText(
        a.has_gpu ? tr("<b>Operators</b> by the GPU time of the kernels they launched (%Ln row(s), one per name, "
                       "class and shape):",
                       nullptr, int(a.operators.size()))
                  : tr("<b>Operators</b> by their self time on the CPU (%Ln row(s), one per name and shape):", nullptr,
                       int(a.operators.size())));
    operator_table_->setRowCount(int(a.operators.size()));
    for (int row = 0; row < int(a.operators.size()); ++row) {
        const traces::TraceOperatorRow &op = a.operators[std::size_t(row)];
        const double rate = op.seconds > 0 && op.flops > 0 ? op.flops / op.seconds : 0;
        operator_table_->setItem(row, 0, textItem(QString::fromStdString(op.name)));
        operator_table_->setItem(row, 1, textItem(kernelClassLabel(op.kernel_class)));
        operator_table_->setItem(row, 2, textItem(QString::fromStdString(op.shape)));
        operator_table_->setItem(row, 3, textItem(QString::fromStdString(op.dtype)));
        operator_table_->setItem(row, 4, new NumberItem(format::integer(op.count), double(op.count)));
        operator_table_->setItem(row, 5, new NumberItem(format::decimal(op.seconds * 1e3, 3), op.seconds));
        operator_table_->setItem(row, 6, new NumberItem(format::percent(total > 0 ? op.seconds / total : 0),
                                                        total > 0 ? op.seconds / total : 0));
        operator_table_->setItem(row, 7, new NumberItem(flopsText(op.flops), op.flops));
        operator_table_->setItem(row, 8, new NumberItem(rateText(rate), rate));
    }
    operator_table_->setSortingEnabled(true);
    operator_table_->sortByColumn(5, Qt::DescendingOrder);
    operator_table_->resizeColumnsToContents();
    operator_table_->setColumnWidth(0, std::min(operator_table_->columnWidth(0), 320));
    operator_table_->setColumnWidth(2, std::min(operator_table_->columnWidth(2), 260));
}

}  // namespace lse::gui
