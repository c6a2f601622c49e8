// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/numbers/number_formats_section.h"

#include "charts/chart_view.h"
#include "common/number_text.h"
#include "numbers/float_format.h"
#include "pages/numbers/number_format_charts.h"
#include "pages/page_format.h"
#include "pages/table_key_columns.h"

#include <QCheckBox>
#include <QLocale>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace lse::gui {

namespace {

using numbers::FloatFormat;
using numbers::FormatId;

constexpr int kLayoutChartMinimumHeight = 420;
constexpr int kSpacingChartMinimumHeight = 460;
const char *const kErrorStyle = "color: #c62828;";

QTableWidget *newTable(int columns, QWidget *parent)
{
    auto *table = new QTableWidget(int(numbers::allFormats().size()), columns, parent);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    table->verticalHeader()->setVisible(false);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    return table;
}

QTableWidgetItem *cell(const QString &text, const QString &tooltip = QString())
{
    auto *item = new QTableWidgetItem(text);
    item->setToolTip(tooltip);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

// A property with its exact power of two where it is one: "6.10351562e-05 (2^−14)".
QString propertyText(double value)
{
    const QString power = powerOfTwoText(value);
    const QString digits = std::isnan(value) ? formatValueText(value, true) : QLocale().toString(value, 'g', 6);
    return power.isEmpty() ? digits : QStringLiteral("%1 (%2)").arg(digits, power);
}

// The bit string with each field in its colour, fields separated by a thin space.
QString colouredBits(const FloatFormat &format, const std::string &bits)
{
    QString html = QStringLiteral("<span style=\"font-family: monospace;\">");
    for (int i = 0; i < int(bits.size()); ++i) {
        const numbers::BitField field = numbers::bitField(format, i);
        if (i > 0 && field != numbers::bitField(format, i - 1))
            html += QStringLiteral("&thinsp;");
        html += QStringLiteral("<span style=\"color: %1;\">%2</span>")
                    .arg(NumberFormatCharts::fieldColor(field).name(), QChar::fromLatin1(bits[std::size_t(i)]));
    }
    return html + QStringLiteral("</span>");
}

}  // namespace

NumberFormatsSection::NumberFormatsSection(QWidget *parent) : PageSection(parent)
{
    QWidget *content = addScrollingContent(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    intro_ = new QLabel(content);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    layout_chart_ = new ChartView(QStringLiteral("number-format-layouts"), content);
    layout->addWidget(layout_chart_, 1);
    properties_table_ = newTable(DigitsColumn + 1, content);
    setKeyColumns(properties_table_, {LayoutColumn, MaxColumn, EpsilonColumn});  // range and precision
    layout->addWidget(properties_table_);

    auto *entry = new QHBoxLayout;
    value_label_ = new QLabel(content);
    value_edit_ = new QLineEdit(content);
    value_edit_->setText(QStringLiteral("0.1"));
    value_edit_->setMaximumWidth(260);
    value_label_->setBuddy(value_edit_);
    saturate_box_ = new QCheckBox(content);
    entry->addWidget(value_label_);
    entry->addWidget(value_edit_);
    entry->addWidget(saturate_box_);
    entry->addStretch(1);
    layout->addLayout(entry);
    message_ = new QLabel(content);
    message_->setWordWrap(true);
    layout->addWidget(message_);
    results_table_ = newTable(FlagsColumn + 1, content);
    setKeyColumns(results_table_, {FormatColumn, StoredColumn, RelErrorColumn});
    layout->addWidget(results_table_);

    spacing_chart_ = new ChartView(QStringLiteral("number-format-spacing"), content);
    layout->addWidget(spacing_chart_, 1);
    relative_chart_ = new ChartView(QStringLiteral("number-format-relative-spacing"), content);
    layout->addWidget(relative_chart_, 1);

    connect(value_edit_, &QLineEdit::textChanged, this, [this] { refreshValue(); });
    connect(saturate_box_, &QCheckBox::toggled, this, [this] { refreshValue(); });
    setPresentation(false);
    retranslateControls();
    fillProperties();
    layout_chart_->setData(NumberFormatCharts::bitLayout());
    refreshValue();
    bindLessonControls();
}

QString NumberFormatsSection::title() const { return tr("Formats"); }

QList<ChartView *> NumberFormatsSection::charts() const { return {layout_chart_, spacing_chart_, relative_chart_}; }

// The formats are the same for every scenario.
void NumberFormatsSection::showEstimate(const Scenario &, const Estimate &) {}

void NumberFormatsSection::setPresentation(bool presentation)
{
    PageSection::setPresentation(presentation);
    layout_chart_->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kLayoutChartMinimumHeight);
    spacing_chart_->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kSpacingChartMinimumHeight);
    relative_chart_->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kSpacingChartMinimumHeight);
}

void NumberFormatsSection::retranslate()
{
    retranslateControls();
    fillProperties();
    layout_chart_->setData(NumberFormatCharts::bitLayout());
    refreshValue();
}

void NumberFormatsSection::setValueText(const QString &text) { value_edit_->setText(text); }

void NumberFormatsSection::retranslateControls()
{
    intro_->setText(tr("Every format is a sign, an exponent that sets the range and a mantissa that sets the "
                       "precision. BF16 keeps FP32's 8 exponent bits (same range, 3 significant digits); FP16 "
                       "spends bits on the mantissa instead (more precision, but nothing above 65,504 and nothing "
                       "below 6·10⁻⁸), which is why FP16 training needs loss scaling. Every figure below is computed "
                       "from the formats' definitions."));
    value_label_->setText(tr("&Value:"));
    value_edit_->setToolTip(tr("A decimal number (0.1, -3.5e-6, 464, 1.5K); it is rounded to every format to "
                               "nearest, ties to even, and overflow is decided after rounding (IEEE 754-2019 §4.3.1, "
                               "§7.4)."));
    saturate_box_->setText(tr("Saturating E4M3"));
    saturate_box_->setToolTip(tr("OCP OFP8 v1.0 offers two conversions to E4M3, which has no infinity: the "
                                 "non-saturating one turns an overflow into NaN (480 → NaN), the saturating one "
                                 "clamps it to ±448."));
    const auto header = [](QTableWidget *table, int column, const QString &text, const QString &tooltip) {
        auto *item = new QTableWidgetItem(text);
        item->setToolTip(tooltip);
        table->setHorizontalHeaderItem(column, item);
    };
    const QString ieee = tr("IEEE 754-2019 §3.3; OCP OFP8 v1.0 for FP8");
    header(properties_table_, LayoutColumn, tr("Format (1 + e + m)"),
           format::tooltip(tr("Layout"), tr("e exponent bits, m mantissa (fraction) bits"), tr("bits = 1 + e + m"), ieee));
    header(properties_table_, BiasColumn, tr("Bias"),
           format::tooltip(tr("Exponent bias"), QString(), tr("bias = 2^(e−1) − 1"), ieee));
    header(properties_table_, MaxColumn, tr("Largest finite"),
           format::tooltip(tr("Largest finite value"), tr("emax = 2^e − 2 − bias (IEEE: the all-ones exponent is inf/NaN)"),
                           tr("max = (2 − 2^−m) · 2^emax; E4M3: only S.1111.111 is NaN, so emax = 2^e − 1 − bias and "
                              "max = (2 − 2^(1−m)) · 2^emax = 448; INT8: 2^7 − 1"),
                           ieee));
    header(properties_table_, MinNormalColumn, tr("Smallest normal"),
           format::tooltip(tr("Smallest normal value"), QString(), tr("min normal = 2^emin, emin = 1 − bias"), ieee));
    header(properties_table_, MinSubnormalColumn, tr("Smallest subnormal"),
           format::tooltip(tr("Smallest subnormal value"), tr("exponent field 0: no implicit leading 1"),
                           tr("min subnormal = 2^(emin − m)"), ieee));
    header(properties_table_, EpsilonColumn, tr("Machine epsilon"),
           format::tooltip(tr("Machine epsilon"), tr("the gap between 1 and the next larger value"), tr("ε = 2^−m"), ieee));
    header(properties_table_, DigitsColumn, tr("Decimal digits"),
           format::tooltip(tr("Significant decimal digits"), QString(), tr("digits = (m + 1) · log10 2"), ieee));
    header(results_table_, FormatColumn, tr("Format"), QString());
    header(results_table_, StoredColumn, tr("Stored value"),
           tr("The value the format holds: round to nearest, ties to even; overflow after rounding"));
    header(results_table_, BitsColumn, tr("Bits"), tr("Sign, exponent and mantissa bits of the stored value"));
    header(results_table_, AbsErrorColumn, tr("Abs. error"), format::tooltip(tr("Absolute error"), QString(), tr("|stored − x|"), QString()));
    header(results_table_, RelErrorColumn, tr("Rel. error"),
           format::tooltip(tr("Relative error"), QString(), tr("|stored − x| / |x|; at most ε/2 for a normal result"), QString()));
    header(results_table_, FlagsColumn, tr("Flags"), QString());
}

void NumberFormatsSection::fillProperties()
{
    const std::vector<FloatFormat> &formats = numbers::allFormats();
    QStringList rowNames;
    for (int row = 0; row < int(formats.size()); ++row) {
        const FloatFormat &f = formats[std::size_t(row)];
        rowNames << format::fromStd(f.name);
        auto *layoutItem = cell(NumberFormatCharts::layoutLabel(f));
        layoutItem->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        properties_table_->setItem(row, LayoutColumn, layoutItem);
        properties_table_->setItem(row, BiasColumn, cell(f.is_integer ? tr("n/a") : QString::number(f.bias)));
        properties_table_->setItem(row, MaxColumn, cell(propertyText(f.max),
                                                        f.is_integer ? tr("2^7 − 1 = 127 (lowest −128)")
                                                                     : tr("(2 − 2^−%1) · 2^%2").arg(f.special == numbers::SpecialValues::NaNOnly ? f.mantissa_bits - 1 : f.mantissa_bits).arg(f.max_exponent)));
        properties_table_->setItem(row, MinNormalColumn, cell(propertyText(f.min_normal)));
        properties_table_->setItem(row, MinSubnormalColumn, cell(propertyText(f.min_subnormal)));
        properties_table_->setItem(row, EpsilonColumn, cell(propertyText(f.epsilon)));
        properties_table_->setItem(row, DigitsColumn,
                                   cell(std::isnan(f.decimal_digits) ? tr("n/a") : format::decimal(f.decimal_digits, 2)));
    }
    properties_table_->resizeColumnsToContents();
}

void NumberFormatsSection::refreshValue()
{
    const QString text = value_edit_->text().trimmed();
    value_.reset();
    if (text.isEmpty()) {
        message_->setStyleSheet(QString());
        message_->setText(tr("Type a value to see how each format stores it."));
    } else if (const std::optional<double> parsed = parseNumberText(text.toStdString())) {
        value_ = parsed;
        message_->setStyleSheet(QString());
        message_->setText(tr("%1 as each format stores it:").arg(QLocale().toString(*parsed, 'g', QLocale::FloatingPointShortest)));
    } else {
        message_->setStyleSheet(QString::fromLatin1(kErrorStyle));
        message_->setText(tr("Value: '%1' is not a finite decimal number (examples: 0.1, -3.5e-6, 464, 1.5K).").arg(text));
    }
    fillResults();
    spacing_chart_->setData(NumberFormatCharts::spacing(value_));
    relative_chart_->setData(NumberFormatCharts::relativeSpacing(value_));
    emit resultsChanged();
}

void NumberFormatsSection::fillResults()
{
    const std::vector<FloatFormat> &formats = numbers::allFormats();
    for (int row = 0; row < int(formats.size()); ++row) {
        const FloatFormat &f = formats[std::size_t(row)];
        auto *name = cell(format::fromStd(f.name));
        name->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        results_table_->setItem(row, FormatColumn, name);
        if (!value_) {
            for (int column = StoredColumn; column <= FlagsColumn; ++column)
                results_table_->setItem(row, column, cell(QString()));
            results_table_->setCellWidget(row, BitsColumn, nullptr);
            continue;
        }
        // Only E4M3 has the saturating choice on this page (the OCP spec's two conversions).
        const bool saturate = saturate_box_->isChecked() && f.id == FormatId::FP8_E4M3;
        const numbers::Rounded r =
            numbers::roundToFormat(f.id, *value_, saturate ? numbers::OverflowMode::Saturate : numbers::OverflowMode::Standard);
        const std::string bits = numbers::bitString(f.id, r.bits);
        results_table_->setItem(row, StoredColumn, cell(formatValueText(r.stored)));
        auto *bitsItem = cell(QString());
        bitsItem->setData(Qt::UserRole, QString::fromStdString(bits));
        results_table_->setItem(row, BitsColumn, bitsItem);
        auto *bitsLabel = new QLabel(colouredBits(f, bits));
        bitsLabel->setTextFormat(Qt::RichText);
        bitsLabel->setContentsMargins(4, 0, 4, 0);
        results_table_->setCellWidget(row, BitsColumn, bitsLabel);
        results_table_->setItem(row, AbsErrorColumn, cell(formatValueText(numbers::absoluteError(*value_, r.stored))));
        results_table_->setItem(row, RelErrorColumn, cell(formatValueText(numbers::relativeError(*value_, r.stored))));
        QStringList flags;
        if (r.overflow)
            flags << (saturate || (f.is_integer) ? tr("overflow → clamped to the limit")
                      : std::isnan(r.stored)     ? tr("overflow → NaN (no infinity)")
                                                 : tr("overflow → ∞"));
        if (r.underflow_to_zero)
            flags << tr("underflow → 0");
        if (r.subnormal)
            flags << tr("subnormal (fewer significant bits)");
        if (!r.overflow && !r.underflow_to_zero && r.stored == *value_)
            flags << tr("exact");
        auto *flagsItem = cell(flags.join(QStringLiteral("; ")));
        flagsItem->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        results_table_->setItem(row, FlagsColumn, flagsItem);
    }
    results_table_->resizeColumnsToContents();
}

void NumberFormatsSection::bindLessonControls()
{
    intro_->setObjectName(QStringLiteral("formats-intro"));
    properties_table_->setObjectName(QStringLiteral("format-properties-table"));
    message_->setObjectName(QStringLiteral("format-message"));
    results_table_->setObjectName(QStringLiteral("format-results-table"));
    lesson_controls_.addText(QStringLiteral("value"), value_edit_);
    lesson_controls_.addFlag(QStringLiteral("saturate"), saturate_box_);
}

QJsonObject NumberFormatsSection::lessonSettings() const { return lesson_controls_.settings(); }

bool NumberFormatsSection::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    return lesson_controls_.apply(settings, error);
}

}  // namespace lse::gui
