// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QKeyEvent;
class QPushButton;
class QSlider;
class QTimer;
class QToolButton;

namespace lse::gui {

// The step controls of an animated page (Collectives, Pipeline, ZeRO): "◀ Step", Play/Pause,
// "Step ▶" and a slider over steps 0..stepCount(), a timer that steps while playing, and the keys
// Space (play/pause), Left and Right (step) anywhere on the page that owns the player. One
// mechanism, so every animated page answers the same keys the same way.
class StepPlayer : public QWidget {
    Q_OBJECT
public:
    // `page` receives the Space/Left/Right shortcuts (active while focus is on the page or one of
    // its children; line edits and spin boxes keep their cursor keys through ShortcutOverride).
    StepPlayer(QWidget *page, int interval_ms);

    int stepCount() const { return step_count_; }
    // Sets the last step; the current one is clamped into 0..count (no signal when it stays).
    void setStepCount(int count);
    int currentStep() const { return step_; }
    void setCurrentStep(int step);
    void stepForward();
    void stepBack();
    // One step forward for a lesson's Next; false (nothing changes) at the last step.
    bool advance();
    // Stops playing and goes back to step 0, where an animated lesson step starts.
    void restart();
    bool isPlaying() const;
    // Playing from the last step replays from step 0; playing stops at the last step.
    void setPlaying(bool playing);
    // For the page's keyPressEvent (key events sent to the page itself, not through shortcuts):
    // handles Space, Left and Right and returns true, false for any other key.
    bool handleKey(QKeyEvent *event);
    // Tool tips name the keys; `what` says what a step is ("Previous step", "Previous stage", ...).
    void setToolTips(const QString &back, const QString &forward);

signals:
    void currentStepChanged(int step);

protected:
    void changeEvent(QEvent *event) override;
    // Nobody watches the animation on another page.
    void hideEvent(QHideEvent *event) override;

private:
    void retranslate();
    void updateControls();
    void onTimer();

    QToolButton *back_button_;
    QPushButton *play_button_;
    QToolButton *forward_button_;
    QSlider *slider_;
    QTimer *timer_;
    int step_count_ = 0;
    int step_ = 0;
};

}  // namespace lse::gui
