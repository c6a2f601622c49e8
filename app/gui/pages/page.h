// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cost/estimate.h"
#include "lessons/lesson.h"

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

signals:
    // The page became ready (see isReady()).
    void ready();

    // The page asks the main window to replace the document's scenario (one undoable step named
    // `description`, e.g. "Apply layout tp 8 · pp 4"); pages never edit the document themselves.
    void scenarioEditRequested(const lse::Scenario &scenario, const QString &description);
};

}  // namespace lse::gui
