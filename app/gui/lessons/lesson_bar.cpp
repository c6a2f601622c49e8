// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_bar.h"

#include "lessons/lesson_controller.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>
#include <QVBoxLayout>

namespace lse::gui {

namespace {

// The step text is what the room reads: a fifth larger than the interface's own text.
constexpr double kTextScale = 1.2;

QLabel *wrappingLabel()
{
    auto *label = new QLabel;
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

}  // namespace

LessonBar::LessonBar(LessonController *controller, QWidget *parent)
    : QFrame(parent), controller_(controller), title_label_(new QLabel), step_label_(new QLabel),
      text_label_(wrappingLabel()), question_label_(wrappingLabel()), answer_label_(wrappingLabel()),
      error_label_(wrappingLabel()), reveal_button_(new QPushButton(tr("Reveal"))),
      previous_button_(new QPushButton(QStringLiteral("◀"))), next_button_(new QPushButton(QStringLiteral("▶"))),
      restart_button_(new QPushButton(QStringLiteral("⟲"))), close_button_(new QPushButton(QStringLiteral("✕")))
{
    setObjectName(QStringLiteral("lessonBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::AlternateBase);
    reveal_button_->setToolTip(tr("Show the answer (Next, Space, Page Down)"));
    previous_button_->setToolTip(tr("Previous step (Page Up, Left, Up)"));
    next_button_->setToolTip(tr("Next step (Page Down, Right, Down, Space)"));
    restart_button_->setToolTip(tr("Back to the first step (Home)"));
    close_button_->setToolTip(tr("Leave the lesson (Esc); P toggles the big pointer"));
    // Symbols keep the bar narrow enough for a 1024-pixel projector beside the navigation; the
    // tooltips and accessible names say what each does and its keys.
    previous_button_->setAccessibleName(tr("Previous step"));
    next_button_->setAccessibleName(tr("Next step"));
    restart_button_->setAccessibleName(tr("Restart the lesson"));
    close_button_->setAccessibleName(tr("Leave the lesson"));
    for (QPushButton *button : {reveal_button_, previous_button_, next_button_, restart_button_, close_button_})
        button->setFocusPolicy(Qt::NoFocus);  // Space must mean Next, not "click the focused button"
    title_label_->setWordWrap(true);
    // The stale banner's amber: a warning readable in the light, dark and high-contrast palettes.
    error_label_->setStyleSheet(
        QStringLiteral("QLabel { background-color: #fff4ce; color: #3d2e00; border: 1px solid #c69026; padding: 2px; }"));

    auto *header = new QHBoxLayout;
    header->addWidget(title_label_, 1);
    header->addWidget(step_label_);
    header->addSpacing(12);
    header->addWidget(previous_button_);
    header->addWidget(next_button_);
    header->addWidget(restart_button_);
    header->addWidget(close_button_);
    auto *question_row = new QHBoxLayout;
    question_row->addWidget(question_label_, 1);
    question_row->addWidget(reveal_button_, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->setSpacing(4);
    layout->addLayout(header);
    layout->addWidget(text_label_);
    layout->addLayout(question_row);
    layout->addWidget(answer_label_);
    layout->addWidget(error_label_);

    connect(reveal_button_, &QPushButton::clicked, controller_, &LessonController::reveal);
    connect(previous_button_, &QPushButton::clicked, controller_, &LessonController::previous);
    connect(next_button_, &QPushButton::clicked, controller_, &LessonController::next);
    connect(restart_button_, &QPushButton::clicked, controller_, &LessonController::restart);
    connect(close_button_, &QPushButton::clicked, this, &LessonBar::closeRequested);
    connect(controller_, &LessonController::stepChanged, this, [this] {
        setError({});
        refresh();
    });
    connect(controller_, &LessonController::answerRevealedChanged, this, &LessonBar::refresh);
    applyFonts();
    refresh();
}

void LessonBar::setPresentation(bool presentation)
{
    if (presentation_ == presentation)
        return;
    presentation_ = presentation;
    applyFonts();
    updateGeometry();
}

void LessonBar::setError(const QString &message)
{
    error_label_->setText(message);
    error_label_->setVisible(!message.isEmpty());
}

QString LessonBar::stepLabelText() const { return step_label_->text(); }
QString LessonBar::textShown() const { return text_label_->text(); }
QString LessonBar::answerShown() const { return answer_label_->isVisibleTo(this) ? answer_label_->text() : QString(); }
QString LessonBar::errorShown() const { return error_label_->isVisibleTo(this) ? error_label_->text() : QString(); }

void LessonBar::refresh()
{
    if (!controller_->isRunning())
        return;
    title_label_->setText(controller_->title());
    step_label_->setText(tr("Step %1/%2").arg(controller_->stepIndex() + 1).arg(controller_->stepCount()));
    text_label_->setText(controller_->text());
    const QString question = controller_->question();
    question_label_->setText(question.isEmpty() ? QString() : tr("Question: %1").arg(question));
    question_label_->setVisible(!question.isEmpty());
    reveal_button_->setVisible(!question.isEmpty());
    reveal_button_->setEnabled(!controller_->answerRevealed());
    answer_label_->setText(tr("Answer: %1").arg(controller_->answer()));
    answer_label_->setVisible(!question.isEmpty() && controller_->answerRevealed());
    previous_button_->setEnabled(controller_->stepIndex() > 0);
    next_button_->setEnabled(controller_->stepIndex() + 1 < controller_->stepCount()
                             || (!question.isEmpty() && !controller_->answerRevealed())
                             || controller_->stepAnimates());
    // Another text needs another height: the window's dock area asks again (it keeps the hint it
    // read otherwise, and the page below kept its old height).
    updateGeometry();
    if (QWidget *dock = parentWidget()) {
        dock->updateGeometry();
        if (QWidget *window = dock->parentWidget(); window && window->layout())
            window->layout()->invalidate();
    }
}

void LessonBar::applyFonts()
{
    // Derived from the bar's own (inherited) font, so presentation mode's larger font scales it.
    applying_fonts_ = true;
    QFont title = font();
    title.setBold(true);
    title_label_->setFont(title);
    step_label_->setFont(title);
    QFont text = font();
    text.setPointSizeF(font().pointSizeF() * (presentation_ ? 1.0 : kTextScale));
    text_label_->setFont(text);
    question_label_->setFont(text);
    QFont answer = text;
    answer.setBold(true);
    answer_label_->setFont(answer);
    // Styles give text buttons a minimum width of several letters: a symbol needs far less.
    const int symbol_width = fontMetrics().height() * 2 + 6;
    for (QPushButton *button : {previous_button_, next_button_, restart_button_, close_button_})
        button->setFixedWidth(symbol_width);
    applying_fonts_ = false;
}

QSize LessonBar::sizeHint() const
{
    QSize hint = QFrame::sizeHint();
    if (width() > 0 && layout())
        hint.setHeight(layout()->totalHeightForWidth(width()) + 2 * frameWidth());
    return hint;
}

QSize LessonBar::minimumSizeHint() const
{
    QSize hint = QFrame::minimumSizeHint();
    if (width() > 0 && layout())
        hint.setHeight(layout()->totalHeightForWidth(width()) + 2 * frameWidth());
    return hint;
}

void LessonBar::resizeEvent(QResizeEvent *event)
{
    QFrame::resizeEvent(event);
    // Another width wraps the texts into another number of lines.
    if (event->oldSize().width() != event->size().width())
        updateGeometry();
}

void LessonBar::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange && !applying_fonts_)
        applyFonts();
    if (event->type() == QEvent::LanguageChange) {
        // Rebuilt windows re-create the bar; a bar that stays only needs its step line again.
        refresh();
    }
    QFrame::changeEvent(event);
}

}  // namespace lse::gui
