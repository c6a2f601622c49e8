// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/roofline/machine_warnings.h"

#include "pages/page_format.h"

#include <QCoreApplication>

namespace lse::gui {

namespace {

// The translation context of these sentences (Q_DECLARE_TR_FUNCTIONS, seen by lupdate).
class MachineWarnings {
    Q_DECLARE_TR_FUNCTIONS(MachineWarnings)
public:
    static QStringList texts(const MachineRoofline &r);
    static QString sentence(const QStringList &texts);
};

QStringList MachineWarnings::texts(const MachineRoofline &r)
{
    QStringList texts;
    for (const Problem &warning : machineRooflineWarnings(r)) {
        if (warning.rule == "all-cores-slower" && warning.field == "bandwidth_bytes_per_s_all_cores")
            texts << tr("all %1 threads reached %2 of memory bandwidth, far below one core's %3: other processes held cores")
                         .arg(r.threads_used)
                         .arg(format::si(r.bandwidth_bytes_per_s_all_cores, QStringLiteral("B/s")),
                              format::si(r.bandwidth_bytes_per_s_one_core, QStringLiteral("B/s")));
        else if (warning.rule == "all-cores-slower")
            texts << tr("all %1 threads reached %2, less than one core's %3: other processes held cores")
                         .arg(r.threads_used)
                         .arg(format::si(r.peak_flops_per_s_all_cores, QStringLiteral("FLOP/s")),
                              format::si(r.peak_flops_per_s_one_core, QStringLiteral("FLOP/s")));
        else if (warning.rule == "busy")
            texts << tr("the load average was %1 on %2 logical cores before measuring")
                         .arg(format::decimal(r.load_average, 2))
                         .arg(r.logical_cores);
        else if (warning.rule == "changed")
            texts << tr("the all-cores peak %1 is far from the previous measurement's %2 (%3)")
                         .arg(format::si(r.peak_flops_per_s_all_cores, QStringLiteral("FLOP/s")),
                              format::si(r.previous_peak_flops_per_s_all_cores, QStringLiteral("FLOP/s")),
                              QString::fromStdString(r.previous_measured_at));
        else
            texts << QString::fromStdString(warning.message);
    }
    return texts;
}

QString MachineWarnings::sentence(const QStringList &texts)
{
    if (texts.isEmpty())
        return QString();
    return tr("Warning: this measurement looks wrong (%1). Re-measure on an idle machine.")
        .arg(texts.join(QStringLiteral("; ")));
}

}  // namespace

QStringList machineWarningTexts(const MachineRoofline &roofline) { return MachineWarnings::texts(roofline); }

QString machineWarningSentence(const MachineRoofline &roofline)
{
    return MachineWarnings::sentence(MachineWarnings::texts(roofline));
}

}  // namespace lse::gui
