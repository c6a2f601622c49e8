// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/chart_annotations.h"
#include "charts/chart_view.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QClipboard>
#include <QFontMetricsF>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QMimeData>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>
#include <QTest>
#include <QToolTip>

#include <cmath>
#include <limits>

using lse::gui::ChartData;
using lse::gui::ChartSeries;
using lse::gui::ChartView;
using lse::gui::ReferenceLine;

namespace {

ChartSeries series(const QString &name, ChartSeries::Kind kind, QVector<double> x, QVector<double> y,
                   int stackGroup = -1) {
    ChartSeries s;
    s.name = name;
    s.kind = kind;
    s.x = std::move(x);
    s.y = std::move(y);
    s.stack_group = stackGroup;
    return s;
}

// Memory per GPU by ZeRO stage: three stacked components over four categories.
ChartData stackedBars() {
    ChartData data;
    data.title = QStringLiteral("Memory per GPU");
    data.x_label = QStringLiteral("Strategy");
    data.y_label = QStringLiteral("Memory (GB)");
    data.y_unit = QStringLiteral("bytes");
    data.y_display_scale = 1e-9;
    data.categories = {QStringLiteral("DDP"), QStringLiteral("零冗余"), QStringLiteral("ZeRO-2"),
                       QStringLiteral("ZeRO-3")};
    const QVector<double> x{0, 1, 2, 3};
    data.series << series(QStringLiteral("Parameters"), ChartSeries::Kind::Bar, x, {14e9, 14e9, 14e9, 1.75e9}, 0)
                << series(QStringLiteral("Gradients"), ChartSeries::Kind::Bar, x, {14e9, 14e9, 1.75e9, 1.75e9}, 0)
                << series(QStringLiteral("Optimizer"), ChartSeries::Kind::Bar, x, {84e9, 10.5e9, 10.5e9, 10.5e9}, 0);
    data.formula.inputs = QStringLiteral("Ψ = 7e9, N_d = 8");
    data.formula.formula = QStringLiteral("(2 + 2 + 12)·Ψ bytes");
    data.formula.source = QStringLiteral("Rajbhandari et al. 2020");
    return data;
}

// Training time vs. tokens on a log x axis, with the current scenario marked.
ChartData lineAndMarker() {
    ChartData data;
    data.title = QStringLiteral("Training time");
    data.x_label = QStringLiteral("Tokens");
    data.x_unit = QStringLiteral("tokens");
    data.y_label = QStringLiteral("Days");
    data.y_unit = QStringLiteral("days");
    data.log_x = true;
    const QVector<double> x{1e9, 1e10, 1e11, 1e12};
    ChartSeries dashed = series(QStringLiteral("MFU 30%"), ChartSeries::Kind::Line, x, {0.1, 1, 10, 100});
    dashed.dashed = true;
    ChartSeries marker = series(QStringLiteral("Current"), ChartSeries::Kind::Marker, {1e11}, {6});
    marker.point_tooltips << QStringLiteral("6·N·D = 4.2e21 FLOP");
    data.series << series(QStringLiteral("MFU 50%"), ChartSeries::Kind::Line, x, {0.06, 0.6, 6, 60}) << dashed
                << marker;
    return data;
}

ChartData withReferenceLine() {
    ChartData data;
    data.x_label = QStringLiteral("Sequence length");
    data.y_label = QStringLiteral("Activations (GB)");
    data.series << series(QStringLiteral("Activations"), ChartSeries::Kind::Line, {1024, 2048, 4096}, {10, 30, 90});
    ReferenceLine line;
    line.y = 80;
    line.label = QStringLiteral("H100 80 GB");
    data.reference_lines << line;
    return data;
}

ChartData chartNamed(const QString &name) {
    if (name == QLatin1String("bars"))
        return stackedBars();
    if (name == QLatin1String("lines"))
        return lineAndMarker();
    return withReferenceLine();
}

QByteArray readAll(const QString &path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

Q_DECLARE_METATYPE(lse::gui::ChartData)

class TestChartView : public QObject {
    Q_OBJECT

private slots:
    void plottables_data();
    void plottables();
    void stackingAndCategories();
    void logAxis();
    void exports_data();
    void exports();
    void pngSizeFollowsWidget_data();
    void pngSizeFollowsWidget();
    void csvIsExact();
    void exportToMissingFolderFails_data();
    void exportToMissingFolderFails();
    void exportAllWritesFourFiles();
    void presentationEnlargesFonts();
    void copyToClipboard();
    void hoverShowsExactValues();
    void formulaPanel();
    void followsPalette();
    void legendAndTitleFitTheSize_data();
    void wheelScrollsPagesAndCtrlWheelZooms();
    void degenerateDataIsHarmless_data();
    void degenerateDataIsHarmless();
    void legendAndTitleFitTheSize();
    void diagramRectsArrowsAndLabels();
    void legendCoversNoDataPoint_data();
    void legendCoversNoDataPoint();
    void drawnLabelsDoNotOverlap();
    void chartOutOfViewIsBuiltWhenItComesIntoView();
    void lazyPointTooltipIsShownOnHover();
    void longYLabelWrapsToTheAxis();
    void referenceLabelAvoidsBars();
    void pointLabelGapIsMeasuredFromItsInk();

private:
    static void showSized(ChartView &view) {
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.plot()->replot();
    }
};

void TestChartView::plottables_data() {
    QTest::addColumn<QString>("chart");
    QTest::addColumn<int>("graphs");
    QTest::addColumn<int>("plottables");
    QTest::addColumn<int>("items");
    QTest::addColumn<bool>("legend");
    QTest::addRow("stacked bars") << "bars" << 0 << 3 << 0 << true;
    QTest::addRow("line + marker, log x") << "lines" << 3 << 3 << 0 << true;
    QTest::addRow("reference line") << "reference" << 1 << 1 << 2 << false;
}

void TestChartView::plottables() {
    QFETCH(QString, chart);
    QFETCH(int, graphs);
    QFETCH(int, plottables);
    QFETCH(int, items);
    QFETCH(bool, legend);
    ChartView view(QStringLiteral("test"));
    view.setData(chartNamed(chart));
    QCOMPARE(view.plot()->graphCount(), graphs);
    QCOMPARE(view.plot()->plottableCount(), plottables);
    QCOMPARE(view.plot()->itemCount(), items);
    QCOMPARE(view.plot()->legend->visible(), legend);

    // A second setData replaces rather than accumulates.
    view.setData(chartNamed(chart));
    QCOMPARE(view.plot()->plottableCount(), plottables);
    QCOMPARE(view.plot()->itemCount(), items);
}

void TestChartView::stackingAndCategories() {
    ChartView view(QStringLiteral("zero"));
    view.setData(stackedBars());
    auto *bottom = qobject_cast<QCPBars *>(view.plot()->plottable(0));
    auto *middle = qobject_cast<QCPBars *>(view.plot()->plottable(1));
    auto *top = qobject_cast<QCPBars *>(view.plot()->plottable(2));
    QVERIFY(bottom && middle && top);
    QVERIFY(!bottom->barBelow());
    QCOMPARE(middle->barBelow(), bottom);
    QCOMPARE(top->barBelow(), middle);
    // Display scale: 14e9 bytes are drawn as 14 (GB).
    QCOMPARE(bottom->data()->at(0)->value, 14.0);

    auto ticker = view.plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().value(1.0), QStringLiteral("零冗余"));
    QVERIFY(view.plot()->xAxis->range().contains(-0.4));
    QVERIFY(view.plot()->xAxis->range().contains(3.4));
    QCOMPARE(view.plot()->yAxis->range().lower, 0.0);
    QVERIFY(view.plot()->yAxis->range().upper >= 112.0);
}

void TestChartView::logAxis() {
    ChartView view(QStringLiteral("time"));
    view.setData(lineAndMarker());
    QCOMPARE(view.plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(view.plot()->xAxis->ticker().dynamicCast<QCPAxisTickerLog>());
    QCOMPARE(view.plot()->yAxis->scaleType(), QCPAxis::stLinear);
    QCOMPARE(view.plot()->graph(1)->pen().style(), Qt::DashLine);
    QCOMPARE(view.plot()->graph(2)->lineStyle(), QCPGraph::lsNone);
    QCOMPARE(view.plot()->graph(2)->scatterStyle().shape(), QCPScatterStyle::ssCircle);

    ChartData linear = lineAndMarker();
    linear.log_x = false;
    view.setData(linear);
    QCOMPARE(view.plot()->xAxis->scaleType(), QCPAxis::stLinear);
}

void TestChartView::exports_data() {
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("chart");
    for (const char *chart : {"bars", "lines", "reference"}) {
        for (const char *format : {"png", "pdf", "svg", "csv"})
            QTest::addRow("%s %s", chart, format) << QString::fromLatin1(format) << QString::fromLatin1(chart);
    }
}

void TestChartView::exports() {
    QFETCH(QString, format);
    QFETCH(QString, chart);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ChartView view(QStringLiteral("chart"));
    view.setData(chartNamed(chart));
    QSignalSpy spy(&view, &ChartView::exported);
    const QString path = dir.filePath(QStringLiteral("chart.") + format);
    QString error;
    bool ok = false;
    if (format == QLatin1String("png"))
        ok = view.exportPng(path, 2.0, &error);
    else if (format == QLatin1String("pdf"))
        ok = view.exportPdf(path, &error);
    else if (format == QLatin1String("svg"))
        ok = view.exportSvg(path, &error);
    else
        ok = view.exportCsv(path, &error);
    QVERIFY2(ok, qPrintable(error));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), path);

    const QByteArray bytes = readAll(path);
    QVERIFY(!bytes.isEmpty());
    if (format == QLatin1String("png")) {
        const QImage image(path);
        QVERIFY(!image.isNull());
        // Never shown: exports fall back to a presentable size instead of the minimum size.
        QCOMPARE(view.exportSize(), QSize(800, 500));
        QCOMPARE(image.size(), QSize(1600, 1000));
    } else if (format == QLatin1String("pdf")) {
        QVERIFY(bytes.startsWith("%PDF"));
    } else if (format == QLatin1String("svg")) {
        QVERIFY(bytes.contains("<svg"));
    } else {
        QCOMPARE(QString::fromUtf8(bytes), view.toCsv());
    }
}

void TestChartView::pngSizeFollowsWidget_data() {
    QTest::addColumn<double>("scale");
    QTest::addRow("1x") << 1.0;
    QTest::addRow("1.5x") << 1.5;
    QTest::addRow("2x") << 2.0;
    QTest::addRow("3x") << 3.0;
}

void TestChartView::pngSizeFollowsWidget() {
    QFETCH(double, scale);
    ChartView view(QStringLiteral("sized"));
    view.setData(lineAndMarker());
    showSized(view);
    const QSize widget = view.plot()->size();
    QCOMPARE(view.exportSize(), widget);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sized.png"));
    QString error;
    QVERIFY2(view.exportPng(path, scale, &error), qPrintable(error));
    const QImage image(path);
    QCOMPARE(image.size(), QSize(qRound(widget.width() * scale), qRound(widget.height() * scale)));
}

void TestChartView::csvIsExact() {
    ChartData data;
    data.x_label = QStringLiteral("Strategy");
    data.y_label = QStringLiteral("Memory");
    data.y_unit = QStringLiteral("bytes");
    data.y_display_scale = 1e-9;  // display only: the CSV keeps raw values
    data.categories = {QStringLiteral("Baseline"), QStringLiteral("零冗余"), QStringLiteral("Stage 1, sharded")};
    data.series << series(QStringLiteral("Weights"), ChartSeries::Kind::Bar, {0, 1, 2}, {4096, 0.1, 1.5})
                << series(QStringLiteral("Optimizer \"Adam\""), ChartSeries::Kind::Bar, {2, 0}, {0.25, 8});
    ChartView view(QStringLiteral("csv"));
    view.setData(data);
    const QString expected = QStringLiteral(
        "Strategy,Weights [bytes],\"Optimizer \"\"Adam\"\" [bytes]\"\n"
        "Baseline,4096,8\n"
        "零冗余,0.1,\n"
        "\"Stage 1, sharded\",1.5,0.25\n");
    QCOMPARE(view.toCsv(), expected);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("csv.csv"));
    QVERIFY(view.exportCsv(path));
    QCOMPARE(readAll(path), expected.toUtf8());
    QVERIFY(readAll(path).contains("\xe9\x9b\xb6\xe5\x86\x97\xe4\xbd\x99"));  // 零冗余 in UTF-8

    // Numeric x: rows sorted by x over the union of all series, units in the header.
    ChartData numeric;
    numeric.x_label = QStringLiteral("Sequence length");
    numeric.x_unit = QStringLiteral("tokens");
    numeric.series << series(QStringLiteral("A"), ChartSeries::Kind::Line, {4096, 1024}, {3e12, 1.25e-3})
                   << series(QString(), ChartSeries::Kind::Marker, {2048}, {-7});
    view.setData(numeric);
    QCOMPARE(view.toCsv(), QStringLiteral("Sequence length [tokens],A,Series 2\n"
                                          "1024,0.00125,\n"
                                          "2048,,-7\n"
                                          "4096,3e+12,\n"));
}

void TestChartView::exportToMissingFolderFails_data() {
    QTest::addColumn<QString>("format");
    for (const char *format : {"png", "pdf", "svg", "csv", "all"})
        QTest::addRow("%s", format) << QString::fromLatin1(format);
}

void TestChartView::exportToMissingFolderFails() {
    QFETCH(QString, format);
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("does-not-exist"));
    const QString path = missing + QStringLiteral("/chart.") + format;
    ChartView view(QStringLiteral("chart"));
    view.setData(stackedBars());
    QSignalSpy spy(&view, &ChartView::exported);
    QString error;
    bool ok = true;
    if (format == QLatin1String("png"))
        ok = view.exportPng(path, 2.0, &error);
    else if (format == QLatin1String("pdf"))
        ok = view.exportPdf(path, &error);
    else if (format == QLatin1String("svg"))
        ok = view.exportSvg(path, &error);
    else if (format == QLatin1String("csv"))
        ok = view.exportCsv(path, &error);
    else
        ok = view.exportAll(missing, &error);
    QVERIFY(!ok);
    QVERIFY2(error.contains(QDir::toNativeSeparators(missing)), qPrintable(error));
    QCOMPARE(spy.count(), 0);
    QVERIFY(!QFileInfo::exists(missing));
    // No error pointer is fine too.
    QVERIFY(!view.exportCsv(path));
}

void TestChartView::exportAllWritesFourFiles() {
    QTemporaryDir dir;
    ChartView view(QStringLiteral("memory-zero-stages"));
    view.setData(stackedBars());
    QSignalSpy spy(&view, &ChartView::exported);
    QString error;
    QVERIFY2(view.exportAll(dir.path(), &error), qPrintable(error));
    for (const char *suffix : {"png", "pdf", "svg", "csv"}) {
        const QFileInfo file(dir.filePath(QStringLiteral("memory-zero-stages.") + QLatin1String(suffix)));
        QVERIFY2(file.exists() && file.size() > 0, qPrintable(file.filePath()));
    }
    QCOMPARE(spy.count(), 4);
}

void TestChartView::presentationEnlargesFonts() {
    ChartView view(QStringLiteral("talk"));
    view.setData(lineAndMarker());
    const auto fontSize = [](const QFont &font) {
        return font.pointSizeF() > 0 ? font.pointSizeF() : font.pixelSize();
    };
    const double tick = fontSize(view.plot()->xAxis->tickLabelFont());
    const double label = fontSize(view.plot()->yAxis->labelFont());
    const double pen = view.plot()->graph(0)->pen().widthF();
    const double marker = view.plot()->graph(2)->scatterStyle().size();
    QVERIFY(!view.presentation());

    view.setPresentation(true);
    QVERIFY(view.presentation());
    QVERIFY(fontSize(view.plot()->xAxis->tickLabelFont()) > tick);
    QVERIFY(fontSize(view.plot()->yAxis->labelFont()) > label);
    QCOMPARE(view.plot()->graph(0)->pen().widthF(), 2 * pen);
    QVERIFY(view.plot()->graph(2)->scatterStyle().size() > marker);

    view.setPresentation(false);
    QCOMPARE(fontSize(view.plot()->xAxis->tickLabelFont()), tick);
}

void TestChartView::copyToClipboard() {
    ChartView view(QStringLiteral("clip"));
    view.setData(stackedBars());
    QGuiApplication::clipboard()->clear();
    view.copyToClipboard();
    const QImage image = QGuiApplication::clipboard()->image();
    QVERIFY(!image.isNull());
    QVERIFY(image.width() >= view.exportSize().width());
    const QMimeData *mime = QGuiApplication::clipboard()->mimeData();
    QVERIFY(mime);
    QCOMPARE(QString::fromUtf8(mime->data(QStringLiteral("text/csv"))), view.toCsv());
}

void TestChartView::hoverShowsExactValues() {
    ChartView view(QStringLiteral("hover"));
    view.setData(lineAndMarker());
    showSized(view);
    QCustomPlot *plot = view.plot();
    const QPointF marker(plot->xAxis->coordToPixel(1e11), plot->yAxis->coordToPixel(6));
    const QString text = view.toolTipAt(marker + QPointF(3, 0));
    QVERIFY2(text.contains(QLatin1String("Current")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("4.2e21 FLOP")), qPrintable(text));

    // The real path: a mouse move over the point shows the same text as a tooltip.
    QTest::mouseMove(plot, (marker + QPointF(2, 0)).toPoint());
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QLatin1String("Current")), qPrintable(QToolTip::text()));

    const QPointF line(plot->xAxis->coordToPixel(1e12), plot->yAxis->coordToPixel(60));
    QVERIFY(view.toolTipAt(line).contains(QLatin1String("MFU 50%")));
    // Far from every point in x: nothing.
    const QPointF between(plot->xAxis->coordToPixel(3e9), plot->yAxis->coordToPixel(50));
    QVERIFY(view.toolTipAt(between).isEmpty());

    view.setData(stackedBars());
    plot->replot();
    const QPointF bar(plot->xAxis->coordToPixel(1), plot->yAxis->coordToPixel(20));
    const QString barText = view.toolTipAt(bar);
    QVERIFY2(barText.contains(QLatin1String("Gradients")), qPrintable(barText));
    QVERIFY2(barText.contains(QStringLiteral("零冗余")), qPrintable(barText));
}

void TestChartView::formulaPanel() {
    ChartView view(QStringLiteral("formula"));
    view.setData(stackedBars());
    showSized(view);
    auto *label = view.findChild<QLabel *>(QStringLiteral("chartFormula"));
    QVERIFY(label);
    QVERIFY(label->text().contains(QStringLiteral("(2 + 2 + 12)·Ψ bytes")));
    QVERIFY(label->text().contains(QStringLiteral("Rajbhandari")));
    QVERIFY(label->isVisible());
    QVERIFY(view.formulaVisible());
    QVERIFY(view.plot()->toolTip().contains(QStringLiteral("Ψ bytes")));

    view.setFormulaVisible(false);
    QVERIFY(!label->isVisible());
    view.setFormulaVisible(true);
    QVERIFY(label->isVisible());

    view.setData(withReferenceLine());  // no formula: the panel hides itself
    QVERIFY(!label->isVisible());
    QVERIFY(view.plot()->toolTip().isEmpty());
}

void TestChartView::followsPalette() {
    ChartView view(QStringLiteral("theme"));
    view.setData(withReferenceLine());
    QPalette dark = view.palette();
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    dark.setColor(QPalette::Text, QColor(230, 230, 230));
    view.setPalette(dark);  // delivers QEvent::PaletteChange
    const QImage image = view.plot()->toPixmap(400, 300).toImage();
    QCOMPARE(image.pixelColor(2, 2), QColor(30, 30, 30));
    QCOMPARE(view.plot()->xAxis->tickLabelColor(), QColor(230, 230, 230));
    QCOMPARE(view.plot()->graphCount(), 1);
}

void TestChartView::legendAndTitleFitTheSize_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<int>("seriesCount");
    QTest::addColumn<QString>("expected");  // inside, right or below
    QTest::addRow("two series, wide") << QSize(900, 600) << 2 << "below";
    QTest::addRow("many series, wide") << QSize(900, 240) << 6 << "below";
    QTest::addRow("many series, tall") << QSize(1100, 600) << 12 << "right";
    QTest::addRow("many series, narrow") << QSize(420, 500) << 6 << "below";
}

void TestChartView::legendAndTitleFitTheSize() {
    QFETCH(QSize, size);
    QFETCH(int, seriesCount);
    QFETCH(QString, expected);
    ChartData data;
    data.title =
        QStringLiteral("Share of forward FLOPs by component as the sequence length grows, 零冗余 on 1,024 GPUs");
    for (int i = 0; i < seriesCount; ++i)
        data.series << series(QStringLiteral("Component number %1 (long name)").arg(i), ChartSeries::Kind::Line,
                              {1, 2, 3}, {1.0 * i, 2.0 * i, 3.0 * i});
    ChartView view(QStringLiteral("legend"));
    view.setData(data);
    view.resize(size);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.plot()->replot();

    QCustomPlot *plot = view.plot();
    QCPLayout *legendLayout = plot->legend->layout();
    QString actual;
    if (legendLayout == plot->axisRect()->insetLayout())
        actual = QStringLiteral("inside");
    else if (plot->legend->outerRect().left() >= plot->axisRect()->outerRect().right())
        actual = QStringLiteral("right");
    else if (plot->legend->outerRect().top() >= plot->axisRect()->outerRect().bottom())
        actual = QStringLiteral("below");
    QCOMPARE(actual, expected);
    // Whatever the placement, the legend stays inside the widget.
    QVERIFY(plot->rect().contains(plot->legend->outerRect()));

    auto *title = qobject_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0));
    QVERIFY(title);
    if (size.width() < 600)
        QVERIFY(title->text().contains(QLatin1Char('\n')));
    QVERIFY(plot->rect().contains(title->outerRect()));
    QCOMPARE(title->text().simplified().remove(QLatin1Char(' ')), data.title.simplified().remove(QLatin1Char(' ')));

    // Dropping and restoring the title row keeps the legend where it was and the layout intact.
    data.title.clear();
    view.setData(data);
    plot->replot();
    QVERIFY(!qobject_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0)));
    QVERIFY(plot->rect().contains(plot->legend->outerRect()));
    data.title = QStringLiteral("Back");
    view.setData(data);
    plot->replot();
    QVERIFY(qobject_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0)));
    QVERIFY(plot->rect().contains(plot->legend->outerRect()));
    QVERIFY(plot->axisRect()->outerRect().top() >= plot->plotLayout()->element(0, 0)->outerRect().bottom());
}

void TestChartView::wheelScrollsPagesAndCtrlWheelZooms() {
    QScrollArea area;
    auto *view = new ChartView(QStringLiteral("scrolled"));
    view->setMinimumSize(600, 400);
    view->setData(withReferenceLine());
    area.setWidget(view);
    area.resize(700, 500);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    QCustomPlot *plot = view->plot();
    plot->replot();
    const QCPRange before = plot->xAxis->range();
    const QPointF centre = plot->axisRect()->center();
    const auto wheel = [&](Qt::KeyboardModifiers modifiers) {
        QWheelEvent event(centre, plot->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton, modifiers,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(plot, &event);
    };
    wheel(Qt::NoModifier);
    QCOMPARE(plot->xAxis->range(), before);
    wheel(Qt::ControlModifier);
    QVERIFY(plot->xAxis->range().size() < before.size());
    // Double-click restores the computed view.
    QTest::mouseDClick(plot, Qt::LeftButton, Qt::NoModifier, centre.toPoint());
    QCOMPARE(plot->xAxis->range(), before);
}

void TestChartView::degenerateDataIsHarmless_data() {
    QTest::addColumn<ChartData>("data");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    QTest::addRow("empty") << ChartData{};
    ChartData emptySeries;
    emptySeries.series << ChartSeries{} << series(QStringLiteral("bars"), ChartSeries::Kind::Bar, {}, {}, 0);
    QTest::addRow("empty series") << emptySeries;
    ChartData logWithZeros = lineAndMarker();
    logWithZeros.log_y = true;
    logWithZeros.series << series(QStringLiteral("zeros"), ChartSeries::Kind::Line, {0, -1, 1e10}, {0, -5, 0});
    QTest::addRow("log with zeros") << logWithZeros;
    ChartData ragged;
    ragged.series << series(QStringLiteral("ragged"), ChartSeries::Kind::Line, {1, 2, 3}, {1})
                  << series(QStringLiteral("nan"), ChartSeries::Kind::Marker, {nan, 2}, {1, nan});
    ragged.reference_lines << ReferenceLine{nan, QStringLiteral("nan"), {}};
    QTest::addRow("ragged and NaN") << ragged;
    ChartData constant;
    constant.series << series(QStringLiteral("flat"), ChartSeries::Kind::Line, {5, 5}, {3, 3});
    constant.y_display_scale = 0;  // ignored: would hide everything
    QTest::addRow("constant") << constant;
    ChartData barsOnLog = stackedBars();
    barsOnLog.categories.clear();
    barsOnLog.log_x = true;
    QTest::addRow("bars on a log axis") << barsOnLog;
    ChartData outOfRange = stackedBars();
    outOfRange.categories = {QStringLiteral("only one")};
    QTest::addRow("fewer categories than bars") << outOfRange;
}

void TestChartView::degenerateDataIsHarmless() {
    QFETCH(ChartData, data);
    QTemporaryDir dir;
    ChartView view(QStringLiteral("odd"));
    view.setData(data);
    showSized(view);
    for (int x = 0; x < view.plot()->width(); x += 37)
        view.toolTipAt(QPointF(x, view.plot()->height() / 2.0));
    QString error;
    QVERIFY2(view.exportAll(dir.path(), &error), qPrintable(error));
    QVERIFY(!view.toCsv().isEmpty());
    view.setPresentation(true);
    view.copyToClipboard();
}

// A two-stage Gantt chart with an arrow and a labelled point: rectangles get tooltips, labels
// only where they fit, legend entries per group, CSV rows, and every export format.
void TestChartView::diagramRectsArrowsAndLabels() {
    ChartData data;
    data.title = QStringLiteral("Pipeline");
    data.y_categories = {QStringLiteral("stage 0"), QStringLiteral("stage 1")};
    data.y_reversed = true;
    data.rects.append({0, 1, -0.4, 0.4, QColor(Qt::blue), QStringLiteral("F1"), QStringLiteral("<b>forward</b> mb 1"),
                       QStringLiteral("forward")});
    data.rects.append({1, 3, 0.6, 1.4, QColor(Qt::red), QStringLiteral("B1"), QString(), QStringLiteral("backward")});
    data.rects.append({3, 3.001, 0.6, 1.4, QColor(Qt::red), QStringLiteral("too narrow"), QString(),
                       QStringLiteral("backward")});
    data.arrows.append({0.5, 0, 2, 1, QColor(), QStringLiteral("send"), QStringLiteral("activations"), QString()});
    ChartView view(QStringLiteral("diagram"));
    view.setData(data);
    showSized(view);
    QCustomPlot *plot = view.plot();
    // Two groups → two legend entries; no series.
    QCOMPARE(plot->plottableCount(), 2);
    QVERIFY(plot->legend->visible());
    QCOMPARE(plot->yAxis->range().lower, -0.5);
    QCOMPARE(plot->yAxis->range().upper, 1.5);
    QVERIFY(plot->yAxis->rangeReversed());

    const QPointF forward(plot->xAxis->coordToPixel(0.2), plot->yAxis->coordToPixel(0.1));
    QVERIFY2(view.toolTipAt(forward).contains(QLatin1String("mb 1")), qPrintable(view.toolTipAt(forward)));
    const QPointF backward(plot->xAxis->coordToPixel(2.5), plot->yAxis->coordToPixel(1.2));
    QVERIFY2(view.toolTipAt(backward).contains(QLatin1String("B1")), qPrintable(view.toolTipAt(backward)));
    const QPointF onArrow(plot->xAxis->coordToPixel(1.25), plot->yAxis->coordToPixel(0.5));
    const QPointF nothing(plot->xAxis->coordToPixel(2.8), plot->yAxis->coordToPixel(0.0));
    QVERIFY(view.toolTipAt(nothing).isEmpty());
    QVERIFY2(view.toolTipAt(onArrow).contains(QLatin1String("activations")), qPrintable(view.toolTipAt(onArrow)));

    // The wide rectangle shows its label, the 0.001-wide one hides it.
    int visibleLabels = 0;
    int hiddenLabels = 0;
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i))) {
            if (text->text() == QLatin1String("F1") || text->text() == QLatin1String("B1"))
                visibleLabels += text->visible() ? 1 : 0;
            if (text->text() == QLatin1String("too narrow"))
                hiddenLabels += text->visible() ? 0 : 1;
        }
    }
    QCOMPARE(visibleLabels, 2);
    QCOMPARE(hiddenLabels, 1);

    const QString csv = view.toCsv();
    QVERIFY2(csv.startsWith(QLatin1String("group,label,x0,x1,y0,y1,row,details\n")), qPrintable(csv));
    QVERIFY2(csv.contains(QLatin1String("forward,F1,0,1,-0.4,0.4,stage 0,forward mb 1\n")), qPrintable(csv));
    QVERIFY2(csv.contains(QLatin1String("backward,B1,1,3,0.6,1.4,stage 1,\n")), qPrintable(csv));
    QVERIFY2(csv.contains(QLatin1String(",send,0.5,0,2,1,activations\n")), qPrintable(csv));

    QTemporaryDir dir;
    QVERIFY(view.exportAll(dir.path()));
    for (const char *suffix : {"png", "pdf", "svg", "csv"})
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("diagram.") + QLatin1String(suffix))).size() > 0);

    // A labelled point on an ordinary plot.
    ChartData points;
    ChartSeries series;
    series.kind = ChartSeries::Kind::Marker;
    series.x = {1, 10};
    series.y = {5, 50};
    series.point_labels = {QStringLiteral("qkv"), QString()};
    points.series.append(series);
    points.log_x = points.log_y = true;
    view.setData(points);
    plot->replot();
    int pointLabels = 0;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
            pointLabels += text->text() == QLatin1String("qkv") ? 1 : 0;
    QCOMPARE(pointLabels, 1);
}

// Issue 13 item 15: legends covered data. Whatever the size, no legend rectangle contains the
// pixel of a plotted data point (a legend inside the axis rect sat on points near its corner).
void TestChartView::legendCoversNoDataPoint_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<int>("seriesCount");
    QTest::addRow("two series, wide") << QSize(900, 600) << 2;
    QTest::addRow("three series, short") << QSize(900, 260) << 3;
    QTest::addRow("six series, narrow") << QSize(420, 500) << 6;
}

void TestChartView::legendCoversNoDataPoint() {
    QFETCH(QSize, size);
    QFETCH(int, seriesCount);
    ChartData data;
    data.title = QStringLiteral("Points everywhere");
    // Every series runs along the top edge and down the left edge, where an inside legend goes.
    for (int s = 0; s < seriesCount; ++s) {
        ChartSeries line = series(QStringLiteral("Series %1").arg(s), ChartSeries::Kind::Line, {}, {});
        for (int i = 0; i <= 40; ++i) {
            line.x << i;
            line.y << 100.0 - s;
        }
        for (int i = 0; i <= 40; ++i) {
            line.x << 0.1 * s;
            line.y << 100.0 - 2.5 * i;
        }
        data.series << line;
    }
    data.series << series(QStringLiteral("Current"), ChartSeries::Kind::Marker, {0.5}, {99});
    ChartView view(QStringLiteral("legend-data"));
    view.setData(data);
    view.resize(size);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCustomPlot *plot = view.plot();
    plot->replot();
    QVERIFY(plot->legend->visible());
    const QRectF legend = plot->legend->outerRect();
    int checked = 0;
    for (int g = 0; g < plot->graphCount(); ++g) {
        const QCPGraph *graph = plot->graph(g);
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
            const QPointF pixel(plot->xAxis->coordToPixel(it->key), plot->yAxis->coordToPixel(it->value));
            QVERIFY2(!legend.contains(pixel), qPrintable(QStringLiteral("point (%1, %2) under the legend")
                                                             .arg(it->key)
                                                             .arg(it->value)));
            ++checked;
        }
    }
    QVERIFY(checked > 80);
}

// Issue 13 item 15: point labels, texts and reference-line labels ran into each other. Labels that
// would overlap are moved or dropped: no two drawn labels overlap, and drawn point labels stay in
// the plot.
void TestChartView::drawnLabelsDoNotOverlap() {
    ChartData data;
    data.title = QStringLiteral("Crowded labels");
    data.log_x = true;
    ChartSeries models = series(QStringLiteral("Models"), ChartSeries::Kind::Marker, {}, {});
    for (int i = 0; i < 24; ++i) {
        models.x << std::pow(10.0, 8 + 0.1 * i);
        models.y << 50 + (i % 3);
        models.point_labels << QStringLiteral("Model with a long name %1").arg(i);
    }
    data.series << models;
    data.series << series(QStringLiteral("Other"), ChartSeries::Kind::Marker, {1e8, 2e9}, {10, 90});
    ReferenceLine capacity;
    capacity.y = 51;
    capacity.label = QStringLiteral("Capacity line label across the points");
    data.reference_lines << capacity;
    lse::gui::ChartText note;
    note.x = 1e9;
    note.y = 51;
    note.text = QStringLiteral("A note in the middle");
    data.texts << note;
    data.texts << note;  // the same text twice: the second is dropped

    ChartView view(QStringLiteral("labels"));
    view.setData(data);
    showSized(view);
    QCustomPlot *plot = view.plot();
    const QRectF area = plot->axisRect()->rect();
    QVector<QRectF> drawn;
    int hidden = 0;
    int drawnPointLabels = 0;
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto *text = qobject_cast<QCPItemText *>(plot->item(i));
        if (!text || text->text().isEmpty())
            continue;
        if (!text->visible()) {
            ++hidden;
            continue;
        }
        const QRectF rect = lse::gui::labelPixelRect(text);
        for (const QRectF &other : std::as_const(drawn))
            QVERIFY2(!rect.intersects(other), qPrintable(QStringLiteral("'%1' overlaps another label").arg(text->text())));
        drawn << rect;
        if (text->text().startsWith(QLatin1String("Model"))) {
            ++drawnPointLabels;
            QVERIFY(area.contains(rect));
        }
    }
    QVERIFY(drawnPointLabels >= 3);  // collisions drop labels, not all of them
    QVERIFY(hidden >= 1);
    // The note and the reference label are drawn (they come before point labels).
    QVERIFY(drawn.size() >= drawnPointLabels + 2);
}

// A chart scrolled out of view on a shown page is built and replotted when it next paints, not at
// every setData (issue 20, edit→repaint); reading it (plot(), exports) builds it first.
void TestChartView::chartOutOfViewIsBuiltWhenItComesIntoView() {
    QScrollArea area;
    area.resize(420, 320);
    auto *content = new QWidget;
    auto *layout = new QVBoxLayout(content);
    auto *above = new QWidget;
    above->setMinimumHeight(2000);
    layout->addWidget(above);
    auto *chart = new ChartView(QStringLiteral("deferred"));
    chart->setMinimumHeight(260);
    layout->addWidget(chart);
    area.setWidget(content);
    area.setWidgetResizable(true);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    QCustomPlot *plot = chart->plot();
    QSignalSpy replots(plot, &QCustomPlot::afterReplot);
    chart->setData(lineAndMarker());
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    QCOMPARE(replots.count(), 0);
    QCOMPARE(plot->plottableCount(), 0);       // not built yet
    QCOMPARE(chart->data().series.size(), 3);  // but the data is the new one
    area.ensureWidgetVisible(chart);
    QTRY_VERIFY(replots.count() >= 1);
    QCOMPARE(plot->plottableCount(), 3);

    // Out of view again: setData waits, and plot() builds it on the spot.
    area.verticalScrollBar()->setValue(0);
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    chart->setData(withReferenceLine());
    QCoreApplication::processEvents();
    QCOMPARE(plot->plottableCount(), 3);
    QCOMPARE(chart->plot()->plottableCount(), 1);
    // An export of a chart not painted since its last setData draws the new data.
    chart->setData(stackedBars());
    QTemporaryDir dir;
    QString error;
    QVERIFY2(chart->exportSvg(dir.filePath(QStringLiteral("bars.svg")), &error), qPrintable(error));
    QVERIFY(readAll(dir.filePath(QStringLiteral("bars.svg"))).contains("Optimizer"));
}

// A long curve's tooltips are made when a point is hovered (ChartSeries::point_tooltip).
void TestChartView::lazyPointTooltipIsShownOnHover() {
    ChartData data;
    data.x_label = QStringLiteral("x");
    data.y_label = QStringLiteral("y");
    ChartSeries curve = series(QStringLiteral("Curve"), ChartSeries::Kind::Line, {1, 2, 3}, {1, 4, 9});
    int made = 0;
    curve.point_tooltip = [&made](qsizetype i) {
        ++made;
        return QStringLiteral("point %1 squared").arg(i);
    };
    data.series << curve;
    ChartView view(QStringLiteral("lazy"));
    showSized(view);
    view.setData(data);
    view.plot()->replot();
    QCOMPARE(made, 0);
    QCustomPlot *plot = view.plot();
    const QPointF at(plot->xAxis->coordToPixel(2), plot->yAxis->coordToPixel(4));
    const QString tip = view.toolTipAt(at);
    QVERIFY2(tip.contains(QStringLiteral("point 1 squared")), qPrintable(tip));
    QVERIFY(made >= 1);
}

// A y-axis label longer than the axis is tall wraps onto two lines instead of being cut at both
// ends; the same label on a tall chart stays on one line.
void TestChartView::longYLabelWrapsToTheAxis() {
    ChartData data = withReferenceLine();
    data.y_label = QStringLiteral("Percent of the compute-optimal model's figure");
    ChartView view(QStringLiteral("long-y"));
    view.resize(600, 300);
    view.setData(data);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.plot()->replot();
    QVERIFY2(view.plot()->yAxis->label().contains(QLatin1Char('\n')), qPrintable(view.plot()->yAxis->label()));
    QCOMPARE(view.plot()->yAxis->label().simplified(), data.y_label);
    QCOMPARE(view.data().y_label, data.y_label);  // only the drawn label wraps

    view.resize(600, 900);
    QCoreApplication::processEvents();
    view.plot()->replot();
    QCOMPARE(view.plot()->yAxis->label(), data.y_label);
}

QTEST_MAIN(TestChartView)
// Issue 28 item 24: the capacity label lay across the bars. It takes a spot on its line that
// crosses no bar and stays inside the plot; where every spot crosses one (a single wide bar over
// the line), it is boxed in the background colour so it reads on the bar.
void TestChartView::referenceLabelAvoidsBars() {
    ChartData data;
    data.title = QStringLiteral("Memory per GPU");
    data.categories = {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d"),
                       QStringLiteral("e")};
    ChartSeries bars = series(QStringLiteral("Memory"), ChartSeries::Kind::Bar, {0, 1, 2, 3, 4}, {10, 12, 9, 11, 95});
    bars.stack_group = 0;
    data.series << bars;
    ReferenceLine capacity;
    capacity.y = 80;
    capacity.label = QStringLiteral("NVIDIA H100 SXM5 80GB capacity: 80.0 GB");
    data.reference_lines << capacity;
    const auto labelOf = [](QCustomPlot *plot) -> QCPItemText * {
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)); text && text->text().contains(QLatin1String("capacity")))
                return text;
        return nullptr;
    };
    const auto barRect = [](QCustomPlot *plot, double key, double value) {
        const double half = 0.4;
        return QRectF(QPointF(plot->xAxis->coordToPixel(key - half), plot->yAxis->coordToPixel(value)),
                      QPointF(plot->xAxis->coordToPixel(key + half), plot->yAxis->coordToPixel(0)))
            .normalized();
    };
    {
        ChartView view(QStringLiteral("bars-under-a-line"));
        view.setData(data);
        showSized(view);
        QCustomPlot *plot = view.plot();
        QCPItemText *label = labelOf(plot);
        QVERIFY(label && label->visible());
        const QRectF rect = lse::gui::labelPixelRect(label);
        QVERIFY(QRectF(plot->axisRect()->rect()).contains(rect));
        for (int key = 0; key < 5; ++key)
            QVERIFY2(!rect.intersects(barRect(plot, key, bars.y.at(key))), qPrintable(QString::number(key)));
        QCOMPARE(label->brush().style(), Qt::NoBrush);
    }
    {
        ChartData wide = data;
        wide.categories = {QStringLiteral("stage 0")};
        wide.series.front().x = {0};
        wide.series.front().y = {92};
        ChartView view(QStringLiteral("one-wide-bar"));
        view.setData(wide);
        showSized(view);
        QCPItemText *label = labelOf(view.plot());
        QVERIFY(label && label->visible());
        QVERIFY(QRectF(view.plot()->axisRect()->rect()).contains(lse::gui::labelPixelRect(label)));
        QVERIFY(label->brush().style() != Qt::NoBrush);
    }
}

// Issue 28 item 24: zh_CN roofline labels sat away from their points: the layout box of
// "mlp_up（反向）" ends half an em after its last glyph (a full-width bracket) and a CJK line is
// taller than its glyphs. A point label's box is its ink plus the gap, not its layout box.
void TestChartView::pointLabelGapIsMeasuredFromItsInk() {
    ChartData data;
    data.title = QStringLiteral("Roofline");
    ChartSeries points = series(QStringLiteral("Operators"), ChartSeries::Kind::Marker, {1, 2}, {1, 2});
    const QString text = QString::fromUtf8("mlp_up（反向）");
    points.point_labels << text << QString();
    data.series << points;
    ChartView view(QStringLiteral("ink"));
    view.setData(data);
    showSized(view);
    QCustomPlot *plot = view.plot();
    QCPItemText *label = nullptr;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPItemText *>(plot->item(i)); item && item->text() == text)
            label = item;
    QVERIFY(label && label->visible());
    const QFontMetricsF metrics(label->font());
    const QRectF ink = metrics.tightBoundingRect(text);
    const QRectF layout = metrics.boundingRect(QRectF(), Qt::TextDontClip | Qt::AlignLeft, text);
    QVERIFY2(layout.width() > ink.right() + 3, "the test text has blank space after its ink");
    const QRectF box = lse::gui::labelPixelRect(label);
    const double gap = 6.0;  // the gap point labels keep from their point (chart_annotations.cpp)
    QVERIFY2(box.width() <= ink.width() + gap + 2, qPrintable(QString("box %1 px wide, ink %2").arg(box.width()).arg(ink.width())));
}

#include "test_chart_view.moc"
