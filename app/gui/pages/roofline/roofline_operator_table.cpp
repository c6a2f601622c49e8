// SPDX-License-Identifier: GPL-3.0-or-later
// The Roofline page's operator table and its CSV export.
#include "pages/roofline/roofline_page.h"

#include "charts/chart_palette.h"
#include "charts/chart_view.h"
#include "common/file_writer.h"
#include "enum_labels.h"
#include "hardware/hardware_catalog.h"
#include "pages/page_format.h"
#include "pages/roofline/machine_warnings.h"
#include "pages/roofline/reference_ops_run.h"
#include "pages/roofline/roofline_page_parts.h"
#include "reference/peak_utilisation.h"
#include "pages/operator_text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QTableWidget>
#include <QTextStream>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <memory>

namespace lse::gui {

using namespace roofline_parts;

namespace {

// Sorts by the raw number in Qt::UserRole, not by the formatted text.
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

QString csvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

}  // namespace

void RooflinePage::fillTable()
{
    table_->setSortingEnabled(false);
    table_->clearContents();
    table_->setHorizontalHeaderLabels({tr("Operator"), tr("Pass"), tr("Count"), tr("Shape"), tr("FLOPs"),
                                       tr("Bytes"), tr("Intensity"), tr("Attainable"), tr("Bound"), tr("Time"),
                                       tr("Share of step")});
    table_->horizontalHeaderItem(ColIntensity)->setToolTip(tr("FLOPs / (bytes read + bytes written)"));
    table_->horizontalHeaderItem(ColAttainable)
        ->setToolTip(tr("min(peak, intensity · bandwidth) (Williams et al. 2009)"));
    table_->horizontalHeaderItem(ColTime)->setToolTip(tr("max(FLOPs / peak, bytes / bandwidth), all instances"));
    if (!report_) {
        table_->setRowCount(0);
        table_title_->setText(tr("<b>Operators</b>: no valid scenario yet."));
        table_->setSortingEnabled(true);
        return;
    }
    table_title_->setText(tr("<b>Operators of one %1</b> on %2 (click a header to sort):")
                              .arg(phase_box_->currentText().toLower(),
                                   QString::fromStdString(report_->machine.name).toHtmlEscaped()));
    table_->setRowCount(int(report_->ops.size()));
    for (int row = 0; row < int(report_->ops.size()); ++row) {
        const RooflineOp &op = report_->ops[std::size_t(row)];
        auto *name = new QTableWidgetItem(QString::fromStdString(op.name));
        name->setData(Qt::UserRole, row);  // the report's order, for tests and CSV
        table_->setItem(row, ColName, name);
        table_->setItem(row, ColPass, new QTableWidgetItem(passName(op.pass)));
        table_->setItem(row, ColCount, new NumberItem(format::integer(op.count), op.count));
        table_->setItem(row, ColShape, new QTableWidgetItem(operatorShapeText(op.shape)));
        table_->setItem(row, ColFlops, new NumberItem(format::si(op.flops, tr("FLOP")), op.flops));
        table_->setItem(row, ColBytes, new NumberItem(format::bytes(op.bytes()), op.bytes()));
        table_->setItem(row, ColIntensity,
                        new NumberItem(intensityText(op.intensity_flop_per_byte), op.intensity_flop_per_byte));
        table_->setItem(row, ColAttainable, new NumberItem(format::si(op.attainable_flops_per_second, tr("FLOP/s")),
                                                           op.attainable_flops_per_second));
        auto *bound = new QTableWidgetItem(boundName(op.bound));
        bound->setData(Qt::UserRole, int(op.bound));
        table_->setItem(row, ColBound, bound);
        table_->setItem(row, ColTime, new NumberItem(format::si(op.seconds, QStringLiteral("s")), op.seconds));
        table_->setItem(row, ColShare, new NumberItem(format::percent(op.share_of_step), op.share_of_step));
    }
    table_->setSortingEnabled(true);
    table_->resizeColumnsToContents();
}

bool RooflinePage::exportTableCsv(const QString &path, QString *error) const
{
    if (!report_) {
        if (error)
            *error = tr("no operators to export");
        return false;
    }
    QByteArray csv;
    QTextStream out(&csv);
    out << "name,pass,count,shape,flops,bytes,intensity_flop_per_byte,attainable_flops_per_second,bound,seconds,"
           "share_of_step\n";
    for (const RooflineOp &op : report_->ops) {
        out << csvField(QString::fromStdString(op.name)) << ',' << QString::fromUtf8(toString(op.pass).data()) << ','
            << op.count << ',' << csvField(QString::fromStdString(op.shape)) << ','
            << QString::number(op.flops, 'g', 17) << ',' << QString::number(op.bytes(), 'g', 17) << ','
            << QString::number(op.intensity_flop_per_byte, 'g', 17) << ','
            << QString::number(op.attainable_flops_per_second, 'g', 17) << ','
            << QString::fromUtf8(toString(op.bound).data()) << ',' << QString::number(op.seconds, 'g', 17) << ','
            << QString::number(op.share_of_step, 'g', 17) << '\n';
    }
    out.flush();
    // Every write checked before the file replaces an old one (QSaveFile on Qt 6.4 can commit a short file).
    const Result<bool> written =
        writeFileReplacing(QFile::encodeName(path).toStdString(), std::string_view(csv.constData(), std::size_t(csv.size())));
    if (!written) {
        if (error)
            *error = QString::fromStdString(written.problems().front().message);
        return false;
    }
    return true;
}

}  // namespace lse::gui
