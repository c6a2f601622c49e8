// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kernels/flash_attention_steps.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace lse::gui {

// The FlashAttention tab's live counters: HBM bytes read and written, FLOPs and arithmetic
// intensity of the current step, of every step so far (core's cumulative counts), of the whole
// forward pass of the chosen algorithm and of standard attention beside it (attentionIo); and, for
// a small example, the running row statistics m and ℓ of the rows the step updates with the
// factor e^{m_before − m_after} that rescales the output so far (online softmax).
class FlashAttentionCounters : public QWidget {
    Q_OBJECT
public:
    // Columns of the counters table; each cell keeps its exact integer in Qt::UserRole.
    enum Column { Quantity, ThisStep, SoFar, AlgorithmTotal, StandardTotal, ColumnCount };
    // Rows of the counters table.
    enum Row { Read, Written, Total, Flops, Intensity, RowCount };
    // At most this many rows of m and ℓ are listed; the rest are counted in the note.
    static constexpr int kShownStatisticsRows = 6;

    explicit FlashAttentionCounters(QWidget *parent = nullptr);

    // `steps` is null when the animation is not available (the totals are still shown); `step` is
    // 0..steps->steps.size(). `values_note` says why the m and ℓ table is empty, if it is.
    void showCounts(const kernels::AttentionIo &io, kernels::AttentionAlgorithm algorithm,
                    const kernels::AttentionSteps *steps, int step, const QString &values_note);
    void clear();
    void retranslate();

    QTableWidget *countersTable() const { return counters_; }
    QTableWidget *statisticsTable() const { return statistics_; }
    QLabel *statisticsNote() const { return statistics_note_; }

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitHeights();

    QTableWidget *counters_;
    QLabel *statistics_title_;
    QString online_title_;
    QString standard_title_;
    QTableWidget *statistics_;
    QLabel *statistics_note_;
    kernels::AttentionAlgorithm algorithm_ = kernels::AttentionAlgorithm::Flash;
};

}  // namespace lse::gui
