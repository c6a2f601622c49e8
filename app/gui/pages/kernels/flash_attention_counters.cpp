// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/kernels/flash_attention_counters.h"

#include "pages/kernels/flash_attention_text.h"
#include "pages/page_format.h"
#include "pages/table_key_columns.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace lse::gui {

namespace {

using kernels::IoCounts;

QTableWidget *makeTable(QWidget *parent, int columns)
{
    auto *table = new QTableWidget(0, columns, parent);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    table->setFocusPolicy(Qt::NoFocus);  // Space, Left and Right stay with the step player
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    return table;
}

QTableWidgetItem *numberItem(const QString &text, const QString &tooltip, qint64 exact)
{
    auto *item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setToolTip(tooltip);
    item->setData(Qt::UserRole, exact);
    return item;
}

QString statistic(double value)
{
    return std::isfinite(value) ? format::decimal(value, 4) : QStringLiteral("−∞");
}

}  // namespace

FlashAttentionCounters::FlashAttentionCounters(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    counters_ = makeTable(this, ColumnCount);
    counters_->setRowCount(RowCount);
    counters_->setObjectName(QStringLiteral("flash-attention-counters"));
    setKeyColumns(counters_, {Quantity, ThisStep, SoFar, AlgorithmTotal, StandardTotal});
    layout->addWidget(counters_);
    statistics_title_ = new QLabel(this);
    statistics_title_->setWordWrap(true);
    layout->addWidget(statistics_title_);
    statistics_ = makeTable(this, 6);
    statistics_->setObjectName(QStringLiteral("flash-attention-row-statistics"));
    setKeyColumns(statistics_, {0, 1, 2, 3, 4, 5});
    layout->addWidget(statistics_);
    statistics_note_ = new QLabel(this);
    statistics_note_->setWordWrap(true);
    statistics_note_->setObjectName(QStringLiteral("flash-attention-statistics-note"));
    layout->addWidget(statistics_note_);
    retranslate();
    clear();
}

void FlashAttentionCounters::retranslate()
{
    counters_->setHorizontalHeaderLabels({tr("HBM traffic"), tr("This step"), tr("So far"), tr("Whole pass"),
                                          tr("Standard attention")});
    const QStringList rows{tr("Read"), tr("Written"), tr("Read + written"), tr("FLOPs"), tr("FLOP per byte")};
    for (int row = 0; row < RowCount; ++row) {
        auto *item = new QTableWidgetItem(rows[row]);
        counters_->setItem(row, Quantity, item);
    }
    counters_->horizontalHeaderItem(SoFar)->setToolTip(tr("The cumulative counts of every step up to this one"));
    counters_->horizontalHeaderItem(AlgorithmTotal)
        ->setToolTip(tr("The whole forward pass of %1 (%2), in closed form")
                         .arg(FlashAttentionText::algorithmName(algorithm_), FlashAttentionText::algorithmSource(algorithm_)));
    counters_->horizontalHeaderItem(StandardTotal)
        ->setToolTip(tr("The whole forward pass of standard attention (Dao et al. 2022 Algorithm 0): (4Nd + 4N²)·E "
                        "bytes, 4N²d + 5N² FLOPs"));
    standard_title_ = tr("<b>Softmax</b> (Algorithm 0 line 2): each row's max m and sum ℓ over all N keys at once, "
                         "after the whole row of S is in HBM.");
    online_title_ = (tr("<b>Online softmax</b> (Milakov &amp; Gimelshein 2018): each row's running max m "
                                  "and sum ℓ after this step; when a larger score arrives, everything accumulated so "
                                  "far is multiplied by e<sup>m_before − m_after</sup>."));
    statistics_title_->setText(algorithm_ == kernels::AttentionAlgorithm::Standard ? standard_title_ : online_title_);
    statistics_->setHorizontalHeaderLabels({tr("Row"), tr("m before"), tr("m after"), tr("ℓ before"), tr("ℓ after"),
                                            tr("O scaled by")});
    statistics_->horizontalHeaderItem(5)->setToolTip(
        tr("e^(m_before − m_after): the factor the output accumulated so far is multiplied by (Algorithm 1 line 12)"));
}

void FlashAttentionCounters::clear()
{
    for (int row = 0; row < RowCount; ++row)
        for (int column = ThisStep; column < ColumnCount; ++column)
            counters_->setItem(row, column, numberItem(QStringLiteral("—"), QString(), 0));
    statistics_->setRowCount(0);
    statistics_->hide();
    statistics_title_->hide();
    statistics_note_->clear();
    fitHeights();
}

void FlashAttentionCounters::showCounts(const kernels::AttentionIo &io, kernels::AttentionAlgorithm algorithm,
                                        const kernels::AttentionSteps *steps, int step, const QString &values_note)
{
    if (algorithm != algorithm_) {
        algorithm_ = algorithm;
        retranslate();
    }
    const kernels::AttentionStep *current =
        steps && step > 0 && step <= int(steps->steps.size()) ? &steps->steps[std::size_t(step - 1)] : nullptr;
    const IoCounts algorithm_total = algorithm == kernels::AttentionAlgorithm::Standard ? io.standard_forward
                                   : algorithm == kernels::AttentionAlgorithm::Flash    ? io.flash_forward
                                                                                       : io.flash2_forward;
    const auto fill = [&](int column, const IoCounts *counts) {
        if (!counts) {
            for (int row = 0; row < RowCount; ++row)
                counters_->setItem(row, column, numberItem(QStringLiteral("—"), QString(), 0));
            return;
        }
        counters_->setItem(Read, column, numberItem(format::bytes(double(counts->read_bytes)),
                                                    format::bytesExact(double(counts->read_bytes)), counts->read_bytes));
        counters_->setItem(Written, column,
                           numberItem(format::bytes(double(counts->written_bytes)),
                                      format::bytesExact(double(counts->written_bytes)), counts->written_bytes));
        counters_->setItem(Total, column, numberItem(format::bytes(double(counts->hbmBytes())),
                                                     format::bytesExact(double(counts->hbmBytes())), counts->hbmBytes()));
        counters_->setItem(Flops, column,
                           numberItem(format::si(double(counts->flops), tr("FLOP"), 4),
                                      tr("%1 FLOPs").arg(format::integer(counts->flops)), counts->flops));
        counters_->setItem(Intensity, column,
                           numberItem(counts->hbmBytes() > 0 ? format::decimal(counts->arithmeticIntensity(), 1)
                                                             : QStringLiteral("—"),
                                      tr("FLOPs ÷ HBM bytes read and written"), 0));
    };
    const IoCounts none;
    fill(ThisStep, steps ? (current ? &current->step : &none) : nullptr);
    fill(SoFar, steps ? (current ? &current->cumulative : &none) : nullptr);
    fill(AlgorithmTotal, &algorithm_total);
    fill(StandardTotal, &io.standard_forward);

    // The m and ℓ rows the step updates (with_values only).
    const bool values = current && !current->rows.empty();
    statistics_title_->setText(algorithm == kernels::AttentionAlgorithm::Standard ? standard_title_ : online_title_);
    statistics_title_->setVisible(steps != nullptr);
    statistics_->setVisible(values);
    statistics_->setRowCount(0);
    if (values) {
        const int shown = std::min<int>(kShownStatisticsRows, int(current->rows.size()));
        statistics_->setRowCount(shown);
        for (int k = 0; k < shown; ++k) {
            const kernels::RowStatistics &r = current->rows[std::size_t(k)];
            auto *row_item = new QTableWidgetItem(QString::number(r.row));
            statistics_->setItem(k, 0, row_item);
            // Standard attention's softmax takes each row's max and sum over all N keys at once: there
            // is no "before" and nothing to rescale; neither is there before a row's first block.
            const bool running = algorithm != kernels::AttentionAlgorithm::Standard;
            const QString dash = QStringLiteral("—");
            const QStringList cells{running ? statistic(r.m_before) : dash, statistic(r.m_after),
                                    running ? statistic(r.l_before) : dash, statistic(r.l_after),
                                    running && std::isfinite(r.m_before) ? statistic(r.outputScale()) : dash};
            for (int c = 0; c < cells.size(); ++c)
                statistics_->setItem(k, c + 1, numberItem(cells[c], QString(), 0));
        }
        const int more = int(current->rows.size()) - shown;
        statistics_note_->setText(more > 0 ? tr("… and %n more row(s) updated in this step.", nullptr, more) : QString());
    } else {
        statistics_note_->setText(values_note);
    }
    statistics_note_->setVisible(!statistics_note_->text().isEmpty());
    fitHeights();
}

void FlashAttentionCounters::fitHeights()
{
    // Every row shown, no scroll bar: the tables are short and the page scrolls instead.
    for (QTableWidget *table : {counters_, statistics_}) {
        table->resizeRowsToContents();
        int height = table->horizontalHeader()->sizeHint().height() + 2 * table->frameWidth();
        for (int row = 0; row < table->rowCount(); ++row)
            height += table->rowHeight(row);
        // The columns past the key ones scroll sideways when the table is narrow: room for the bar.
        if (table->horizontalHeader()->length() > table->width() - 2 * table->frameWidth())
            height += table->horizontalScrollBar()->sizeHint().height();
        table->setFixedHeight(height);
    }
}

void FlashAttentionCounters::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitHeights();
}

void FlashAttentionCounters::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitHeights();
}

}  // namespace lse::gui
