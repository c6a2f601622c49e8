// SPDX-License-Identifier: GPL-3.0-or-later
// The Numbers page's "Formats" tab offscreen: the properties table and both charts show what
// core/numbers computes, a typed value is rounded in every format (bits, E4M3's NaN and saturating
// mode), bad text names the field, and the charts export.

#include "charts/chart_view.h"
#include "numbers/float_format.h"
#include "numbers/number_line.h"
#include "pages/numbers/number_format_charts.h"
#include "pages/numbers/number_formats_section.h"
#include "pages/numbers/numbers_page.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace lse;
using namespace lse::gui;
using numbers::FormatId;

namespace {

int rowOf(FormatId id)
{
    const auto &formats = numbers::allFormats();
    for (std::size_t i = 0; i < formats.size(); ++i)
        if (formats[i].id == id)
            return int(i);
    return -1;
}

QString storedText(const NumberFormatsSection &section, FormatId id)
{
    return section.resultsTable()->item(rowOf(id), NumberFormatsSection::StoredColumn)->text();
}

QString bitsOf(const NumberFormatsSection &section, FormatId id)
{
    return section.resultsTable()->item(rowOf(id), NumberFormatsSection::BitsColumn)->data(Qt::UserRole).toString();
}

const ChartSeries *seriesNamed(const ChartData &chart, const QString &prefix)
{
    for (const ChartSeries &series : chart.series)
        if (series.name.startsWith(prefix))
            return &series;
    return nullptr;
}

}  // namespace

class TestNumberFormatsSection : public QObject {
    Q_OBJECT
private slots:
    void numbersPageHasTheFormatsTab()
    {
        NumbersPage page;
        QVERIFY(page.sectionIds().contains(QStringLiteral("formats")));
        QVERIFY(page.selectSection(QStringLiteral("formats")));
    }

    void propertiesTableIsCores()
    {
        NumberFormatsSection section;
        QTableWidget *table = section.propertiesTable();
        QCOMPARE(table->rowCount(), int(numbers::allFormats().size()));
        for (const numbers::FloatFormat &f : numbers::allFormats()) {
            const int row = rowOf(f.id);
            QVERIFY(table->item(row, NumberFormatsSection::LayoutColumn)->text().startsWith(QString::fromStdString(f.name)));
            QVERIFY(table->item(row, NumberFormatsSection::MaxColumn)->text().startsWith(QLocale().toString(f.max, 'g', 6)));
            if (f.is_integer) {
                QCOMPARE(table->item(row, NumberFormatsSection::EpsilonColumn)->text(), QStringLiteral("n/a"));
                QCOMPARE(table->item(row, NumberFormatsSection::MinSubnormalColumn)->text(), QStringLiteral("n/a"));
            } else {
                QVERIFY(table->item(row, NumberFormatsSection::EpsilonColumn)->text()
                            .endsWith(QStringLiteral("(%1)").arg(powerOfTwoText(f.epsilon))));
                QVERIFY(table->item(row, NumberFormatsSection::MinSubnormalColumn)->text()
                            .endsWith(QStringLiteral("(%1)").arg(powerOfTwoText(f.min_subnormal))));
            }
        }
        QCOMPARE(powerOfTwoText(std::ldexp(1.0, -24)), QStringLiteral("2^−24"));
        QVERIFY(table->item(rowOf(FormatId::FP16), NumberFormatsSection::MinSubnormalColumn)->text().contains("2^−24"));
        QVERIFY(table->item(rowOf(FormatId::FP8_E4M3), NumberFormatsSection::MaxColumn)->text().startsWith("448"));
        // Header tooltips carry the formulas and their source.
        QVERIFY(table->horizontalHeaderItem(NumberFormatsSection::MaxColumn)->toolTip().contains("IEEE 754-2019"));
    }

    void typedValueIsRoundedInEveryFormat()
    {
        NumberFormatsSection section;
        QSignalSpy changed(&section, &NumberFormatsSection::resultsChanged);
        section.setValueText(QStringLiteral("464"));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(section.value(), std::optional<double>(464.0));
        for (const numbers::FloatFormat &f : numbers::allFormats()) {
            const numbers::Rounded r = numbers::roundToFormat(f.id, 464.0);
            QCOMPARE(storedText(section, f.id), formatValueText(r.stored));
            QCOMPARE(bitsOf(section, f.id), QString::fromStdString(numbers::bitString(f.id, r.bits)));
        }
        QCOMPARE(bitsOf(section, FormatId::FP8_E4M3), QStringLiteral("01111110"));  // the tie goes to 448
        QCOMPARE(storedText(section, FormatId::FP8_E4M3), formatValueText(448));

        section.setValueText(QStringLiteral("480"));
        QCOMPARE(changed.count(), 2);
        QCOMPARE(storedText(section, FormatId::FP8_E4M3), QStringLiteral("NaN"));
        QCOMPARE(bitsOf(section, FormatId::FP8_E4M3), QStringLiteral("01111111"));
        QVERIFY(section.resultsTable()->item(rowOf(FormatId::FP8_E4M3), NumberFormatsSection::FlagsColumn)->text().contains("NaN"));
        const QString e5m2Before = storedText(section, FormatId::FP8_E5M2);

        section.saturateCheckBox()->setChecked(true);
        QCOMPARE(changed.count(), 3);
        QCOMPARE(storedText(section, FormatId::FP8_E4M3), formatValueText(448));
        QCOMPARE(bitsOf(section, FormatId::FP8_E4M3), QStringLiteral("01111110"));
        QCOMPARE(storedText(section, FormatId::FP8_E5M2), e5m2Before);  // the choice is E4M3's only

        section.setValueText(QStringLiteral("-70000"));
        QCOMPARE(storedText(section, FormatId::FP16), QStringLiteral("−∞"));
        QCOMPARE(storedText(section, FormatId::INT8), formatValueText(-128));
    }

    void badTextNamesTheField()
    {
        NumberFormatsSection section;
        QSignalSpy changed(&section, &NumberFormatsSection::resultsChanged);
        section.valueEdit()->setText(QStringLiteral("abc"));
        QCOMPARE(changed.count(), 1);
        QVERIFY(!section.value().has_value());
        QVERIFY(section.messageLabel()->text().contains(QStringLiteral("Value")));
        QVERIFY(section.messageLabel()->text().contains(QStringLiteral("abc")));
        QVERIFY(storedText(section, FormatId::FP32).isEmpty());
        QVERIFY(seriesNamed(section.spacingChart()->data(), QStringLiteral("your value")) == nullptr);
        section.valueEdit()->setText(QStringLiteral("1e999"));  // beyond double: not finite
        QVERIFY(!section.value().has_value());
        section.valueEdit()->setText(QStringLiteral("2"));
        QVERIFY(section.value().has_value());
        QVERIFY(!section.messageLabel()->text().contains(QStringLiteral("abc")));
    }

    void numberLinesAreCoresSpacing()
    {
        NumberFormatsSection section;
        section.setValueText(QStringLiteral("1000"));
        const ChartData &chart = section.spacingChart()->data();
        QVERIFY(chart.log_x && chart.log_y);
        for (const numbers::FloatFormat &f : numbers::allFormats()) {
            const ChartSeries *line = seriesNamed(chart, QString::fromStdString(f.name));
            QVERIFY(line != nullptr);
            const std::vector<numbers::SpacingPoint> curve = numbers::spacingCurve(f.id);
            QCOMPARE(line->x.size(), qsizetype(curve.size()));
            for (std::size_t i = 0; i < curve.size(); ++i) {
                QCOMPARE(line->x[qsizetype(i)], curve[i].magnitude);
                QCOMPARE(line->y[qsizetype(i)], curve[i].spacing);
            }
        }
        // The typed value sits on every format that reaches it: not E4M3 (max 448) nor INT8.
        const ChartSeries *typed = seriesNamed(chart, QStringLiteral("your value"));
        QVERIFY(typed != nullptr);
        QCOMPARE(typed->x.size(), qsizetype(5));
        QVERIFY(typed->y.contains(numbers::spacingAt(FormatId::FP16, 1000)));
        QVERIFY(typed->y.contains(numbers::spacingAt(FormatId::BF16, 1000)));
        const ChartData &relative = section.relativeSpacingChart()->data();
        const ChartSeries *bf16 = seriesNamed(relative, QStringLiteral("bf16"));
        QVERIFY(bf16 != nullptr);
        QCOMPARE(bf16->y.front(), 1.0);
    }

    void bitLayoutIsColouredByField()
    {
        NumberFormatsSection section;
        const ChartData &chart = section.bitLayoutChart()->data();
        int bits = 0;
        for (const numbers::FloatFormat &f : numbers::allFormats())
            bits += f.bits;
        QCOMPARE(chart.rects.size(), qsizetype(bits));
        QCOMPARE(chart.y_categories.size(), qsizetype(numbers::allFormats().size()));
        const numbers::FloatFormat &fp16 = numbers::floatFormat(FormatId::FP16);
        int exponentCells = 0;
        for (const ChartRect &cell : chart.rects)
            if (std::lround(cell.y0 + 0.38) == rowOf(FormatId::FP16)) {
                const numbers::BitField field = numbers::bitField(fp16, int(cell.x0));
                QCOMPARE(cell.color, NumberFormatCharts::fieldColor(field));
                exponentCells += field == numbers::BitField::Exponent;
            }
        QCOMPARE(exponentCells, 5);
    }

    void chartsExportAndPresent()
    {
        NumberFormatsSection section;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QCOMPARE(section.charts().size(), 3);
        for (ChartView *chart : section.charts()) {
            QString error;
            QVERIFY2(chart->exportAll(dir.path(), &error), qPrintable(error));
            QVERIFY(QFileInfo(dir.filePath(chart->id() + QStringLiteral(".csv"))).size() > 0);
            QVERIFY(QFileInfo(dir.filePath(chart->id() + QStringLiteral(".png"))).size() > 0);
        }
        section.setPresentation(true);
        for (ChartView *chart : section.charts())
            QVERIFY(chart->presentation());
        // Retranslating keeps the typed value.
        section.setValueText(QStringLiteral("3.5"));
        section.retranslate();
        QCOMPARE(section.value(), std::optional<double>(3.5));
        QCOMPARE(storedText(section, FormatId::INT8), formatValueText(4));
    }
};

QTEST_MAIN(TestNumberFormatsSection)
#include "test_number_formats_section.moc"
