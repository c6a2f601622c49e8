// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/page_format.h"

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

// Decimals that leave `significant` significant digits for a value in [1, 1000).
int decimalsFor(double magnitude, int significant)
{
    int integer_digits = 1;
    if (magnitude >= 100)
        integer_digits = 3;
    else if (magnitude >= 10)
        integer_digits = 2;
    return std::max(0, significant - integer_digits);
}

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

QString decimal(double value, int decimals) { return QLocale().toString(value, 'f', decimals); }

QString si(double value, const QString &unit, int significant)
{
    if (!std::isfinite(value))
        return QStringLiteral("–");
    if (value == 0)
        return QStringLiteral("0 %1").arg(unit);
    const SiScale scale = siScale(value);
    const double scaled = value * scale.scale;
    const QString number = decimal(scaled, decimalsFor(std::fabs(scaled), significant));
    return QStringLiteral("%1 %2%3").arg(number, scale.prefix, unit);
}

QString bytes(double value) { return si(value, tr("B")); }

QString bytesExact(double value)
{
    return tr("%1 (%2 bytes)").arg(bytes(value), integer(std::int64_t(std::llround(value))));
}

QString count(double value)
{
    if (!std::isfinite(value))
        return QStringLiteral("–");
    const double magnitude = std::fabs(value);
    // The convention of model cards and papers (7B, 15T tokens), translatable as a whole.
    struct Step {
        double factor;
        const char *format;
    };
    static constexpr Step kSteps[] = {
        {1e12, QT_TRANSLATE_NOOP("lse::gui::format", "%1 T")},
        {1e9, QT_TRANSLATE_NOOP("lse::gui::format", "%1 B")},
        {1e6, QT_TRANSLATE_NOOP("lse::gui::format", "%1 M")},
        {1e3, QT_TRANSLATE_NOOP("lse::gui::format", "%1 k")},
    };
    for (const Step &step : kSteps) {
        if (magnitude >= step.factor) {
            const double scaled = value / step.factor;
            return tr(step.format).arg(decimal(scaled, decimalsFor(std::fabs(scaled), 3)));
        }
    }
    if (value == std::round(value))
        return decimal(value, 0);
    return QLocale().toString(value, 'g', 3);
}

QString percent(double fraction, int decimals) { return tr("%1 %").arg(decimal(fraction * 100.0, decimals)); }

QString days(double value)
{
    if (!std::isfinite(value))
        return QStringLiteral("–");
    // Whole days once the answer is weeks long; a decimal or two for short runs.
    if (value < 1)
        return QLocale().toString(value, 'g', 3);
    return decimal(value, value >= 100 ? 0 : 1);
}

QString money(double value)
{
    if (!std::isfinite(value))
        return QStringLiteral("–");
    return value >= 1e6 ? count(value) : decimal(value, value >= 100 ? 0 : 2);
}

QString scientific(double value, int significant)
{
    if (!std::isfinite(value) || value == 0)
        return decimal(value, 0);
    const int exponent = int(std::floor(std::log10(std::fabs(value))));
    const double mantissa = value / std::pow(10.0, exponent);
    if (exponent == 0)
        return decimal(value, significant - 1);
    return QStringLiteral("%1 × 10<sup>%2</sup>").arg(decimal(mantissa, significant - 1)).arg(exponent);
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
