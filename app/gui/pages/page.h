// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cost/estimate.h"
#include "lessons/lesson.h"
#include "scenario/scenario_json.h"

#include <QJsonObject>
#include <QRect>
#include <QStringList>

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
    // Called with the newest valid scenario and its estimate whenever either changes (MainWindow
    // calls it for the visible page and defers hidden ones until shown). Stores both (scenario(),
    // estimate(), hasEstimate()), lets the page draw them (estimateChanged) and emits estimateShown.
    void showEstimate(const Scenario &scenario, const Estimate &estimate);
    bool hasEstimate() const { return has_estimate_; }
    // The last scenario and estimate showEstimate received. Before the first: defaultScenario(), so
    // pages that draw without one (ZeRO, Collectives) start from it, and an empty estimate.
    const Scenario &scenario() const { return scenario_; }
    const Estimate &estimate() const { return estimate_; }

    // The charts on this page (for export-all and presentation scaling).
    virtual QList<ChartView *> charts() const { return {}; }
    // Presentation mode (projector): every chart of presentationCharts() switches its fonts and,
    // when the page set them (setChartMinimumHeights), its minimum height; then the page adjusts
    // the rest (applyPresentation) and presentationApplied is emitted.
    void setPresentation(bool presentation);
    bool presentation() const { return presentation_; }
    // Re-translate labels after a language change. Page::changeEvent calls it on every
    // QEvent::LanguageChange and then emits retranslated().
    virtual void retranslate() {}
    // Whether the page shows its final state for the last showEstimate: false while work it
    // started in the background (the layout search) is still running. Export and screenshots
    // wait for ready() before rendering the page.
    virtual bool isReady() const { return true; }

    // --- Lessons (core/lessons, app/gui/lessons): what a lesson step sets and points at here. ---
    // The page's own settings that a lesson step restores (the roofline's phase and batch, the
    // pipeline schedule, the tokenizer text, ...), as JSON; the keys are the page's own and each is
    // documented in docs/lesson-pages.md. "Record step" stores what this returns.
    virtual QJsonObject lessonSettings() const { return {}; }
    // Applies `settings` (a subset of lessonSettings()'s keys; keys left out keep their value).
    // An unknown key or a bad value changes nothing and returns false with *error naming the key
    // and the rule ("phase: expected train|prefill|decode, got 'forward'").
    virtual bool applyLessonSettings(const QJsonObject &settings, QString *error);
    // The highlight targets the page offers for `kind` (Field is the editor's, not a page's): by
    // default every named chart's series ("chart-id/series name") and points
    // ("chart-id/series name/index"), every named table's rows ("table-id/first column text") and
    // every named region (a child widget's objectName, or a chart's id for the whole chart); a series
    // or row may also be named by its index from 0. Pages may add their own.
    virtual QStringList lessonTargets(HighlightKind kind) const;
    // Where `target` is, in this page's coordinates; a null rectangle when it is not on the page or
    // not visible now.
    virtual QRect lessonTargetRect(HighlightKind kind, const QString &target) const;
    // A step that animates (page_settings "animate": true) advances the page's own animation (the
    // collective's transfers, the pipeline timeline, the BPE merges) one step per Next; false when
    // the animation is at its end (or the page has none), and Next goes to the next lesson step.
    virtual bool advanceLessonAnimation() { return false; }
    // Puts the page's animation back to its first step (entering an animated step); false if none.
    virtual bool restartLessonAnimation() { return false; }
    // Where the animation plays (the ring and the buffers of a collective, the Gantt chart): an
    // animated step shows these beside its highlight target, scrolled or shrunk into view.
    virtual QList<QWidget *> lessonAnimationWidgets() const { return {}; }

signals:
    // The page became ready (see isReady()).
    void ready();
    // showEstimate stored a new scenario and estimate and the page drew them.
    void estimateShown();
    // A language change re-translated the page (after retranslate()).
    void retranslated();
    // setPresentation(presentation) finished sizing the page's charts and controls.
    void presentationApplied(bool presentation);

    // The page asks the main window to replace the document's scenario (one undoable step named
    // `description`, e.g. "Apply layout tp 8 · pp 4"); pages never edit the document themselves.
    void scenarioEditRequested(const lse::Scenario &scenario, const QString &description);

protected:
    // Draws scenario() and estimate() after showEstimate stored them. `previous` is the scenario
    // shown before, nullptr the first time: pages that follow some of the scenario's settings (the
    // ZeRO stage, the pipeline depth) re-seed their controls only when those changed. Pages that
    // do not depend on the scenario keep the default, which does nothing.
    virtual void estimateChanged(const Scenario *previous);
    // The page's own presentation changes beyond its charts' fonts and minimum heights (layouts,
    // tables, fonts derived from the application font); presentation() is already the new mode.
    virtual void applyPresentation(bool /*presentation*/) {}
    // The charts setPresentation switches: charts() unless the page shows some only after a run
    // (charts() lists only charts with data, for export-all) and must size them all.
    virtual QList<ChartView *> presentationCharts() const { return charts(); }
    // Minimum heights setPresentation gives every chart of presentationCharts(), in pixels; pages
    // that never call this leave their charts' heights to their layout.
    void setChartMinimumHeights(int normal_px, int presentation_px);
    // QEvent::LanguageChange → retranslate() (+ retranslated()); pages that react to other
    // changes (font, palette) override this and call Page::changeEvent first.
    void changeEvent(QEvent *event) override;

private:
    Scenario scenario_ = defaultScenario();
    Estimate estimate_;
    bool has_estimate_ = false;
    bool presentation_ = false;
    int chart_minimum_height_px_ = 0;
    int presentation_chart_minimum_height_px_ = 0;
};

}  // namespace lse::gui
