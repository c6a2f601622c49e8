// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_recorder_step_editor.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QTextEdit>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <utility>

namespace lse::gui {
namespace {

constexpr std::array kHighlightKinds = {HighlightKind::ChartSeries, HighlightKind::ChartPoint,
                                        HighlightKind::TableRow, HighlightKind::Field, HighlightKind::Region};

std::string plain(const QString &text) { return text.trimmed().toStdString(); }

QTextEdit *newTextEdit(QWidget *parent)
{
    auto *edit = new QTextEdit(parent);
    edit->setAcceptRichText(false);  // lesson texts are plain; QTextEdit keeps its own undo (Ctrl+Z)
    edit->setTabChangesFocus(true);
    edit->setMinimumHeight(70);
    return edit;
}

}  // namespace

LessonRecorderStepEditor::LessonRecorderStepEditor(const QString &page_id,
                                                   std::function<QStringList(HighlightKind)> targets,
                                                   QWidget *parent)
    : QDialog(parent), targets_(std::move(targets))
{
    setWindowTitle(tr("Record step on page %1").arg(page_id));
    text_en_ = newTextEdit(this);
    text_en_->setObjectName(QStringLiteral("text_en"));
    text_en_->setToolTip(tr("2–5 sentences in English (required). Cite engine figures as {time.days}."));
    text_zh_ = newTextEdit(this);
    text_zh_->setObjectName(QStringLiteral("text_zh_CN"));
    text_zh_->setToolTip(tr("The same text in Simplified Chinese (optional; English is shown where missing)."));
    question_en_ = new QLineEdit(this);
    question_en_->setToolTip(tr("An optional question; the next key reveals its answer."));
    question_zh_ = new QLineEdit(this);
    answer_en_ = new QLineEdit(this);
    answer_en_->setToolTip(tr("The answer, hidden until revealed (required with a question)."));
    answer_zh_ = new QLineEdit(this);

    highlight_kind_ = new QComboBox(this);
    highlight_kind_->setToolTip(tr("What the step points at on the page."));
    highlight_kind_->addItem(tr("Nothing"));
    for (HighlightKind kind : kHighlightKinds)
        highlight_kind_->addItem(QString::fromUtf8(toString(kind).data(), qsizetype(toString(kind).size())),
                                 int(kind));
    highlight_target_ = new QComboBox(this);
    highlight_target_->setEditable(true);  // a field path or a target the page adds later
    highlight_target_->setToolTip(tr("The targets this page offers for the chosen kind."));

    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *form = new QFormLayout;
    form->addRow(tr("Text (English):"), text_en_);
    form->addRow(tr("Text (Chinese):"), text_zh_);
    form->addRow(tr("Question (English):"), question_en_);
    form->addRow(tr("Question (Chinese):"), question_zh_);
    form->addRow(tr("Answer (English):"), answer_en_);
    form->addRow(tr("Answer (Chinese):"), answer_zh_);
    form->addRow(tr("Highlight:"), highlight_kind_);
    form->addRow(tr("Target:"), highlight_target_);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons_);

    connect(highlight_kind_, &QComboBox::currentIndexChanged, this, [this] {
        fillTargets();
        updateAcceptable();
    });
    connect(highlight_target_, &QComboBox::currentTextChanged, this, &LessonRecorderStepEditor::updateAcceptable);
    connect(text_en_, &QTextEdit::textChanged, this, &LessonRecorderStepEditor::updateAcceptable);
    connect(question_en_, &QLineEdit::textChanged, this, &LessonRecorderStepEditor::updateAcceptable);
    connect(answer_en_, &QLineEdit::textChanged, this, &LessonRecorderStepEditor::updateAcceptable);
    fillTargets();
    updateAcceptable();
}

void LessonRecorderStepEditor::fillTargets()
{
    highlight_target_->clear();
    const QVariant kind = highlight_kind_->currentData();
    highlight_target_->setEnabled(kind.isValid());
    if (kind.isValid() && targets_)
        highlight_target_->addItems(targets_(HighlightKind(kind.toInt())));
}

// OK only for what the lesson file accepts: English text, and an answer with a question.
void LessonRecorderStepEditor::updateAcceptable()
{
    const bool has_text = !text_en_->toPlainText().trimmed().isEmpty();
    const bool question_complete =
        question_en_->text().trimmed().isEmpty() == answer_en_->text().trimmed().isEmpty();
    const bool target_given =
        !highlight_kind_->currentData().isValid() || !highlight_target_->currentText().trimmed().isEmpty();
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(has_text && question_complete && target_given);
}

void LessonRecorderStepEditor::setTexts(const StepTexts &texts)
{
    text_en_->setPlainText(QString::fromStdString(texts.text.en));
    text_zh_->setPlainText(QString::fromStdString(texts.text.zh_CN));
    question_en_->setText(texts.question ? QString::fromStdString(texts.question->en) : QString());
    question_zh_->setText(texts.question ? QString::fromStdString(texts.question->zh_CN) : QString());
    answer_en_->setText(texts.answer ? QString::fromStdString(texts.answer->en) : QString());
    answer_zh_->setText(texts.answer ? QString::fromStdString(texts.answer->zh_CN) : QString());
    const int kind_index = texts.highlight ? highlight_kind_->findData(int(texts.highlight->kind)) : 0;
    highlight_kind_->setCurrentIndex(std::max(kind_index, 0));
    if (texts.highlight)
        highlight_target_->setCurrentText(QString::fromStdString(texts.highlight->target));
}

StepTexts LessonRecorderStepEditor::texts() const
{
    StepTexts texts;
    texts.text = {plain(text_en_->toPlainText()), plain(text_zh_->toPlainText())};
    if (!question_en_->text().trimmed().isEmpty()) {
        texts.question = LocalizedText{plain(question_en_->text()), plain(question_zh_->text())};
        texts.answer = LocalizedText{plain(answer_en_->text()), plain(answer_zh_->text())};
    }
    const QVariant kind = highlight_kind_->currentData();
    if (kind.isValid())
        texts.highlight = Highlight{HighlightKind(kind.toInt()), plain(highlight_target_->currentText())};
    return texts;
}

}  // namespace lse::gui
