// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/page.h"

class QTabWidget;

namespace lse::gui {

class PageSection;

// A page whose content is a row of tabs, one PageSection each. Every section receives every
// estimate (hidden tabs included, so export-all renders them current); charts() is the union.
class SectionedPage : public Page {
    Q_OBJECT
public:
    explicit SectionedPage(QWidget *parent = nullptr);

    QList<ChartView *> charts() const override;
    void retranslate() override;
    bool isReady() const override;
    // A lesson step names its section ("architecture/choices") and the main window selects it
    // before applying the step, so settings and animation go to the current section.
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    bool advanceLessonAnimation() override;
    bool restartLessonAnimation() override;
    QList<QWidget *> lessonAnimationWidgets() const override;
    PageSection *currentSection() const;

    QTabWidget *tabs() const { return tabs_; }
    QStringList sectionIds() const;
    // Shows the tab of the section named `id`; false when there is none.
    bool selectSection(const QString &id);
    const QList<PageSection *> &sections() const { return sections_; }

protected:
    void estimateChanged(const Scenario *previous) override;
    // Each section sizes its own charts (PageSection::setPresentation).
    void applyPresentation(bool presentation) override;
    QList<ChartView *> presentationCharts() const override { return {}; }
    // Appends `section` as a tab (the page takes ownership).
    void addSection(PageSection *section);

private:
    QTabWidget *tabs_;
    QList<PageSection *> sections_;
};

}  // namespace lse::gui
