// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_data.h"

#include <QWidget>

class QCustomPlot;
class QLabel;

namespace lse::gui {

// A QCustomPlot with everything every chart of the app shares: rendering of ChartData (queued
// replots), hover tooltips with exact values, a formula panel (inputs, formula, source), export to
// PNG / PDF / SVG / CSV, copy to clipboard, and presentation scaling. Pages only build ChartData.
class ChartView : public QWidget {
    Q_OBJECT
public:
    // `id` is a stable file-name stem for exports, e.g. "memory-zero-stages".
    explicit ChartView(const QString &id, QWidget *parent = nullptr);
    ~ChartView() override;

    QString id() const;
    // Shows `data`. A chart on a shown page replots when it next paints (in the window's repaint);
    // one scrolled out of view is built then too.
    void setData(const ChartData &data);
    const ChartData &data() const;
    // The plot with the current data's plottables (built now if setData deferred it); its layout
    // is the last replot's until the next paint.
    QCustomPlot *plot() const;
    // After changing plot() directly: replot at the next paint, with any other pending change.
    void requestReplot();

    // The page's minimum height for the whole chart view. The view raises it while its legend,
    // placed below the plot so that it covers no data, needs more room than that leaves the axes.
    // (Hides QWidget::setMinimumHeight so pages keep calling what they always called.)
    void setMinimumHeight(int height);

    // Presentation mode: larger fonts and thicker lines for a projector.
    void setPresentation(bool presentation);
    bool presentation() const;
    // Follows the application palette (light/dark/high-contrast) when it changes.
    void applyPalette();

    // Each returns false and sets *error (if given) when the file cannot be written.
    bool exportPng(const QString &path, double scale = 2.0, QString *error = nullptr) const;
    bool exportPdf(const QString &path, QString *error = nullptr) const;
    bool exportSvg(const QString &path, QString *error = nullptr) const;
    bool exportCsv(const QString &path, QString *error = nullptr) const;
    QString toCsv() const;
    void copyToClipboard() const;
    // Writes <folder>/<id>.png/.pdf/.svg/.csv; false with *error on the first failure.
    bool exportAll(const QString &folder, QString *error = nullptr) const;

    // Pixel size of PNG/PDF/SVG exports before scaling: the plot's on-screen size, or 800×500
    // while the chart has never been shown (e.g. on a page that was never opened) or is tiny.
    QSize exportSize() const;
    // The hover text (HTML) for the data point at `plotPos` in plot() coordinates; empty if none.
    QString toolTipAt(const QPointF &plotPos) const;
    // The formula panel under the plot (the "ƒ Formula" toolbar button toggles it).
    void setFormulaVisible(bool visible);
    bool formulaVisible() const;

signals:
    void exported(const QString &path);

protected:
    void changeEvent(QEvent *event) override;

private:
    class Private;
    Private *d;
};

}  // namespace lse::gui
