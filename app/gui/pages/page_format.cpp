// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/page_format.h"

#include "common/number_format.h"

#include <QCoreApplication>
#include <QLocale>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>

namespace lse::gui {

namespace {

// A page's scroll area fills the page whatever its content, so its size hint need not be the
// content's: QScrollArea's own asks the content for its height at the content's preferred width,
// which laid every changed word-wrapped label out once more, at a width nobody sees (1.4 ms of the
// figures table per edit on the Scaling page, bench_gui_footprint).
class PageScrollArea : public QScrollArea {
public:
    using QScrollArea::QScrollArea;
    QSize sizeHint() const override { return {400, 300}; }
};

}  // namespace

QWidget *addScrollingContent(QWidget *page)
{
    auto *outer = new QVBoxLayout(page);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new PageScrollArea(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // A page wider than the window (a projector at 1024 pixels in presentation mode) scrolls
    // sideways instead of cutting its right edge off.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    auto *content = new QWidget;
    scroll->setWidget(content);
    outer->addWidget(scroll);
    return content;
}

}  // namespace lse::gui

namespace lse::gui::format {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("lse::gui::format", text); }

struct Prefix {
    double factor;
    const char *symbol;
};
// SI prefixes (BIPM SI Brochure, 9th ed., Table 7) from kilo to yotta.
constexpr std::array<Prefix, 8> kPrefixes{{
    {1e3, "k"}, {1e6, "M"}, {1e9, "G"}, {1e12, "T"}, {1e15, "P"}, {1e18, "E"}, {1e21, "Z"}, {1e24, "Y"},
}};

}  // namespace

SiScale siScale(double largest)
{
    SiScale result;
    const double magnitude = std::fabs(largest);
    if (!std::isfinite(magnitude))
        return result;
    for (const Prefix &prefix : kPrefixes) {
        if (magnitude >= prefix.factor) {
            result.scale = 1.0 / prefix.factor;
            result.prefix = QString::fromLatin1(prefix.symbol);
        }
    }
    return result;
}

QString integer(std::int64_t value) { return QLocale().toString(qlonglong(value)); }

QString decimal(double value, int decimals) { return QString::fromStdString(formatDecimal(value, decimals, QLocale())); }

// The core's formatting (common/number_format.h), shared with the lessons' texts so a lesson and
// its page write the same figure the same way.
QString si(double value, const QString &unit, int significant)
{
    return QString::fromStdString(formatSi(value, unit.toStdString(), significant, QLocale()));
}

QString bytes(double value) { return si(value, tr("B")); }

QString bytesExact(double value)
{
    return tr("%1 (%2 bytes)").arg(bytes(value), integer(std::int64_t(std::llround(value))));
}

QString count(double value) { return QString::fromStdString(formatCount(value, QLocale())); }

QString percent(double fraction, int decimals) { return QString::fromStdString(formatPercent(fraction, decimals, QLocale())); }

QString days(double value) { return QString::fromStdString(formatDays(value, QLocale())); }

QString money(double value) { return QString::fromStdString(formatMoney(value, QLocale())); }

QString scientific(double value, int significant)
{
    const ScientificNumber number = scientificNumber(value, significant, QLocale());
    if (number.exponent == 0)
        return QString::fromStdString(number.mantissa);
    return QStringLiteral("%1 × 10<sup>%2</sup>").arg(QString::fromStdString(number.mantissa)).arg(number.exponent);
}

std::vector<std::int64_t> seqLenSweep(std::int64_t current)
{
    // 512 to 128k tokens spans GPT-2's context to today's long-context training.
    std::int64_t low = 512, high = 131072;
    while (current > 0 && low > current)
        low /= 2;
    while (high < current)
        high *= 2;
    std::vector<std::int64_t> values;
    for (std::int64_t value = std::max<std::int64_t>(1, low); value <= high; value *= 2)
        values.push_back(value);
    if (current > 0 && std::find(values.begin(), values.end(), current) == values.end()) {
        values.push_back(current);
        std::sort(values.begin(), values.end());
    }
    return values;
}

QString firstSource(const std::string &source)
{
    QString first = QString::fromStdString(source).section(QLatin1Char(';'), 0, 0).trimmed();
    if (const qsizetype paren = first.indexOf(QLatin1String(" (")); paren > 0)
        first.truncate(paren);
    return first;
}

QString fromStd(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

QString tooltip(const QString &title, const QString &inputs, const QString &formula, const QString &source,
                const QString &value)
{
    QStringList parts;
    parts << QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped());
    if (!value.isEmpty())
        parts << value;
    if (!inputs.isEmpty())
        parts << tr("<i>Inputs:</i> %1").arg(inputs);
    if (!formula.isEmpty())
        parts << tr("<i>Formula:</i> %1").arg(formula);
    if (!source.isEmpty())
        parts << tr("<i>Source:</i> %1").arg(source);
    return QStringLiteral("<qt>%1</qt>").arg(parts.join(QStringLiteral("<br>")));
}

}  // namespace lse::gui::format
