// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace lse::gui {

class LessonController;

// The slim bar above the page area while a lesson runs: title, "Step n/N", the step's text, its
// question with a Reveal button, and Previous / Next / Restart / Close. It follows the controller;
// its texts scale with the application font (presentation mode).
class LessonBar : public QFrame {
    Q_OBJECT
public:
    explicit LessonBar(LessonController *controller, QWidget *parent = nullptr);

    // A message under the text, e.g. page settings a step could not apply; empty hides it.
    void setError(const QString &message);
    QString stepLabelText() const;
    QString textShown() const;
    QString answerShown() const;  // empty while the answer is hidden
    QString errorShown() const;
    QPushButton *revealButton() const { return reveal_button_; }
    QPushButton *previousButton() const { return previous_button_; }
    QPushButton *nextButton() const { return next_button_; }
    QPushButton *restartButton() const { return restart_button_; }
    QPushButton *closeButton() const { return close_button_; }

signals:
    void closeRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void refresh();
    void applyFonts();

    LessonController *controller_;
    QLabel *title_label_;
    QLabel *step_label_;
    QLabel *text_label_;
    QLabel *question_label_;
    QLabel *answer_label_;
    QLabel *error_label_;
    QPushButton *reveal_button_;
    QPushButton *previous_button_;
    QPushButton *next_button_;
    QPushButton *restart_button_;
    QPushButton *close_button_;
    bool applying_fonts_ = false;
};

}  // namespace lse::gui
