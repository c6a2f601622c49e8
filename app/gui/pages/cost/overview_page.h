// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/page.h"

#include <QVector>

class QFrame;
class QGridLayout;
class QLabel;

namespace lse::gui {

class HeadlineCard;

// The answer at a glance: headline cards (parameters, training FLOPs, days, GPU-hours, cost,
// memory per GPU against capacity), a plain-language summary and a note on how much the headline
// depends on the vendor's sparse vs dense peak.
class OverviewPage : public Page {
    Q_OBJECT
public:
    explicit OverviewPage(QWidget *parent = nullptr);

    // The page's id and title before it exists (the navigator lists pages built on first show).
    static QString pageId();
    static QString pageTitle();
    QString id() const override { return pageId(); }
    QString title() const override { return pageTitle(); }
    void retranslate() override;

    // The texts shown, for tests and accessibility tools.
    QString summaryText() const;
    QString peakNoteText() const;
    bool showsFits() const;

protected:
    void estimateChanged(const Scenario *previous) override;
    void applyPresentation(bool presentation) override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    enum CardId { Parameters, ActiveParameters, TrainingFlops, Days, GpuHours, Cost, Memory, CardCount };

    void refresh();
    void applyFonts();
    void placeCards(int columns);  // the headline cards in `columns` columns, memory on a full row
    // Places the cards in the most columns (up to the mode's maximum) that fit the page's width, so a
    // 1024-pixel window beside the editor shows every card whole instead of a horizontal scroll bar.
    void updateCardColumns();
    void fillCards(const Scenario &scenario, const Estimate &estimate);
    void fillSummary(const Scenario &scenario, const Estimate &estimate);
    void fillPeakNote(const Scenario &scenario);

    QGridLayout *card_grid_ = nullptr;
    QLabel *heading_;
    QVector<HeadlineCard *> cards_;
    QLabel *fit_badge_;
    QLabel *summary_;
    QFrame *note_frame_;
    QLabel *note_title_;
    QLabel *note_;
    int card_columns_ = 0;
    void nameLessonRegions();
};

}  // namespace lse::gui
