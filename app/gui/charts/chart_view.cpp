// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/chart_view.h"

#include "charts/chart_annotations.h"
#include "charts/chart_layer.h"
#include "charts/chart_palette.h"
#include "charts/height_cached_label.h"
#include "output/output_file.h"

#include <qcustomplot.h>

#include <QAbstractScrollArea>
#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFile>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPageSize>
#include <QPdfWriter>
#include <QStandardPaths>
#include <QSvgGenerator>
#include <QTextDocument>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

namespace lse::gui {

namespace {

// ChartData units stay English (they head CSV columns, which scripts read); tooltips show them
// translated. The list makes lupdate see the words.
const char *const kUnitWords[] = {
    QT_TRANSLATE_NOOP("lse::gui::ChartUnits", "bytes"),     QT_TRANSLATE_NOOP("lse::gui::ChartUnits", "days"),
    QT_TRANSLATE_NOOP("lse::gui::ChartUnits", "tokens"),    QT_TRANSLATE_NOOP("lse::gui::ChartUnits", "GPUs"),
    QT_TRANSLATE_NOOP("lse::gui::ChartUnits", "fraction"),  QT_TRANSLATE_NOOP("lse::gui::ChartUnits", "parameters"),
    QT_TRANSLATE_NOOP("lse::gui::ChartUnits", "FLOP"),
};

QString displayUnit(const QString &unit)
{
    for (const char *word : kUnitWords)
        if (unit == QLatin1String(word))
            return QCoreApplication::translate("lse::gui::ChartUnits", word);
    return unit;
}


// Modest, because presentation mode also enlarges the application font (x1.5) that charts start from.
constexpr double kPresentationFontScale = 1.15;
constexpr double kPresentationPenScale = 2.0;
constexpr double kLineWidth = 2.0;
constexpr double kMarkerSize = 14.0;
// Lines with at most this many points also get dots, so sparse data shows where it was sampled.
constexpr int kDotsUpTo = 16;
constexpr double kHoverPixels = 8.0;
constexpr double kClipboardScale = 2.0;
// A plot squeezed below this is too small to be a useful figure; export at the fallback size.
constexpr int kMinExportWidth = 200;
constexpr int kMinExportHeight = 120;
const QSize kFallbackExportSize(800, 500);
// Widest a legend beside the plot may be, as a share of the chart width; wider ones go below.
constexpr double kMaxSideLegendShare = 0.3;
// Height the data area keeps when a legend sits below the plot (before presentation scaling);
// the view grows beyond the page's minimum height rather than squeeze legend or data.
constexpr int kMinDataAreaHeight = 140;

void setError(QString *error, const QString &message) {
    if (error)
        *error = message;
}

QString nativePath(const QString &path) {
    return QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath());
}

// Checked up front so the message can say *why* (the writers themselves only report failure).
bool checkTarget(const QString &path, QString *error) {
    if (path.trimmed().isEmpty()) {
        setError(error, QCoreApplication::translate("lse::gui::ChartView", "No file name was given for the export."));
        return false;
    }
    const QFileInfo file(path);
    const QString dir = file.absolutePath();
    const QFileInfo dirInfo(dir);
    if (!dirInfo.exists() || !dirInfo.isDir()) {
        setError(error,
                 QCoreApplication::translate("lse::gui::ChartView", "Cannot write %1: the folder %2 does not exist.")
                     .arg(nativePath(path), QDir::toNativeSeparators(dir)));
        return false;
    }
    if (!dirInfo.isWritable()) {
        setError(error,
                 QCoreApplication::translate("lse::gui::ChartView", "Cannot write %1: the folder %2 is not writable.")
                     .arg(nativePath(path), QDir::toNativeSeparators(dir)));
        return false;
    }
    if (file.isDir()) {
        setError(error, QCoreApplication::translate("lse::gui::ChartView", "Cannot write %1: it is a folder.")
                            .arg(nativePath(path)));
        return false;
    }
    if (file.exists() && !file.isWritable()) {
        setError(error, QCoreApplication::translate("lse::gui::ChartView", "Cannot write %1: the file is read-only.")
                            .arg(nativePath(path)));
        return false;
    }
    return true;
}

QString withUnit(const QString &label, const QString &unit) {
    return unit.isEmpty() ? label : QStringLiteral("%1 [%2]").arg(label, unit);
}

QString csvField(const QString &text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')) &&
        !text.contains(QLatin1Char('\r')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

// Shortest text that reads back to the same double: the CSV promises exactly the data's numbers.
QString exactNumber(double value) {
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

QString localeExactNumber(double value) {
    return QLocale().toString(value, 'g', QLocale::FloatingPointShortest);
}

QString asHtml(const QString &text) {
    return Qt::mightBeRichText(text) ? text : text.toHtmlEscaped();
}

QFont scaledFont(QFont font, double factor) {
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, qRound(font.pixelSize() * factor)));
    return font;
}

QString seriesName(const ChartSeries &series, qsizetype index) {
    if (!series.name.isEmpty())
        return series.name;
    return QCoreApplication::translate("lse::gui::ChartView", "Series %1").arg(index + 1);
}

// Returns the category label when `x` is an integral index into `categories`.
QString categoryAt(const QStringList &categories, double x) {
    if (categories.isEmpty() || !std::isfinite(x) || x != std::round(x))
        return {};
    const auto i = static_cast<qsizetype>(x);
    return i >= 0 && i < categories.size() ? categories.at(i) : QString();
}

// Greedy word wrap for the title (QCPTextElement draws '\n' but never wraps). Runs without spaces
// wider than a line, e.g. Chinese, break between characters.
QString wrapText(const QString &text, const QFont &font, int width) {
    const QFontMetricsF metrics(font);
    if (width <= 0 || metrics.horizontalAdvance(text) <= width)
        return text;
    QStringList lines;
    QString line;
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (metrics.horizontalAdvance(candidate) <= width) {
            line = candidate;
            continue;
        }
        if (!line.isEmpty())
            lines << line;
        line.clear();
        if (metrics.horizontalAdvance(word) <= width) {
            line = word;
            continue;
        }
        for (qsizetype i = 0; i < word.size(); ++i) {
            const qsizetype length = word.at(i).isHighSurrogate() && i + 1 < word.size() ? 2 : 1;
            const QString glyph = word.mid(i, length);
            if (!line.isEmpty() && metrics.horizontalAdvance(line + glyph) > width) {
                lines << line;
                line.clear();
            }
            line += glyph;
            i += length - 1;
        }
    }
    if (!line.isEmpty())
        lines << line;
    return lines.join(QLatin1Char('\n'));
}

bool insideScrollArea(const QWidget *widget) {
    for (const QWidget *w = widget->parentWidget(); w; w = w->parentWidget()) {
        if (qobject_cast<const QAbstractScrollArea *>(w))
            return true;
    }
    return false;
}

void padRange(QCPAxis *axis, double lowerFraction, double upperFraction) {
    QCPRange range = axis->range();
    if (axis->scaleType() == QCPAxis::stLogarithmic && range.lower > 0 && range.upper > 0) {
        const double span = std::log10(range.upper / range.lower);
        range.lower /= std::pow(10.0, span * lowerFraction);
        range.upper *= std::pow(10.0, span * upperFraction);
    } else {
        const double span = range.size();
        range.lower -= span * lowerFraction;
        range.upper += span * upperFraction;
    }
    axis->setRange(range);
}

}  // namespace

class ChartView::Private {
public:
    // Where a plottable's data came from: container index i holds series point order[i], since
    // QCustomPlot keeps data sorted by key.
    struct PlotRef {
        QCPAbstractPlottable *plottable = nullptr;
        qsizetype series = -1;
        QVector<qsizetype> order;
        QStringList coincides_with;  // lines drawn on the same points (markCoincidentLines)
    };

    // Routes the plot's hover, tooltip and wheel events without widening ChartView's interface.
    class PlotFilter : public QObject {
    public:
        PlotFilter(Private *owner, QObject *parent) : QObject(parent), d_(owner) {}
        bool eventFilter(QObject *watched, QEvent *event) override;

    private:
        Private *d_;
    };

    enum class LegendPlace { Inside, Right, Below };

    explicit Private(ChartView *owner) : q(owner) {}

    ChartView *q;
    QString id;
    ChartData data;
    QCustomPlot *plot = nullptr;
    QObject *plotFilter = nullptr;
    QLabel *formulaLabel = nullptr;
    QToolButton *exportButton = nullptr;
    QToolButton *copyButton = nullptr;
    QToolButton *formulaButton = nullptr;
    QMenu *exportMenu = nullptr;
    QAction *pngAction = nullptr;
    QAction *pdfAction = nullptr;
    QAction *svgAction = nullptr;
    QAction *csvAction = nullptr;
    QAction *copyAction = nullptr;
    QAction *formulaAction = nullptr;
    QAction *resetAction = nullptr;
    QCPTextElement *title = nullptr;
    QCPBarsGroup *barsGroup = nullptr;
    QCPLayoutGrid *legendBox = nullptr;  // holds the legend while it sits outside the axis rect
    LegendPlace legendPlace = LegendPlace::Inside;
    int legendColumns = 1;
    int requestedMinimumHeight = 0;  // the page's, see ChartView::setMinimumHeight
    QVector<PlotRef> refs;
    AnnotationItems annotations;
    QCPRange homeX;
    QCPRange homeY;
    bool built = false;
    // Until the plot has been on screen its size is just the minimum, not what a user would expect.
    bool everShown = false;
    bool presentation = false;
    bool formulaWanted = true;
    bool hasFormula = false;
    bool replotOnPaint = false;   // see requestReplot(); done by flushDeferred()
    bool rebuildOnPaint = false;  // see ChartView::setData(); done by flushDeferred()
    QString hoverKey;

    double fontScale() const { return presentation ? kPresentationFontScale : 1.0; }
    double penScale() const { return presentation ? kPresentationPenScale : 1.0; }

    void setupUi();
    void retranslate();
    void rebuild(bool keepView);
    void setupAxis(QCPAxis *axis, bool log, const QStringList &categories);
    void addSeries(qsizetype index, const QColor &color, std::map<int, QCPBars *> &stackTops, int &columns);
    void sizeBars(int columns);
    QCPItemText *addReferenceLine(const ReferenceLine &line);
    void markCoincidentLines();
    void fitRanges();
    void style();
    QSize figureSize() const;
    void fitLayout(const QSize &size);
    void placeLegend(LegendPlace place, int columns);
    void updateFormula();
    void resetView();
    void requestReplot();
    bool outOfView() const { return q->isVisible() && q->visibleRegion().isEmpty(); }
    enum class Flush { Build, BuildAndReplot };
    void flushDeferred(Flush what);
    QString hoverText(const QPointF &pos, QString *key) const;
    QString describePoint(qsizetype refIndex, qsizetype containerIndex, QString *key) const;
    void onMouseMove(QMouseEvent *event);
    void showContextMenu(const QPoint &pos);
    void exportInteractive(const QString &suffix);
};

bool ChartView::Private::PlotFilter::eventFilter(QObject *watched, QEvent *event) {
    switch (event->type()) {
    case QEvent::ToolTip: {
        // While a data point is hovered its tooltip wins over the plot's formula summary.
        auto *help = static_cast<QHelpEvent *>(event);
        QString key;
        const QString text = d_->hoverText(help->pos(), &key);
        if (!text.isEmpty()) {
            QToolTip::showText(help->globalPos(), text, d_->plot);
            d_->hoverKey = key;
            return true;
        }
        break;
    }
    case QEvent::Show:
        d_->everShown = true;
        break;
    case QEvent::Paint:
        // Back on screen after changes made while scrolled out of view (setData, requestReplot):
        // the chart is built and its buffers drawn now, before it paints. The ChartView itself
        // paints before its plot and formula panel, whichever of them comes into view.
        d_->flushDeferred(Flush::BuildAndReplot);
        break;
    case QEvent::Leave:
        if (!d_->hoverKey.isEmpty()) {
            d_->hoverKey.clear();
            QToolTip::hideText();
        }
        break;
    case QEvent::Wheel: {
        // Inside a scrolling page a plain wheel scrolls the page; Ctrl+wheel zooms the chart.
        auto *wheel = static_cast<QWheelEvent *>(event);
        if (!(wheel->modifiers() & Qt::ControlModifier) && insideScrollArea(d_->plot)) {
            wheel->ignore();
            return true;
        }
        break;
    }
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

void ChartView::Private::setupUi() {
    auto *layout = new QVBoxLayout(q);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);

    pngAction = new QAction(q);
    pdfAction = new QAction(q);
    svgAction = new QAction(q);
    csvAction = new QAction(q);
    copyAction = new QAction(q);
    formulaAction = new QAction(q);
    formulaAction->setCheckable(true);
    formulaAction->setChecked(formulaWanted);
    resetAction = new QAction(q);
    QObject::connect(pngAction, &QAction::triggered, q, [this] { exportInteractive(QStringLiteral("png")); });
    QObject::connect(pdfAction, &QAction::triggered, q, [this] { exportInteractive(QStringLiteral("pdf")); });
    QObject::connect(svgAction, &QAction::triggered, q, [this] { exportInteractive(QStringLiteral("svg")); });
    QObject::connect(csvAction, &QAction::triggered, q, [this] { exportInteractive(QStringLiteral("csv")); });
    QObject::connect(copyAction, &QAction::triggered, q, [this] { q->copyToClipboard(); });
    QObject::connect(formulaAction, &QAction::toggled, q, [this](bool on) { q->setFormulaVisible(on); });
    QObject::connect(resetAction, &QAction::triggered, q, [this] { resetView(); });

    exportMenu = new QMenu(q);
    exportMenu->addAction(pngAction);
    exportMenu->addAction(pdfAction);
    exportMenu->addAction(svgAction);
    exportMenu->addAction(csvAction);

    auto *toolbar = new QHBoxLayout;
    toolbar->setContentsMargins(0, 0, 0, 0);
    toolbar->setSpacing(2);
    toolbar->addStretch(1);
    exportButton = new QToolButton(q);
    exportButton->setMenu(exportMenu);
    exportButton->setPopupMode(QToolButton::InstantPopup);
    copyButton = new QToolButton(q);
    copyButton->setDefaultAction(copyAction);
    formulaButton = new QToolButton(q);
    formulaButton->setDefaultAction(formulaAction);
    for (QToolButton *button : {exportButton, copyButton, formulaButton}) {
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        button->setAutoRaise(true);
        toolbar->addWidget(button);
    }
    layout->addLayout(toolbar);

    plot = new QCustomPlot(q);
    // Rectangle labels are shown only where they fit, which is known once the axes are laid out.
    QObject::connect(plot, &QCustomPlot::afterLayout, q, [this] { fitAnnotationLabels(plot, data, annotations); });
    plot->setObjectName(QStringLiteral("chartPlot"));
    // Tick labels in the C locale with group separators: QCustomPlot draws powers of ten (10³)
    // only from a lowercase 'e', which locales such as en_US and zh_CN write as 'E'.
    QLocale tick_locale = QLocale::c();
    tick_locale.setNumberOptions(QLocale::DefaultNumberOptions);
    plot->setLocale(tick_locale);
    plot->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    plot->setMinimumSize(240, 160);
    plot->setMouseTracking(true);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->setAntialiasedElements(QCP::aeAll);
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    plotFilter = new PlotFilter(this, q);
    plot->installEventFilter(plotFilter);
    q->installEventFilter(plotFilter);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(plot, 1);

    formulaLabel = new HeightCachedLabel(q);  // re-measured on every layout pass otherwise
    formulaLabel->setObjectName(QStringLiteral("chartFormula"));
    formulaLabel->setTextFormat(Qt::RichText);
    formulaLabel->setWordWrap(true);
    formulaLabel->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    formulaLabel->setOpenExternalLinks(true);
    formulaLabel->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    formulaLabel->setContentsMargins(4, 2, 4, 2);
    formulaLabel->setVisible(false);
    layout->addWidget(formulaLabel);

    QObject::connect(plot, &QCustomPlot::mouseMove, q, [this](QMouseEvent *event) { onMouseMove(event); });
    QObject::connect(plot, &QCustomPlot::mouseDoubleClick, q, [this](QMouseEvent *) { resetView(); });
    QObject::connect(plot, &QCustomPlot::beforeReplot, q, [this] { fitLayout(figureSize()); });
    QObject::connect(plot, &QWidget::customContextMenuRequested, q,
                     [this](const QPoint &pos) { showContextMenu(pos); });

    retranslate();
}

void ChartView::Private::retranslate() {
    pngAction->setText(QCoreApplication::translate("lse::gui::ChartView", "PNG image…"));
    pdfAction->setText(QCoreApplication::translate("lse::gui::ChartView", "PDF document…"));
    svgAction->setText(QCoreApplication::translate("lse::gui::ChartView", "SVG vector image…"));
    csvAction->setText(QCoreApplication::translate("lse::gui::ChartView", "CSV data…"));
    copyAction->setText(QCoreApplication::translate("lse::gui::ChartView", "Copy"));
    copyAction->setToolTip(QCoreApplication::translate("lse::gui::ChartView",
                                                       "Copy the chart image (and its data as CSV) to the clipboard"));
    formulaAction->setText(QCoreApplication::translate("lse::gui::ChartView", "ƒ Formula"));
    formulaAction->setToolTip(QCoreApplication::translate(
        "lse::gui::ChartView", "Show or hide the inputs, formula and source behind this chart"));
    resetAction->setText(QCoreApplication::translate("lse::gui::ChartView", "Reset view"));
    exportMenu->setTitle(QCoreApplication::translate("lse::gui::ChartView", "Export"));
    exportButton->setText(QCoreApplication::translate("lse::gui::ChartView", "Export"));
    exportButton->setToolTip(
        QCoreApplication::translate("lse::gui::ChartView", "Save this chart as PNG, PDF, SVG or CSV"));
    updateFormula();
}

void ChartView::Private::setupAxis(QCPAxis *axis, bool log, const QStringList &categories) {
    axis->setTickLabelRotation(0);
    if (!categories.isEmpty()) {
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        QVector<double> positions;
        QVector<QString> labels;
        for (qsizetype i = 0; i < categories.size(); ++i) {
            positions.append(static_cast<double>(i));
            labels.append(categories.at(i));
        }
        ticker->setTicks(positions, labels);
        ticker->setSubTickCount(0);
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(ticker);
        axis->setSubTicks(false);
        axis->grid()->setVisible(false);
    } else if (log) {
        auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
        ticker->setLogBase(10.0);
        ticker->setSubTickCount(8);
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(ticker);
        axis->setNumberFormat(QStringLiteral("eb"));
        axis->setNumberPrecision(0);
        axis->setSubTicks(true);
        axis->grid()->setVisible(true);
    } else {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        axis->setNumberFormat(QStringLiteral("gbd"));
        axis->setNumberPrecision(6);
        axis->setSubTicks(true);
        axis->grid()->setVisible(true);
    }
}

void ChartView::Private::addSeries(qsizetype index, const QColor &color, std::map<int, QCPBars *> &stackTops,
                                   int &columns) {
    const ChartSeries &series = data.series.at(index);
    const qsizetype n = std::min(series.x.size(), series.y.size());
    PlotRef ref;
    ref.series = index;
    for (qsizetype i = 0; i < n; ++i) {
        if (!std::isnan(series.x.at(i)))
            ref.order.append(i);
    }
    std::stable_sort(ref.order.begin(), ref.order.end(),
                     [&series](qsizetype a, qsizetype b) { return series.x.at(a) < series.x.at(b); });
    QVector<double> keys;
    QVector<double> values;
    keys.reserve(ref.order.size());
    values.reserve(ref.order.size());
    for (qsizetype i : ref.order) {
        keys.append(series.x.at(i));
        values.append(series.y.at(i) * data.y_display_scale);
    }

    const double pens = penScale();
    const QPalette palette = q->palette();
    if (series.kind == ChartSeries::Kind::Bar) {
        auto *bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setData(keys, values, true);
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(140), pens));
        if (series.stack_group >= 0) {
            auto top = stackTops.find(series.stack_group);
            if (top != stackTops.end())
                bars->moveAbove(top->second);
            else
                ++columns;
            stackTops[series.stack_group] = bars;
        } else {
            ++columns;
        }
        ref.plottable = bars;
    } else {
        QCPGraph *graph = plot->addGraph(plot->xAxis, plot->yAxis);
        graph->setData(keys, values, true);
        if (series.kind == ChartSeries::Kind::Marker) {
            graph->setLineStyle(QCPGraph::lsNone);
            // A halo in the background colour keeps the marker readable on top of a line; small
            // dots of a dense cloud get a thin one so their colour still shows.
            const bool small = series.marker_size > 0 && series.marker_size < kMarkerSize;
            if (series.hollow)  // a ring in the series' colour: a second marker style beside the discs
                graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(color, 2.0 * pens),
                                                       QBrush(palette.color(QPalette::Base)),
                                                       (small ? series.marker_size : kMarkerSize) * fontScale()));
            else
                graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle,
                                                       QPen(palette.color(QPalette::Base), (small ? 0.5 : 2.0) * pens),
                                                       QBrush(color),
                                                       (small ? series.marker_size : kMarkerSize) * fontScale()));
            graph->setPen(QPen(color, kLineWidth * pens));
        } else {
            QPen pen(color, kLineWidth * pens, series.dashed ? Qt::DashLine : Qt::SolidLine, Qt::RoundCap,
                     Qt::RoundJoin);
            graph->setPen(pen);
            graph->setLineStyle(QCPGraph::lsLine);
            if (keys.size() <= kDotsUpTo)
                graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 2.0 * kLineWidth * pens));
        }
        ref.plottable = graph;
    }
    ref.plottable->setName(seriesName(series, index));
    refs.append(ref);
}

void ChartView::Private::sizeBars(int columns) {
    QVector<QCPBars *> bars;
    std::vector<double> keys;
    for (const PlotRef &ref : std::as_const(refs)) {
        if (auto *b = qobject_cast<QCPBars *>(ref.plottable)) {
            bars.append(b);
            for (auto it = b->data()->constBegin(); it != b->data()->constEnd(); ++it)
                keys.push_back(it->key);
        }
    }
    if (bars.isEmpty())
        return;
    columns = std::max(columns, 1);
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    const bool logKeys = data.categories.isEmpty() && data.log_x;
    double spacing = 1.0;
    if (data.categories.isEmpty() && !logKeys && keys.size() > 1) {
        spacing = std::numeric_limits<double>::infinity();
        for (std::size_t i = 1; i < keys.size(); ++i)
            spacing = std::min(spacing, keys[i] - keys[i - 1]);
    }
    for (QCPBars *b : std::as_const(bars)) {
        if (logKeys) {
            // Key units are meaningless on a log axis, so size relative to the axis rect instead.
            b->setWidthType(QCPBars::wtAxisRectRatio);
            b->setWidth(0.8 /
                        static_cast<double>(std::max<std::size_t>(keys.size(), 1) * static_cast<std::size_t>(columns)));
        } else {
            b->setWidthType(QCPBars::wtPlotCoords);
            b->setWidth(0.8 * spacing / columns);
        }
    }
    if (columns > 1) {
        barsGroup = new QCPBarsGroup(plot);
        barsGroup->setSpacingType(QCPBarsGroup::stAbsolute);
        barsGroup->setSpacing(2.0);
        for (QCPBars *b : std::as_const(bars))
            b->setBarsGroup(barsGroup);
    }
}

// Two lines over the same points look like one: the one drawn first disappears under the other
// (Memory's "No recomputation, FlashAttention on" under "Selective", which store the same bytes
// with FlashAttention). The later line is drawn with short dashes and hollow rings, so the earlier
// one shows through its gaps, and both tooltips name the other.
void ChartView::Private::markCoincidentLines() {
    // Visually one line: every point within this fraction of the larger value.
    constexpr double kSameFraction = 0.005;
    const auto sameLine = [&](const PlotRef &a, const PlotRef &b) {
        const ChartSeries &sa = data.series.at(a.series);
        const ChartSeries &sb = data.series.at(b.series);
        if (a.order.size() < 2 || a.order.size() != b.order.size())
            return false;
        for (qsizetype i = 0; i < a.order.size(); ++i) {
            const double xa = sa.x.at(a.order.at(i)), xb = sb.x.at(b.order.at(i));
            const double ya = sa.y.at(a.order.at(i)), yb = sb.y.at(b.order.at(i));
            if (xa != xb || !std::isfinite(ya) || !std::isfinite(yb))
                return false;
            if (std::abs(ya - yb) > kSameFraction * std::max(std::abs(ya), std::abs(yb)))
                return false;
        }
        return true;
    };
    const double pens = penScale();
    for (qsizetype later = 1; later < refs.size(); ++later) {
        if (data.series.at(refs[later].series).kind != ChartSeries::Kind::Line)
            continue;
        for (qsizetype earlier = 0; earlier < later; ++earlier) {
            if (data.series.at(refs[earlier].series).kind != ChartSeries::Kind::Line
                || !sameLine(refs[earlier], refs[later]))
                continue;
            refs[later].coincides_with << seriesName(data.series.at(refs[earlier].series), refs[earlier].series);
            refs[earlier].coincides_with << seriesName(data.series.at(refs[later].series), refs[later].series);
            auto *graph = qobject_cast<QCPGraph *>(refs[later].plottable);
            if (!graph || graph->pen().style() == Qt::CustomDashLine)
                continue;
            QPen pen = graph->pen();
            pen.setDashPattern({3.0, 3.0});  // in pen widths: the line below shows in every gap
            pen.setCapStyle(Qt::FlatCap);
            graph->setPen(pen);
            if (refs[later].order.size() <= kDotsUpTo)
                graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(pen.color(), kLineWidth * pens),
                                                       Qt::NoBrush, 4.0 * kLineWidth * pens));
        }
    }
}

// Returns the line's label (null when it has none) so the label can be kept clear of others.
QCPItemText *ChartView::Private::addReferenceLine(const ReferenceLine &line) {
    const QPalette palette = q->palette();
    const QColor color = line.color.isValid() ? line.color : chartReferenceColor(palette);
    const double y = line.y * data.y_display_scale;
    // Horizontal extent in axis-rect ratios so the line spans any x range, including log axes.
    auto *straight = new QCPItemStraightLine(plot);
    straight->point1->setTypeX(QCPItemPosition::ptAxisRectRatio);
    straight->point2->setTypeX(QCPItemPosition::ptAxisRectRatio);
    straight->point1->setCoords(0.0, y);
    straight->point2->setCoords(1.0, y);
    straight->setPen(QPen(color, 1.5 * penScale(), Qt::DashLine));
    if (line.label.isEmpty())
        return nullptr;
    auto *text = new QCPItemText(plot);
    text->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(0.99, y);
    text->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    text->setText(line.label);
    text->setColor(color);
    text->setFont(scaledFont(q->font(), 0.9 * fontScale()));
    text->setPadding(QMargins(2, 0, 2, 2));
    return text;
}

void ChartView::Private::fitRanges() {
    bool hasBars = false;
    bool hasMarkers = false;
    bool anyData = false;
    double minY = std::numeric_limits<double>::infinity();
    for (const PlotRef &ref : std::as_const(refs)) {
        const ChartSeries &series = data.series.at(ref.series);
        hasBars = hasBars || series.kind == ChartSeries::Kind::Bar;
        hasMarkers = hasMarkers || series.kind == ChartSeries::Kind::Marker;
        for (qsizetype i : ref.order) {
            const double y = series.y.at(i) * data.y_display_scale;
            if (std::isfinite(y)) {
                anyData = true;
                minY = std::min(minY, y);
            }
        }
    }
    const bool logY = data.log_y;
    const bool diagram = data.series.isEmpty()
        && (!data.rects.isEmpty() || !data.arrows.isEmpty() || !data.texts.isEmpty() || data.layer);
    if (anyData) {
        plot->rescaleAxes();
    } else if (!diagram) {
        plot->xAxis->setRange(data.log_x ? QCPRange(1, 10) : QCPRange(0, 1));
        plot->yAxis->setRange(logY ? QCPRange(1, 10) : QCPRange(0, 1));
    }
    {
        QCPRange x = plot->xAxis->range();
        QCPRange y = plot->yAxis->range();
        bool any = anyData;
        expandRangesForAnnotations(data, x, y, any);
        QCPRange layerX, layerY;
        if (data.layer && data.layer->ranges(layerX, layerY)) {
            if (!any) {
                x = layerX;
                y = layerY;
            } else {
                x.expand(layerX);
                y.expand(layerY);
            }
            any = true;
        }
        plot->xAxis->setRange(x);
        plot->yAxis->setRange(y);
    }
    if (diagram) {
        // A diagram keeps its own geometry: a small margin, no zero baseline.
        padRange(plot->xAxis, 0.02, 0.02);
        if (data.y_categories.isEmpty())
            padRange(plot->yAxis, 0.04, 0.04);
        else
            plot->yAxis->setRange(-0.5, static_cast<double>(data.y_categories.size()) - 0.5);
        homeX = plot->xAxis->range();
        homeY = plot->yAxis->range();
        return;
    }

    QCPRange y = plot->yAxis->range();
    for (const ReferenceLine &line : std::as_const(data.reference_lines)) {
        const double v = line.y * data.y_display_scale;
        if (!std::isfinite(v) || (logY && v <= 0))
            continue;
        if (!anyData) {
            y = QCPRange(v, v);
            anyData = true;
        }
        y.expand(v);
        // Headroom so the line's label, drawn above it, stays inside the plot.
        y.expand(logY ? v * 1.6 : v + 0.12 * std::abs(v));
        minY = std::min(minY, v);
    }
    if (y.size() == 0) {
        const double half = y.lower != 0 ? std::abs(y.lower) * 0.5 : 0.5;
        y = logY ? QCPRange(y.lower / 2, y.upper * 2) : QCPRange(y.lower - half, y.upper + half);
    }
    plot->yAxis->setRange(y);
    // Magnitudes (bytes, FLOP, days) read honestly from a zero baseline.
    if (!logY && minY >= 0) {
        plot->yAxis->setRangeLower(0);
        padRange(plot->yAxis, 0.0, 0.08);
    } else {
        padRange(plot->yAxis, 0.05, 0.08);
    }

    if (!data.y_categories.isEmpty())
        plot->yAxis->setRange(-0.5, static_cast<double>(data.y_categories.size()) - 0.5);
    if (!data.categories.isEmpty()) {
        plot->xAxis->setRange(-0.5, static_cast<double>(data.categories.size()) - 0.5);
    } else if (hasMarkers || hasBars) {
        padRange(plot->xAxis, 0.03, 0.03);
    }
    homeX = plot->xAxis->range();
    homeY = plot->yAxis->range();
}

void ChartView::Private::rebuild(bool keepView) {
    const QCPRange oldX = plot->xAxis->range();
    const QCPRange oldY = plot->yAxis->range();
    const bool restore = keepView && built && (oldX != homeX || oldY != homeY);

    refs.clear();
    hoverKey.clear();
    plot->clearPlottables();
    plot->clearItems();
    delete barsGroup;
    barsGroup = nullptr;

    setupAxis(plot->xAxis, data.log_x, data.categories);
    setupAxis(plot->yAxis, data.log_y, data.y_categories);
    plot->yAxis->setRangeReversed(data.y_reversed);
    plot->xAxis->setVisible(data.show_axes);
    plot->yAxis->setVisible(data.show_axes);
    plot->xAxis->setLabel(data.x_label);
    plot->yAxis->setLabel(data.y_label);

    if (!data.title.isEmpty()) {
        if (!title) {
            plot->plotLayout()->insertRow(0);
            title = new QCPTextElement(plot, data.title, q->font());
            plot->plotLayout()->addElement(0, 0, title);
        }
        title->setText(data.title);
    } else if (title) {
        plot->plotLayout()->remove(title);
        plot->plotLayout()->simplify();
        title = nullptr;
    }

    const QPalette palette = q->palette();
    std::map<int, QCPBars *> stackTops;
    int columns = 0;
    int autoColor = 0;
    for (qsizetype i = 0; i < data.series.size(); ++i) {
        const QColor &given = data.series.at(i).color;
        addSeries(i, given.isValid() ? given : chartSeriesColor(autoColor++, palette), stackTops, columns);
    }
    sizeBars(columns);
    markCoincidentLines();
    QVector<QCPItemText *> referenceLabels;
    for (const ReferenceLine &line : std::as_const(data.reference_lines))
        if (QCPItemText *label = addReferenceLine(line))
            referenceLabels.append(label);
    annotations = addAnnotations(plot, data, {q->palette(), q->font(), fontScale(), penScale()});
    annotations.reference_labels = referenceLabels;
    if (data.layer)
        data.layer->addTo(plot, q->palette(), penScale());
    plot->legend->setVisible(plot->plottableCount() > 1);

    style();
    fitRanges();
    if (restore) {
        plot->xAxis->setRange(oldX);
        plot->yAxis->setRange(oldY);
    }
    fitLayout(figureSize());
    updateFormula();
    built = true;
}

void ChartView::Private::style() {
    const QPalette palette = q->palette();
    const QColor background = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const double fonts = fontScale();
    const double pens = penScale();
    const QFont base = q->font();

    plot->setBackground(background);
    plot->axisRect()->setBackground(Qt::NoBrush);
    const QPen axisPen(text, pens);
    // Grid lines stay thin in presentation mode: thicker ones would compete with the data.
    const QPen gridPen(blendColors(background, text, 0.18), 1.0, Qt::SolidLine);
    const QPen subGridPen(blendColors(background, text, 0.08), 1.0, Qt::DotLine);
    const QPen zeroPen(blendColors(background, text, 0.4), 1.0);
    for (QCPAxis *axis : plot->axisRect()->axes()) {
        axis->setBasePen(axisPen);
        axis->setTickPen(axisPen);
        axis->setSubTickPen(axisPen);
        axis->setLabelColor(text);
        axis->setTickLabelColor(text);
        axis->setLabelFont(scaledFont(base, fonts));
        axis->setTickLabelFont(scaledFont(base, fonts));
        axis->setTickLengthOut(0);
        axis->grid()->setPen(gridPen);
        axis->grid()->setSubGridPen(subGridPen);
        axis->grid()->setZeroLinePen(zeroPen);
        axis->grid()->setSubGridVisible(axis->scaleType() == QCPAxis::stLogarithmic);
    }

    QColor legendFill = background;
    legendFill.setAlpha(210);
    plot->legend->setBrush(legendFill);
    plot->legend->setBorderPen(QPen(blendColors(background, text, 0.3), pens));
    plot->legend->setTextColor(text);
    plot->legend->setFont(scaledFont(base, 0.95 * fonts));
    plot->legend->setIconSize(qRound(28 * fonts), qRound(14 * fonts));

    if (title) {
        QFont titleFont = scaledFont(base, 1.25 * fonts);
        titleFont.setBold(true);
        title->setFont(titleFont);
        title->setTextColor(text);
    }
}

QSize ChartView::Private::figureSize() const {
    const QSize size = plot->size();
    if (!everShown || size.width() < kMinExportWidth || size.height() < kMinExportHeight)
        return kFallbackExportSize;
    return size;
}

// Size-dependent layout, redone before every replot and export: title wrapping, category label
// rotation and whether the legend fits inside the axis rect.
void ChartView::Private::fitLayout(const QSize &size) {
    int rotatedLabelsHeight = 0;  // what -30° category labels add below the axis
    if (data.categories.isEmpty()) {
        plot->xAxis->setTickLabelRotation(0);
    } else {
        const QFontMetrics metrics(plot->xAxis->tickLabelFont());
        int widest = 0;
        for (const QString &label : std::as_const(data.categories))
            widest = std::max(widest, metrics.horizontalAdvance(label));
        const double slot = 0.85 * size.width() / static_cast<double>(data.categories.size());
        const bool rotate = widest + 8 > slot;
        plot->xAxis->setTickLabelRotation(rotate ? -30.0 : 0.0);
        // sin 30° of the widest label plus cos 30° of its height, beyond an unrotated row.
        rotatedLabelsHeight = rotate ? qRound(0.5 * widest - 0.13 * metrics.height()) : 0;
    }

    // Fewer ticks on short axes, so labels (larger in presentation mode) never run into each
    // other; the text ticker of category axes has a tick per category and is left alone.
    const QFontMetricsF tickMetrics(plot->yAxis->tickLabelFont());
    const double axisHeight = std::max(1.0, size.height() - 80.0 * fontScale());
    const double axisWidth = std::max(1.0, size.width() - 100.0 * fontScale());
    const auto tickCount = [](double length, double perTick) {
        return std::clamp(static_cast<int>(length / perTick), 2, 6);
    };
    if (!plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>())
        plot->yAxis->ticker()->setTickCount(tickCount(axisHeight, 3.0 * tickMetrics.height()));
    if (!plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>())
        plot->xAxis->ticker()->setTickCount(tickCount(axisWidth, 9.0 * tickMetrics.averageCharWidth()));

    // Legend: outside the axis rect, so it never hides data (an inside legend covered points
    // and bars on several pages). Below the plot in columns when that takes at most two rows,
    // otherwise beside it when narrow enough, otherwise below in as many rows as needed. Sizes are
    // measured as a single column, so the choice does not depend on where the legend currently is.
    QCPLegend *legend = plot->legend;
    LegendPlace place = LegendPlace::Inside;  // only while the legend is hidden
    int columns = 1;
    int legendWidth = 0;
    int legendHeightBelow = 0;
    if (legend->visible() && legend->itemCount() > 0) {
        int itemWidth = 0;
        int itemHeight = 0;
        int items = 0;
        for (int i = 0; i < legend->itemCount(); ++i) {
            // A legend wrapped into columns has empty grid cells: item(i) is null there.
            const auto *element = static_cast<const QCPLayoutElement *>(legend->item(i));
            if (!element)
                continue;
            itemWidth = std::max(itemWidth, element->minimumOuterSizeHint().width());
            itemHeight = std::max(itemHeight, element->minimumOuterSizeHint().height());
            ++items;
        }
        const QMargins margins = legend->margins();
        legendWidth = itemWidth + margins.left() + margins.right();
        const int perColumn = itemWidth + legend->columnSpacing();
        columns = std::clamp((size.width() - 20 - margins.left() - margins.right()) / std::max(1, perColumn), 1,
                             std::max(1, items));
        const int rows = (items + columns - 1) / columns;
        place = rows <= 2 || legendWidth > kMaxSideLegendShare * size.width() ? LegendPlace::Below
                                                                              : LegendPlace::Right;
        if (place == LegendPlace::Below)
            legendHeightBelow = rows * (itemHeight + legend->rowSpacing()) + margins.top() + margins.bottom() + 6;
    }
    placeLegend(place, columns);

    int titleHeight = 0;
    if (title) {
        const int besideLegend = place == LegendPlace::Right ? legendWidth + 6 : 0;
        title->setText(wrapText(data.title, title->font(), size.width() - besideLegend - 16));
        titleHeight = static_cast<const QCPLayoutElement *>(title)->minimumOuterSizeHint().height();
    }

    // A y-axis label longer than the axis would be cut at both ends ("Percent of the
    // compute-optimal model's figure" on a 250-pixel chart): wrap it to the axis's length.
    // QCustomPlot centres each line of a label.
    const QFontMetrics xTickMetrics(plot->xAxis->tickLabelFont());
    const int xAxisRowsHeight = xTickMetrics.height() + QFontMetrics(plot->xAxis->labelFont()).height()
        + qRound(24 * fontScale());
    const int yAxisLength = size.height() - titleHeight - legendHeightBelow - rotatedLabelsHeight - xAxisRowsHeight - 10;
    plot->yAxis->setLabel(wrapText(data.y_label, plot->yAxis->labelFont(), std::max(60, yAxisLength)));

    // On screen (not for an export at another size), keep room for the axes above a tall legend.
    if (size == plot->size() && q->isVisible()) {
        const int chrome = q->height() - plot->height();  // toolbar and formula panel
        // Below the data: a row of tick labels and the axis label, with their gaps (xAxisRowsHeight).
        const int plotNeeded = titleHeight + legendHeightBelow + rotatedLabelsHeight + xAxisRowsHeight
            + qRound(kMinDataAreaHeight * fontScale()) + 10;
        const int wanted = std::max(requestedMinimumHeight, chrome + plotNeeded);
        if (q->minimumHeight() != wanted) {
            q->QWidget::setMinimumHeight(wanted);
            // This runs inside a replot, which can run inside a layout pass of this view (the
            // plot's resize). A raised minimum resizes the view at once, and the nested pass left
            // the formula panel where the outer pass's plot height overlapped it (seen on ZeRO,
            // Reference run, ablations; test_narrow_window). Lay the view out again afterwards.
            QMetaObject::invokeMethod(
                q, [view = q] { view->layout()->invalidate(); }, Qt::QueuedConnection);
        }
    }
}

void ChartView::Private::placeLegend(LegendPlace place, int columns) {
    if (place == legendPlace && (place != LegendPlace::Below || columns == legendColumns))
        return;
    QCPLegend *legend = plot->legend;
    QCPLayoutGrid *layout = plot->plotLayout();
    if (legendBox) {
        plot->axisRect()->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignLeft);
        layout->remove(legendBox);
        legendBox = nullptr;
        layout->simplify();
    }
    legendPlace = place;
    legendColumns = columns;
    const int axisRow = title ? 1 : 0;
    switch (place) {
    case LegendPlace::Inside:
        legend->setWrap(0);
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
        break;
    case LegendPlace::Right:
        // A column beside the axis rect; the spacer row below keeps the legend at the top.
        legend->setWrap(0);
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
        legendBox = new QCPLayoutGrid;
        layout->addElement(axisRow, 1, legendBox);
        legendBox->addElement(0, 0, legend);
        legendBox->addElement(1, 0, new QCPLayoutElement(plot));
        legendBox->setRowStretchFactor(0, 0.001);
        legendBox->setMargins(QMargins(0, 10, 6, 0));
        layout->setColumnStretchFactor(1, 0.001);
        break;
    case LegendPlace::Below:
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        legendBox = new QCPLayoutGrid;
        layout->addElement(axisRow + 1, 0, legendBox);
        legendBox->addElement(0, 0, legend);
        legendBox->setMargins(QMargins(6, 0, 6, 6));
        layout->setRowStretchFactor(axisRow + 1, 0.001);
        break;
    }
}

void ChartView::Private::updateFormula() {
    const FormulaInfo &f = data.formula;
    QStringList parts;
    const auto add = [&parts](const QString &heading, const QString &body) {
        if (!body.trimmed().isEmpty())
            parts << QStringLiteral("<b>%1</b> %2").arg(heading.toHtmlEscaped(), asHtml(body));
    };
    add(QCoreApplication::translate("lse::gui::ChartView", "Inputs:"), f.inputs);
    add(QCoreApplication::translate("lse::gui::ChartView", "Formula:"), f.formula);
    add(QCoreApplication::translate("lse::gui::ChartView", "Source:"), f.source);
    hasFormula = !parts.isEmpty();
    if (const QString html = parts.join(QStringLiteral("<br>")); html != formulaLabel->text())
        formulaLabel->setText(html);  // setText re-parses and re-lays out even the same text
    formulaLabel->setVisible(hasFormula && formulaWanted);
    formulaAction->setEnabled(hasFormula);

    // The tooltip summarises: the formula and where it comes from, without the (long) inputs.
    QStringList summary;
    if (!f.formula.trimmed().isEmpty())
        summary << asHtml(f.formula);
    if (!f.source.trimmed().isEmpty())
        summary << QStringLiteral("<i>%1</i>").arg(asHtml(f.source));
    plot->setToolTip(summary.isEmpty() ? QString()
                                       : QStringLiteral("<qt>%1</qt>").arg(summary.join(QStringLiteral("<br>"))));
}

void ChartView::Private::resetView() {
    plot->xAxis->setRange(homeX);
    plot->yAxis->setRange(homeY);
    requestReplot();
}

void ChartView::Private::flushDeferred(Flush what) {
    // A reader (plot(), the exports) needs the current data's plottables; a paint also needs the
    // buffers drawn (rpQueuedRefresh), which QCustomPlot then paints in this paint event.
    if (rebuildOnPaint) {
        rebuildOnPaint = false;
        rebuild(false);
        replotOnPaint = true;
        plot->update();  // nothing while out of view; on screen, the replot comes with the paint
    }
    if (what == Flush::BuildAndReplot && replotOnPaint) {
        replotOnPaint = false;
        plot->replot(QCustomPlot::rpQueuedRefresh);
    }
}

void ChartView::Private::requestReplot() {
    // A chart on screen replots when it paints, in the same window repaint as the page's other
    // changes (a queued replot painted the window a second time per edit; bench_gui_footprint);
    // a chart scrolled out of view replots when it comes back. A chart whose window is not shown
    // (tests, screenshots, exports) replots on the next event loop pass, as QCustomPlot does.
    if (plot->isVisible()) {
        replotOnPaint = true;
        plot->update();
        return;
    }
    replotOnPaint = false;
    plot->replot(QCustomPlot::rpQueuedReplot);
}

QString ChartView::Private::describePoint(qsizetype refIndex, qsizetype containerIndex, QString *key) const {
    const PlotRef &ref = refs.at(refIndex);
    if (containerIndex < 0 || containerIndex >= ref.order.size())
        return {};
    const qsizetype point = ref.order.at(containerIndex);
    const ChartSeries &series = data.series.at(ref.series);
    const double x = series.x.at(point);
    const double y = series.y.at(point);

    const auto unitSuffix = [](const QString &label, const QString &raw_unit) {
        const QString unit = displayUnit(raw_unit);
        return unit.isEmpty() || label.contains(unit, Qt::CaseInsensitive) ? QString() : QLatin1Char(' ') + unit;
    };
    const QString xLabel = data.x_label.isEmpty() ? QStringLiteral("x") : data.x_label;
    const QString yLabel = data.y_label.isEmpty() ? QStringLiteral("y") : data.y_label;
    QString xText = categoryAt(data.categories, x);
    if (xText.isEmpty())
        xText = localeExactNumber(x) + unitSuffix(xLabel, data.x_unit);
    QString yText;
    if (data.y_display_scale != 1.0) {
        yText = QStringLiteral("%1 (%2%3)")
                    .arg(QLocale().toString(y * data.y_display_scale, 'g', 6), localeExactNumber(y),
                         data.y_unit.isEmpty() ? QString() : QLatin1Char(' ') + displayUnit(data.y_unit));
    } else {
        yText = localeExactNumber(y) + unitSuffix(yLabel, data.y_unit);
    }

    QStringList lines;
    lines << QStringLiteral("<b>%1</b>").arg(seriesName(series, ref.series).toHtmlEscaped());
    lines << QStringLiteral("%1: %2").arg(xLabel.toHtmlEscaped(), xText.toHtmlEscaped());
    lines << QStringLiteral("%1: %2").arg(yLabel.toHtmlEscaped(), yText.toHtmlEscaped());
    if (series.kind == ChartSeries::Kind::Bar && series.stack_group >= 0) {
        double total = 0;
        int members = 0;
        for (const ChartSeries &other : std::as_const(data.series)) {
            if (other.kind != ChartSeries::Kind::Bar || other.stack_group != series.stack_group)
                continue;
            const qsizetype n = std::min(other.x.size(), other.y.size());
            for (qsizetype i = 0; i < n; ++i) {
                if (other.x.at(i) == x) {
                    total += other.y.at(i);
                    ++members;
                }
            }
        }
        if (members > 1) {
            lines << QCoreApplication::translate("lse::gui::ChartView", "Stack total: %1")
                         .arg(localeExactNumber(total) +
                              (data.y_unit.isEmpty() ? QString() : QLatin1Char(' ') + displayUnit(data.y_unit)))
                         .toHtmlEscaped();
        }
    }
    for (const QString &other : ref.coincides_with)
        lines << QCoreApplication::translate("lse::gui::ChartView",
                                             "Drawn on the same points as “%1” (dashed where one lies on the other)")
                     .arg(other)
                     .toHtmlEscaped();
    QString html = lines.join(QStringLiteral("<br>"));
    QString point_tooltip = point < series.point_tooltips.size() ? series.point_tooltips.at(point) : QString();
    if (point_tooltip.trimmed().isEmpty() && series.point_tooltip)
        point_tooltip = series.point_tooltip(point);
    if (!point_tooltip.trimmed().isEmpty())
        html += QStringLiteral("<hr>") + asHtml(point_tooltip);
    if (key)
        *key = QStringLiteral("%1:%2").arg(refIndex).arg(point);
    return QStringLiteral("<qt>%1</qt>").arg(html);
}

QString ChartView::Private::hoverText(const QPointF &pos, QString *key) const {
    if (!plot->axisRect()->rect().contains(pos.toPoint()))
        return {};
    // Lines and markers: the nearest point in x within a few pixels (then the nearest in y).
    qsizetype bestRef = -1;
    qsizetype bestIndex = -1;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (qsizetype r = 0; r < refs.size(); ++r) {
        auto *graph = qobject_cast<QCPGraph *>(refs.at(r).plottable);
        if (!graph || !graph->visible())
            continue;
        // Anywhere on a marker's disc counts as on it, so the marked scenario wins over a line
        // point underneath it.
        const double radius = graph->lineStyle() == QCPGraph::lsNone ? graph->scatterStyle().size() / 2.0 : 0.0;
        qsizetype index = 0;
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it, ++index) {
            const double px = graph->keyAxis()->coordToPixel(it->key);
            const double py = graph->valueAxis()->coordToPixel(it->value);
            if (!std::isfinite(px) || !std::isfinite(py) || std::abs(px - pos.x()) > kHoverPixels)
                continue;
            const double distance = std::max(0.0, std::hypot(px - pos.x(), py - pos.y()) - radius);
            if (distance < bestDistance) {
                bestDistance = distance;
                bestRef = r;
                bestIndex = index;
            }
        }
    }
    if (bestRef >= 0)
        return describePoint(bestRef, bestIndex, key);
    // Bars: the bar under the cursor.
    for (qsizetype r = 0; r < refs.size(); ++r) {
        auto *bars = qobject_cast<QCPBars *>(refs.at(r).plottable);
        if (!bars || !bars->visible())
            continue;
        QVariant details;
        const double distance = bars->selectTest(pos, false, &details);
        if (distance < 0 || distance >= plot->selectionTolerance())
            continue;
        const QCPDataSelection selection = details.value<QCPDataSelection>();
        if (!selection.isEmpty())
            return describePoint(r, selection.dataRange().begin(), key);
    }
    if (data.layer) {
        const QString text = data.layer->toolTipAt(plot, pos, key);
        if (!text.isEmpty())
            return text;
    }
    return annotationToolTipAt(plot, data, pos, key);
}

void ChartView::Private::onMouseMove(QMouseEvent *event) {
    if (event->buttons() != Qt::NoButton)
        return;
    QString key;
    const QString text = hoverText(event->position(), &key);
    if (text.isEmpty()) {
        if (!hoverKey.isEmpty()) {
            hoverKey.clear();
            QToolTip::hideText();
        }
        return;
    }
    if (key != hoverKey || !QToolTip::isVisible()) {
        hoverKey = key;
        QToolTip::showText(event->globalPosition().toPoint(), text, plot);
    }
}

void ChartView::Private::showContextMenu(const QPoint &pos) {
    QMenu menu(plot);
    menu.addMenu(exportMenu);
    menu.addAction(copyAction);
    menu.addSeparator();
    menu.addAction(formulaAction);
    menu.addAction(resetAction);
    menu.exec(plot->mapToGlobal(pos));
}

void ChartView::Private::exportInteractive(const QString &suffix) {
    // Shared by all charts so consecutive exports land in the same folder.
    static QString lastFolder;
    if (lastFolder.isEmpty())
        lastFolder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    QString caption;
    QString filter;
    if (suffix == QLatin1String("png")) {
        caption = QCoreApplication::translate("lse::gui::ChartView", "Export chart as PNG");
        filter = QCoreApplication::translate("lse::gui::ChartView", "PNG images (*.png)");
    } else if (suffix == QLatin1String("pdf")) {
        caption = QCoreApplication::translate("lse::gui::ChartView", "Export chart as PDF");
        filter = QCoreApplication::translate("lse::gui::ChartView", "PDF documents (*.pdf)");
    } else if (suffix == QLatin1String("svg")) {
        caption = QCoreApplication::translate("lse::gui::ChartView", "Export chart as SVG");
        filter = QCoreApplication::translate("lse::gui::ChartView", "SVG images (*.svg)");
    } else {
        caption = QCoreApplication::translate("lse::gui::ChartView", "Export chart data as CSV");
        filter = QCoreApplication::translate("lse::gui::ChartView", "CSV files (*.csv)");
    }
    QString path =
        QFileDialog::getSaveFileName(q, caption, QDir(lastFolder).filePath(id + QLatin1Char('.') + suffix), filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    lastFolder = QFileInfo(path).absolutePath();

    QString error;
    bool ok = false;
    if (suffix == QLatin1String("png"))
        ok = q->exportPng(path, 2.0, &error);
    else if (suffix == QLatin1String("pdf"))
        ok = q->exportPdf(path, &error);
    else if (suffix == QLatin1String("svg"))
        ok = q->exportSvg(path, &error);
    else
        ok = q->exportCsv(path, &error);
    if (!ok)
        QMessageBox::warning(q, QCoreApplication::translate("lse::gui::ChartView", "Export failed"), error);
}

ChartView::ChartView(const QString &id, QWidget *parent) : QWidget(parent), d(new Private(this)) {
    d->id = id;
    d->setupUi();
    applyPalette();
}

ChartView::~ChartView() {
    // The plot outlives d (QWidget deletes children later); cut everything that reaches into d.
    d->plot->removeEventFilter(d->plotFilter);
    removeEventFilter(d->plotFilter);
    QObject::disconnect(d->plot, nullptr, this, nullptr);
    delete d;
    d = nullptr;
}

void ChartView::setMinimumHeight(int height) {
    d->requestedMinimumHeight = height;
    QWidget::setMinimumHeight(height);
    d->requestReplot();  // re-checks the room the legend needs
}

QString ChartView::id() const {
    return d->id;
}

void ChartView::setData(const ChartData &data) {
    d->data = data;
    if (!(std::isfinite(d->data.y_display_scale) && d->data.y_display_scale != 0))
        d->data.y_display_scale = 1.0;
    // Scrolled out of view on a shown page: built when it next paints (or is read: plot(), the
    // exports), not now. The Scaling page's lower two charts and their formula panels were built,
    // laid out and replotted on every edit without being seen (bench_gui_footprint).
    if (d->outOfView()) {
        d->rebuildOnPaint = true;
        return;
    }
    d->rebuildOnPaint = false;
    d->rebuild(false);
    d->requestReplot();
}

const ChartData &ChartView::data() const {
    return d->data;
}

QCustomPlot *ChartView::plot() const {
    d->flushDeferred(Private::Flush::Build);
    return d->plot;
}

void ChartView::requestReplot() {
    d->requestReplot();
}

void ChartView::setPresentation(bool presentation) {
    if (d->presentation == presentation)
        return;
    d->presentation = presentation;
    d->flushDeferred(Private::Flush::Build);
    d->rebuild(true);
    d->requestReplot();
}

bool ChartView::presentation() const {
    return d->presentation;
}

void ChartView::applyPalette() {
    // Series colours depend on the palette too (dark themes use a different order), so rebuild.
    d->flushDeferred(Private::Flush::Build);
    d->rebuild(true);
    d->requestReplot();
}

QSize ChartView::exportSize() const {
    d->flushDeferred(Private::Flush::Build);
    return d->figureSize();
}

bool ChartView::exportPng(const QString &path, double scale, QString *error) const {
    if (!checkTarget(path, error))
        return false;
    if (!std::isfinite(scale) || scale <= 0) {
        setError(error, tr("Cannot write %1: invalid scale factor %2.").arg(nativePath(path)).arg(scale));
        return false;
    }
    const QSize size = exportSize();
    d->fitLayout(size);
    // Rendered in memory and written by the one writer (output/output_file.h): QCustomPlot's
    // savePng wrote the file in place, so a full disk left a cut PNG and a FIFO was replaced.
    QImage image = d->plot->toPixmap(size.width(), size.height(), scale).toImage();
    // The DPI is raised with the scale so the image prints at the on-screen physical size.
    const int dotsPerMeter = qRound(96 * scale / 0.0254);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    QString why;
    if (!writeImageFile(path, image, &why)) {
        setError(error, tr("Could not write the PNG image %1: %2").arg(nativePath(path), why));
        return false;
    }
    Q_EMIT const_cast<ChartView *>(this)->exported(path);
    return true;
}

bool ChartView::exportPdf(const QString &path, QString *error) const {
    if (!checkTarget(path, error))
        return false;
    const QSize size = exportSize();
    d->fitLayout(size);
    // One page of the figure's size at 96 DPI, drawn as vectors (what QCustomPlot::savePdf does,
    // into memory instead of the file, so the one writer can check and place it).
    QByteArray bytes;
    QBuffer buffer(&bytes);
    bool ok = buffer.open(QIODevice::WriteOnly);
    if (ok) {
        QPdfWriter writer(&buffer);
        writer.setCreator(QStringLiteral("LLM Systems Explorer"));
        writer.setTitle(d->data.title.isEmpty() ? d->id : d->data.title);
        writer.setResolution(96);
        writer.setPageSize(QPageSize(QSizeF(size.width() * 72.0 / 96.0, size.height() * 72.0 / 96.0), QPageSize::Point,
                                     QString(), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        QCPPainter painter;
        ok = painter.begin(&writer);
        if (ok) {
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            d->plot->toPainter(&painter, size.width(), size.height());
            ok = painter.end();
        }
    }
    QString why;
    if (!ok || bytes.isEmpty() || !writeOutputFile(path, bytes, &why)) {
        setError(error, tr("Could not write the PDF document %1.").arg(nativePath(path)) +
                            (why.isEmpty() ? QString() : QStringLiteral(" ") + why));
        return false;
    }
    Q_EMIT const_cast<ChartView *>(this)->exported(path);
    return true;
}

bool ChartView::exportSvg(const QString &path, QString *error) const {
    if (!checkTarget(path, error))
        return false;
    const QSize size = exportSize();
    d->fitLayout(size);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setResolution(96);  // same physical size as the on-screen chart at standard DPI
    generator.setTitle(d->data.title.isEmpty() ? d->id : d->data.title);
    generator.setDescription(d->data.formula.formula);
    QCPPainter painter;
    bool ok = buffer.open(QIODevice::WriteOnly) && painter.begin(&generator);
    if (ok) {
        painter.setMode(QCPPainter::pmVectorized);
        d->plot->toPainter(&painter, size.width(), size.height());
        ok = painter.end();
    }
    QString why;
    if (!ok || bytes.isEmpty() || !writeOutputFile(path, bytes, &why)) {
        setError(error, tr("Could not write the SVG image %1.").arg(nativePath(path)) +
                            (why.isEmpty() ? QString() : QStringLiteral(" ") + why));
        return false;
    }
    Q_EMIT const_cast<ChartView *>(this)->exported(path);
    return true;
}

bool ChartView::exportCsv(const QString &path, QString *error) const {
    if (!checkTarget(path, error))
        return false;
    QString why;
    if (!writeOutputFile(path, toCsv().toUtf8(), &why)) {
        setError(error, tr("Could not write %1: %2").arg(nativePath(path), why));
        return false;
    }
    Q_EMIT const_cast<ChartView *>(this)->exported(path);
    return true;
}

QString ChartView::toCsv() const {
    const ChartData &data = d->data;
    QStringList header;
    header << csvField(withUnit(data.x_label.isEmpty() ? QStringLiteral("x") : data.x_label, data.x_unit));
    // Per series: every y at each x, in data order, so duplicate x values keep all their points.
    std::vector<std::map<double, QVector<double>>> columns;
    std::vector<double> keys;
    for (qsizetype s = 0; s < data.series.size(); ++s) {
        const ChartSeries &series = data.series.at(s);
        header << csvField(withUnit(seriesName(series, s), data.y_unit));
        std::map<double, QVector<double>> column;
        const qsizetype n = std::min(series.x.size(), series.y.size());
        for (qsizetype i = 0; i < n; ++i) {
            if (std::isnan(series.x.at(i)))
                continue;
            column[series.x.at(i)].append(series.y.at(i));
            keys.push_back(series.x.at(i));
        }
        columns.push_back(std::move(column));
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());

    QString annotations = annotationsCsv(data);
    if (data.layer) {
        const QString layer = data.layer->csv();
        if (!layer.isEmpty())
            annotations = annotations.isEmpty() ? layer : annotations + QLatin1Char('\n') + layer;
    }
    if (data.series.isEmpty() && !annotations.isEmpty())
        return annotations;
    QString csv = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (double key : keys) {
        qsizetype rows = 1;
        for (const auto &column : columns) {
            const auto it = column.find(key);
            if (it != column.end())
                rows = std::max(rows, it->second.size());
        }
        const QString category = categoryAt(data.categories, key);
        const QString first = csvField(category.isEmpty() ? exactNumber(key) : category);
        for (qsizetype row = 0; row < rows; ++row) {
            QStringList fields{first};
            for (const auto &column : columns) {
                const auto it = column.find(key);
                fields << (it != column.end() && row < it->second.size() ? exactNumber(it->second.at(row)) : QString());
            }
            csv += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
        }
    }
    if (!annotations.isEmpty())
        csv += QLatin1Char('\n') + annotations;
    return csv;
}

void ChartView::copyToClipboard() const {
    const QSize size = exportSize();
    d->fitLayout(size);
    const QImage image = d->plot->toPixmap(size.width(), size.height(), kClipboardScale).toImage();
    auto *mime = new QMimeData;
    mime->setImageData(image);
    mime->setData(QStringLiteral("text/csv"), toCsv().toUtf8());
    QGuiApplication::clipboard()->setMimeData(mime);
}

bool ChartView::exportAll(const QString &folder, QString *error) const {
    const QFileInfo info(folder);
    if (!info.exists() || !info.isDir()) {
        setError(error, tr("Cannot export to %1: the folder does not exist.").arg(nativePath(folder)));
        return false;
    }
    if (!info.isWritable()) {
        setError(error, tr("Cannot export to %1: the folder is not writable.").arg(nativePath(folder)));
        return false;
    }
    const QDir dir(folder);
    const QString stem = dir.filePath(d->id);
    return exportPng(stem + QStringLiteral(".png"), 2.0, error) && exportPdf(stem + QStringLiteral(".pdf"), error) &&
           exportSvg(stem + QStringLiteral(".svg"), error) && exportCsv(stem + QStringLiteral(".csv"), error);
}

QString ChartView::toolTipAt(const QPointF &plotPos) const {
    d->flushDeferred(Private::Flush::Build);
    return d->hoverText(plotPos, nullptr);
}

void ChartView::setFormulaVisible(bool visible) {
    d->formulaWanted = visible;
    if (d->formulaAction->isChecked() != visible)
        d->formulaAction->setChecked(visible);
    d->formulaLabel->setVisible(visible && d->hasFormula);
}

bool ChartView::formulaVisible() const {
    d->flushDeferred(Private::Flush::Build);
    return d->formulaWanted && d->hasFormula;
}

void ChartView::changeEvent(QEvent *event) {
    QWidget::changeEvent(event);
    if (!d || !d->plot)
        return;
    switch (event->type()) {
    case QEvent::PaletteChange:
    case QEvent::FontChange:
        applyPalette();
        break;
    case QEvent::LanguageChange:
        d->retranslate();
        break;
    default:
        break;
    }
}

}  // namespace lse::gui
