// SPDX-License-Identifier: GPL-3.0-or-later
// The small editor "Record step" opens: the step's text (English, Chinese), an optional question and
// its answer, and what to highlight, with the targets the page offers for each kind.
#pragma once

#include "lessons/lesson.h"

#include <QDialog>
#include <QStringList>

#include <functional>
#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLineEdit;
class QTextEdit;

namespace lse::gui {

// What the editor returns; empty question means none.
struct StepTexts {
    LocalizedText text;
    std::optional<LocalizedText> question;
    std::optional<LocalizedText> answer;
    std::optional<Highlight> highlight;
};

class LessonRecorderStepEditor : public QDialog {
    Q_OBJECT
public:
    // `targets` gives the page's lessonTargets(kind); `page_id` only labels the editor.
    LessonRecorderStepEditor(const QString &page_id, std::function<QStringList(HighlightKind)> targets,
                             QWidget *parent = nullptr);

    void setTexts(const StepTexts &texts);
    StepTexts texts() const;

    QTextEdit *textEnglish() const { return text_en_; }
    QTextEdit *textChinese() const { return text_zh_; }
    QLineEdit *questionEnglish() const { return question_en_; }
    QLineEdit *answerEnglish() const { return answer_en_; }
    QComboBox *highlightKind() const { return highlight_kind_; }
    QComboBox *highlightTarget() const { return highlight_target_; }
    QDialogButtonBox *buttons() const { return buttons_; }

private:
    void fillTargets();
    void updateAcceptable();

    std::function<QStringList(HighlightKind)> targets_;
    QTextEdit *text_en_;
    QTextEdit *text_zh_;
    QLineEdit *question_en_;
    QLineEdit *question_zh_;
    QLineEdit *answer_en_;
    QLineEdit *answer_zh_;
    QComboBox *highlight_kind_;
    QComboBox *highlight_target_;
    QDialogButtonBox *buttons_;
};

}  // namespace lse::gui
