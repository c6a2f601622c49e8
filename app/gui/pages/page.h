// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cost/estimate.h"

#include <QList>
#include <QWidget>

namespace lse::gui {

class ChartView;

// One page of the main window's page area. Pages read the current scenario and its estimate and
// format them; every figure they show comes from a core function.
class Page : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;

    // Stable name for --page and export folders ("overview", "memory", ...).
    virtual QString id() const = 0;
    // Translated title for the navigation list.
    virtual QString title() const = 0;
    // Called with the newest valid scenario and its estimate whenever either changes.
    virtual void showEstimate(const Scenario &scenario, const Estimate &estimate) = 0;
    // The charts on this page (for export-all and presentation scaling).
    virtual QList<ChartView *> charts() const { return {}; }
    virtual void setPresentation(bool presentation);
    // Re-translate labels after a language change.
    virtual void retranslate() {}
    // Whether the page shows its final state for the last showEstimate: false while work it
    // started in the background (the layout search) is still running. Export and screenshots
    // wait for ready() before rendering the page.
    virtual bool isReady() const { return true; }

signals:
    // The page became ready (see isReady()).
    void ready();

    // The page asks the main window to replace the document's scenario (one undoable step named
    // `description`, e.g. "Apply layout tp 8 · pp 4"); pages never edit the document themselves.
    void scenarioEditRequested(const lse::Scenario &scenario, const QString &description);
};

}  // namespace lse::gui
