// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/parallel/step_player.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QPushButton>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSlider>
#include <QTimer>
#include <QToolButton>

#include <algorithm>

namespace lse::gui {

StepPlayer::StepPlayer(QWidget *page, int interval_ms)
    : QWidget(page),
      back_button_(new QToolButton(this)),
      play_button_(new QPushButton(this)),
      forward_button_(new QToolButton(this)),
      slider_(new QSlider(Qt::Horizontal, this)),
      timer_(new QTimer(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(back_button_);
    layout->addWidget(play_button_);
    layout->addWidget(forward_button_);
    layout->addWidget(slider_, 1);
    slider_->setPageStep(1);
    slider_->setRange(0, 0);
    timer_->setInterval(interval_ms);

    connect(timer_, &QTimer::timeout, this, &StepPlayer::onTimer);
    connect(slider_, &QSlider::valueChanged, this, [this](int value) { setCurrentStep(value); });
    connect(back_button_, &QToolButton::clicked, this, &StepPlayer::stepBack);
    connect(forward_button_, &QToolButton::clicked, this, &StepPlayer::stepForward);
    connect(play_button_, &QPushButton::clicked, this, [this] { setPlaying(!isPlaying()); });
    const auto shortcut = [this, page](Qt::Key key, auto slot) {
        auto *action = new QShortcut(QKeySequence(key), page);
        action->setContext(Qt::WidgetWithChildrenShortcut);
        connect(action, &QShortcut::activated, this, slot);
    };
    shortcut(Qt::Key_Space, [this] { setPlaying(!isPlaying()); });
    shortcut(Qt::Key_Left, [this] { stepBack(); });
    shortcut(Qt::Key_Right, [this] { stepForward(); });
    retranslate();
    updateControls();
}

void StepPlayer::setStepCount(int count)
{
    step_count_ = std::max(0, count);
    {
        const QSignalBlocker blocker(slider_);
        slider_->setRange(0, step_count_);
    }
    if (step_ > step_count_)
        setCurrentStep(step_count_);
    else
        updateControls();
}

void StepPlayer::setCurrentStep(int step)
{
    step = std::clamp(step, 0, step_count_);
    if (step == step_ && slider_->value() == step)
        return;
    step_ = step;
    updateControls();
    Q_EMIT currentStepChanged(step_);
}

void StepPlayer::stepForward() { setCurrentStep(step_ + 1); }

void StepPlayer::stepBack() { setCurrentStep(step_ - 1); }

bool StepPlayer::advance()
{
    if (step_ >= step_count_)
        return false;
    stepForward();
    return true;
}

void StepPlayer::restart()
{
    setPlaying(false);
    setCurrentStep(0);
}

bool StepPlayer::isPlaying() const { return timer_->isActive(); }

void StepPlayer::setPlaying(bool playing)
{
    if (playing == isPlaying())
        return;
    if (playing) {
        if (step_ >= step_count_)
            setCurrentStep(0);  // replay from the start
        timer_->start();
    } else {
        timer_->stop();
    }
    retranslate();
}

bool StepPlayer::handleKey(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Space:
        setPlaying(!isPlaying());
        return true;
    case Qt::Key_Left:
        stepBack();
        return true;
    case Qt::Key_Right:
        stepForward();
        return true;
    default:
        return false;
    }
}

void StepPlayer::setToolTips(const QString &back, const QString &forward)
{
    back_button_->setToolTip(back);
    forward_button_->setToolTip(forward);
}

void StepPlayer::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void StepPlayer::hideEvent(QHideEvent *event)
{
    setPlaying(false);
    QWidget::hideEvent(event);
}

void StepPlayer::retranslate()
{
    back_button_->setText(tr("◀ Back"));
    forward_button_->setText(tr("Step ▶"));
    play_button_->setText(isPlaying() ? tr("Pause") : tr("Play"));
    play_button_->setToolTip(tr("Play or pause the animation (Space)"));
}

void StepPlayer::updateControls()
{
    back_button_->setEnabled(step_ > 0);
    forward_button_->setEnabled(step_ < step_count_);
    const QSignalBlocker blocker(slider_);
    slider_->setValue(step_);
}

void StepPlayer::onTimer()
{
    stepForward();
    if (step_ >= step_count_)
        setPlaying(false);
}

}  // namespace lse::gui
