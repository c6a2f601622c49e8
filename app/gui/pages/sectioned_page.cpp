// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/sectioned_page.h"

#include "pages/page_section.h"

#include <QTabWidget>
#include <QVBoxLayout>

namespace lse::gui {

SectionedPage::SectionedPage(QWidget *parent)
    : Page(parent), tabs_(new QTabWidget(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    tabs_->setDocumentMode(true);
    layout->addWidget(tabs_);
}

void SectionedPage::addSection(PageSection *section)
{
    sections_.append(section);
    tabs_->addTab(section, section->title());
    connect(section, &PageSection::scenarioEditRequested, this, &Page::scenarioEditRequested);
    connect(section, &PageSection::ready, this, [this] {
        if (isReady())
            emit ready();
    });
}

void SectionedPage::estimateChanged(const Scenario * /*previous*/)
{
    for (PageSection *section : std::as_const(sections_))
        section->showEstimate(scenario(), estimate());
}

QList<ChartView *> SectionedPage::charts() const
{
    QList<ChartView *> all;
    for (PageSection *section : sections_)
        all += section->charts();
    return all;
}

void SectionedPage::applyPresentation(bool presentation)
{
    for (PageSection *section : std::as_const(sections_))
        section->setPresentation(presentation);
}

void SectionedPage::retranslate()
{
    for (int i = 0; i < sections_.size(); ++i) {
        sections_[i]->retranslate();
        tabs_->setTabText(i, sections_[i]->title());
    }
}

QStringList SectionedPage::sectionIds() const
{
    QStringList ids;
    for (PageSection *section : sections_)
        ids << section->id();
    return ids;
}

bool SectionedPage::selectSection(const QString &id)
{
    const int index = int(sectionIds().indexOf(id));
    if (index < 0)
        return false;
    tabs_->setCurrentIndex(index);
    return true;
}

PageSection *SectionedPage::currentSection() const
{
    return sections_.value(tabs_->currentIndex());
}

QJsonObject SectionedPage::lessonSettings() const
{
    const PageSection *section = currentSection();
    return section ? section->lessonSettings() : QJsonObject();
}

bool SectionedPage::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    PageSection *section = currentSection();
    return section ? section->applyLessonSettings(settings, error) : Page::applyLessonSettings(settings, error);
}

bool SectionedPage::advanceLessonAnimation()
{
    PageSection *section = currentSection();
    return section && section->advanceLessonAnimation();
}

bool SectionedPage::restartLessonAnimation()
{
    PageSection *section = currentSection();
    return section && section->restartLessonAnimation();
}

QList<QWidget *> SectionedPage::lessonAnimationWidgets() const
{
    const PageSection *section = currentSection();
    return section ? section->lessonAnimationWidgets() : QList<QWidget *>();
}

bool SectionedPage::isReady() const
{
    for (PageSection *section : sections_)
        if (!section->isReady())
            return false;
    return true;
}

}  // namespace lse::gui
