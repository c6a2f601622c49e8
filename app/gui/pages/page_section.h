// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cost/estimate.h"

#include <QJsonObject>
#include <QList>
#include <QWidget>

namespace lse::gui {

class ChartView;

// One tab of a page made of several independent parts (the Architecture page's atlas, design
// choices and ablations). A section has a page's life cycle without being a navigation entry:
// the page forwards showEstimate, presentation and retranslation, and relays the signals.
class PageSection : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;

    // Stable name after the page's for --page, e.g. "architecture/choices".
    virtual QString id() const = 0;
    // Translated tab title.
    virtual QString title() const = 0;
    virtual void showEstimate(const Scenario &scenario, const Estimate &estimate) = 0;
    virtual QList<ChartView *> charts() const { return {}; }
    virtual void setPresentation(bool presentation);
    // Re-translate labels; PageSection::changeEvent calls it on every QEvent::LanguageChange.
    virtual void retranslate() {}
    virtual bool isReady() const { return true; }

    // The lesson interface of Page (see page.h), per section: SectionedPage forwards a step's
    // settings and animation to the section the step names ("architecture/choices").
    virtual QJsonObject lessonSettings() const { return {}; }
    virtual bool applyLessonSettings(const QJsonObject &settings, QString *error);
    virtual bool advanceLessonAnimation() { return false; }
    virtual bool restartLessonAnimation() { return false; }
    virtual QList<QWidget *> lessonAnimationWidgets() const { return {}; }  // see Page's

signals:
    void ready();
    // As Page::scenarioEditRequested: one undoable replacement of the document's scenario.
    void scenarioEditRequested(const lse::Scenario &scenario, const QString &description);

protected:
    // QEvent::LanguageChange → retranslate(), as Page does; sections reacting to other changes
    // (font, palette) override this and call PageSection::changeEvent first.
    void changeEvent(QEvent *event) override;
};

}  // namespace lse::gui
