// SPDX-License-Identifier: GPL-3.0-or-later
#include "stale_banner.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>

#include <algorithm>

namespace lse::gui {

namespace {

// Amber like a warning, readable in the light, dark and high-contrast palettes alike because it
// sets both colours.
const char *const kBannerStyle =
    "QFrame#staleBanner { background-color: #fff4ce; border-bottom: 1px solid #c69026; }"
    "QLabel { color: #3d2e00; }";

}  // namespace

StaleBanner::StaleBanner(QWidget *parent) : QFrame(parent), label_(new QLabel(this))
{
    setObjectName(QStringLiteral("staleBanner"));
    setStyleSheet(QString::fromLatin1(kBannerStyle));
    label_->setObjectName(QStringLiteral("staleBannerText"));
    label_->setWordWrap(true);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->addWidget(label_, 1);
    setVisible(false);
}

void StaleBanner::setProblems(int problem_count, bool has_last_valid)
{
    const bool was_stale = isStale();
    problem_count_ = std::max(0, problem_count);
    has_last_valid_ = has_last_valid;
    retranslate();
    setVisible(isStale());
    if (was_stale != isStale())
        emit staleChanged(isStale());
}

QString StaleBanner::text() const { return label_->text(); }

void StaleBanner::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void StaleBanner::retranslate()
{
    if (!isStale()) {
        label_->clear();
        return;
    }
    label_->setText(has_last_valid_
                        ? tr("Showing the last valid scenario — %n problem(s) in the current one (see the editor).",
                             nullptr, problem_count_)
                        : tr("No valid scenario yet — %n problem(s) in the current one (see the editor).", nullptr,
                             problem_count_));
}

}  // namespace lse::gui
