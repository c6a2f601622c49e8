// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace lse::gui {

class LessonController;

// The slim bar across the top of the window while a lesson runs: title, "Step n/N", the step's text, its
// question with a Reveal button, and Previous / Next / Restart / Close. It follows the controller;
// its texts scale with the application font (presentation mode).
class LessonBar : public QFrame {
    Q_OBJECT
public:
    explicit LessonBar(LessonController *controller, QWidget *parent = nullptr);

    // Presentation mode already sets the whole window's text 1.5 times larger: there the step's
    // text is as large as the page's, not a fifth larger again, so the page keeps the height a
    // projector's 768 pixels can spare.
    void setPresentation(bool presentation);

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
    // As high as its texts need at its width (word-wrapped): the window's top dock area, where it
    // sits, asks its size hints, not its height for a width.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void closeRequested();

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

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
    bool presentation_ = false;
};

}  // namespace lse::gui
