// SPDX-License-Identifier: GPL-3.0-or-later
// The Distributed run page's traffic by purpose (tp_forward, pp_send, dp_gradients, ...) of the last
// step beside the engine's bytes for the same events, and a pipeline run's measured Gantt chart
// (the Pipeline page's panel, given the run instead of loading a file).
#include "pages/distributed/distributed_run_page.h"
#include "pages/distributed/distributed_table_cell.h"

#include "pages/page_format.h"
#include "pages/parallel/pipeline_measured_panel.h"

#include <QLabel>
#include <QTableWidget>

namespace lse::gui {


void DistributedRunPage::fillTrafficTable()
{
    const bool have = results_ && !results_->traffic.empty();
    const std::vector<DistributedPurposeTraffic> rows = have ? results_->traffic.back() : std::vector<DistributedPurposeTraffic>{};
    traffic_table_->setRowCount(int(rows.size()));
    const QString none = QStringLiteral("—");
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const DistributedPurposeTraffic &t = rows[i];
        const int row = int(i);
        traffic_table_->setItem(row, 0, distributedTableCell(QString::number(t.rank), Qt::AlignLeft | Qt::AlignVCenter));
        traffic_table_->setItem(row, 1, distributedTableCell(t.purpose, Qt::AlignLeft | Qt::AlignVCenter));
        traffic_table_->setItem(row, 2, distributedTableCell(t.collective, Qt::AlignLeft | Qt::AlignVCenter));
        traffic_table_->setItem(row, 3, distributedTableCell(format::integer(t.transfers)));
        traffic_table_->setItem(row, 4, distributedTableCell(format::bytesExact(t.bytes_per_rank)));
        traffic_table_->setItem(row, 5, distributedTableCell(t.predicted_bytes_per_rank ? format::bytesExact(*t.predicted_bytes_per_rank) : none));
        traffic_table_->setItem(row, 6, distributedTableCell(!t.predicted_bytes_per_rank                            ? QString()
                                             : *t.predicted_bytes_per_rank == t.bytes_per_rank ? QStringLiteral("✓")
                                                                                               : QStringLiteral("≠"),
                                             Qt::AlignCenter));
    }
    const int step = have && !results_->steps.empty() ? results_->steps.back().step : 0;
    if (have && results_->isDataParallel())
        traffic_table_label_->setText(tr("By purpose, step %1 (rank 0): each collective's bytes; the engine predicts the "
                                         "step's total above, not each collective.")
                                          .arg(step));
    else
        traffic_table_label_->setText(tr("By purpose, step %1: every listed rank's traffic beside the engine's bytes for "
                                         "the same events (— where the engine has no such event: the loss, the norm, "
                                         "the barrier, sequence parallelism's extra gathers).")
                                          .arg(step));
}

void DistributedRunPage::refreshPipelinePanel()
{
    if (results_ && results_->pipeline)
        pipeline_panel_->setRun(*results_->pipeline, tr("this run"));
}

}  // namespace lse::gui
