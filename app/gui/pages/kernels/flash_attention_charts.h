// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"
#include "kernels/flash_attention_io.h"
#include "roofline/roofline_machine.h"

#include <QCoreApplication>
#include <QPalette>

namespace lse::gui {

// The FlashAttention tab's charts, built from core/kernels only: HBM bytes over the sequence
// length N and over the SRAM size M (flash_attention_sweep.h), and the forward and backward passes
// placed on the accelerator's roofline by their arithmetic intensity (kernel_roofline.h).
class FlashAttentionCharts {
    Q_DECLARE_TR_FUNCTIONS(FlashAttentionCharts)
public:
    // Series names (English; lessons name them): standard / FlashAttention / FlashAttention-2 order
    // forward, standard / FlashAttention backward, and the marker of the chosen N or M.
    static ChartData ioOverSequenceLength(const kernels::AttentionConfig &config, const QPalette &palette);
    // `sram_source` names where the current M comes from ("shared memory per SM of NVIDIA H100 …").
    static ChartData ioOverSram(const kernels::AttentionConfig &config, const QString &sram_source,
                                const QPalette &palette);
    static ChartData roofline(const kernels::AttentionConfig &config, const kernels::AttentionIo &io,
                              const RooflineMachine &machine, const QPalette &palette);
    // The same charts' titles when the inputs are refused.
    static ChartData refused(const QString &title, const QString &problem);
};

}  // namespace lse::gui
