// SPDX-License-Identifier: GPL-3.0-or-later
// The Serving page's tables: the latency's named parts (core's breakdown, each with its formula and
// source) and what the formats save in bytes (core's quantisationSavings), with the accuracy caveat
// of the chosen formats in words.
#include "pages/serving/serving_page.h"

#include "pages/page_format.h"
#include "pages/parallel/layout/duration_format.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QTableWidget>

namespace lse::gui {

using namespace lse::inference;

namespace {

QString formatName(ServingFormat format)
{
    return format == ServingFormat::INT4 ? QStringLiteral("INT4 (g128)") : format::fromStd(toString(format)).toUpper();
}

QTableWidgetItem *cell(const QString &text, bool number, const QString &tooltip = QString())
{
    auto *item = new QTableWidgetItem(text);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setToolTip(tooltip);
    return item;
}

}  // namespace

// A breakdown key of core/inference ("decode_matmul_memory", "tp_all_reduce", …) in the user's
// language; an unknown key shows core's English label.
static QString partLabel(const ServingPart &part)
{
    const QString key = format::fromStd(part.key);
    if (key == QLatin1String("tp_all_reduce"))
        return ServingPage::tr("tensor-parallel all-reduces");
    if (key == QLatin1String("pp_hand_off"))
        return ServingPage::tr("pipeline hand-offs");
    if (key == QLatin1String("kernel_launch"))
        return ServingPage::tr("kernel launches");
    if (key == QLatin1String("host_overhead"))
        return ServingPage::tr("host overhead per step");
    const QStringList parts = key.split(QLatin1Char('_'));
    if (parts.size() != 3)
        return format::fromStd(part.label);
    const QString phase = parts[0] == QLatin1String("prefill") ? ServingPage::tr("prefill")
                        : parts[0] == QLatin1String("decode")  ? ServingPage::tr("decode")
                                                               : QString();
    const QString kind = parts[1] == QLatin1String("matmul")      ? ServingPage::tr("weight matmuls")
                       : parts[1] == QLatin1String("attention") ? ServingPage::tr("attention")
                       : parts[1] == QLatin1String("other")     ? ServingPage::tr("element-wise, norms, embedding")
                                                                : QString();
    const QString bound = parts[2] == QLatin1String("compute") ? ServingPage::tr("compute-bound")
                        : parts[2] == QLatin1String("memory")  ? ServingPage::tr("memory-bound")
                                                               : QString();
    if (phase.isEmpty() || kind.isEmpty() || bound.isEmpty())
        return format::fromStd(part.label);
    return ServingPage::tr("%1: %2 (%3)").arg(phase, kind, bound);
}

void ServingPage::fillBreakdownTable()
{
    breakdown_table_->setHorizontalHeaderLabels({tr("Part"), tr("Time"), tr("Share of end to end")});
    breakdown_table_->setRowCount(0);
    if (!report_)
        return;
    const ServingReport &r = *report_;
    std::vector<const ServingPart *> shown;
    for (const ServingPart &part : r.breakdown)
        if (part.seconds > 0)
            shown.push_back(&part);
    breakdown_table_->setRowCount(int(shown.size()) + 1);
    int row = 0;
    for (const ServingPart *part : shown) {
        const QString tooltip = format::tooltip(partLabel(*part), QString(), format::fromStd(part->formula).toHtmlEscaped(),
                                                format::fromStd(part->source).toHtmlEscaped());
        breakdown_table_->setItem(row, 0, cell(partLabel(*part), false, tooltip));
        breakdown_table_->setItem(row, 1, cell(format::duration(part->seconds), true, tooltip));
        // The share is the part over core's end-to-end time, as the CLI prints it.
        breakdown_table_->setItem(row, 2, cell(format::percent(part->seconds / r.end_to_end_seconds), true, tooltip));
        ++row;
    }
    const QString total_tooltip = format::tooltip(tr("End to end"), QString(), tr("TTFT + decode = the sum of the parts"),
                                                  tr("core/inference serve()"));
    QTableWidgetItem *total = cell(tr("end to end (TTFT %1 + decode %2)")
                                       .arg(format::duration(r.ttft_seconds),
                                            format::duration(r.decode_seconds)),
                                   false, total_tooltip);
    QFont bold = total->font();
    bold.setBold(true);
    total->setFont(bold);
    breakdown_table_->setItem(row, 0, total);
    QTableWidgetItem *total_time = cell(format::duration(r.end_to_end_seconds), true, total_tooltip);
    total_time->setFont(bold);
    breakdown_table_->setItem(row, 1, total_time);
    breakdown_table_->setItem(row, 2, cell(format::percent(1.0), true, total_tooltip));
    breakdown_table_->resizeColumnsToContents();
}

void ServingPage::fillQuantisationTable()
{
    quantisation_table_->setHorizontalHeaderLabels({tr("Tensor"), tr("Format"), tr("Bytes per element"),
                                                    tr("Per GPU"), tr("16-bit per GPU"), tr("Saved per GPU")});
    quantisation_table_->setRowCount(0);
    if (!savings_)
        return;
    const QuantisationSavings &s = *savings_;
    quantisation_table_->setRowCount(int(s.tensors.size()));
    int row = 0;
    for (const TensorSaving &tensor : s.tensors) {
        const QString name = tensor.tensor == "weights"    ? tr("weights (linear layers)")
                           : tensor.tensor == "kv_cache"   ? tr("KV cache (end of generation)")
                                                           : tr("activation workspace");
        const QString tooltip =
            tensor.tensor == "weights"
                ? tr("INT4 (g128): 4 bits + one fp16 scale per 128 weights = 0.515625 bytes (GPTQ §5, AWQ); int8 and fp8: "
                     "1 byte (per-channel scales, under 0.05 %, left out); embedding and norms stay 16-bit")
            : tensor.tensor == "kv_cache" ? tr("2 · layers · ⌈KV heads / tp⌉ · head_dim · bytes per element · (prompt + "
                                               "output) · batch (Kwon et al. 2023, vLLM §3)")
                                          : tr("the largest prefill operator's activations and the residual stream at the "
                                               "activation format");
        quantisation_table_->setItem(row, 0, cell(name, false, tooltip));
        quantisation_table_->setItem(row, 1, cell(formatName(tensor.format), false, tooltip));
        quantisation_table_->setItem(row, 2, cell(tr("%1 (16-bit: %2)")
                                                      .arg(format::decimal(tensor.bytes_per_element, 6).remove(
                                                               QRegularExpression(QStringLiteral("\\.?0+$"))),
                                                           format::decimal(tensor.sixteen_bit_bytes_per_element, 0)),
                                                  true, tooltip));
        quantisation_table_->setItem(row, 3, cell(format::bytes(tensor.bytes_per_gpu), true, tooltip));
        quantisation_table_->setItem(row, 4, cell(format::bytes(tensor.sixteen_bit_bytes_per_gpu), true, tooltip));
        quantisation_table_->setItem(row, 5, cell(tensor.saved_bytes_per_gpu >= 0
                                                      ? format::bytes(tensor.saved_bytes_per_gpu)
                                                      : tr("costs %1").arg(format::bytes(-tensor.saved_bytes_per_gpu)),
                                                  true, tooltip));
        ++row;
    }
    quantisation_table_->resizeColumnsToContents();
}

QString ServingPage::caveatText() const
{
    QStringList lines;
    if (savings_) {
        const QuantisationSavings &s = *savings_;
        lines << tr("Against 16-bit: largest batch %1 instead of %2; TTFT %3 instead of %4; TPOT %5 instead of %6 "
                    "(matmuls at %7 instead of %8).")
                     .arg(format::integer(s.max_batch), format::integer(s.sixteen_bit_max_batch),
                          format::duration(s.ttft_seconds), format::duration(s.sixteen_bit_ttft_seconds),
                          format::duration(s.tpot_seconds), format::duration(s.sixteen_bit_tpot_seconds),
                          format::fromStd(toString(s.compute_format)).toUpper(),
                          format::fromStd(toString(s.sixteen_bit_compute_format)).toUpper());
    }
    // Accuracy in words only: the bytes say nothing about it, and published losses depend on the
    // model, the method and the task.
    const ServingInputs chosen = inputs();
    const ServingFormat weights = chosen.weights, activations = chosen.activations, kv = chosen.kv_cache;
    QStringList caveats;
    if (weights == ServingFormat::INT4)
        caveats << tr("4-bit weights need a careful method (GPTQ, AWQ: error-compensating rounding, activation-aware "
                      "scales); their papers report small losses on large models, larger ones on small models and on "
                      "some tasks such as code, maths and long contexts.");
    if (weights == ServingFormat::INT8 || weights == ServingFormat::FP8)
        caveats << tr("8-bit weights with per-channel (int8) or per-tensor (fp8) scales are usually close to 16-bit.");
    if (activations == ServingFormat::INT8)
        caveats << tr("int8 activations meet outlier channels (Dettmers et al. 2022): they need smoothing (SmoothQuant) "
                      "or mixed precision, or quality drops.");
    if (activations == ServingFormat::FP8)
        caveats << tr("fp8 activations need scales calibrated on representative data.");
    if (kv == ServingFormat::INT8 || kv == ServingFormat::FP8)
        caveats << tr("An 8-bit KV cache adds a rounding error to every cached key and value; its effect grows with the "
                      "context length.");
    if (caveats.isEmpty())
        caveats << tr("All 16-bit: no quantisation error to weigh against the bytes.");
    lines << tr("Accuracy (no figure here: it depends on the model, the method and the task; measure it on your own "
                "evaluation): %1")
                 .arg(caveats.join(QLatin1Char(' ')));
    return lines.join(QStringLiteral("<br>")).replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

}  // namespace lse::gui
