// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/input_files.h"
#include "cost/estimate.h"
#include "scenario/scenario.h"

#include <QObject>
#include <QString>

#include <functional>

class QUndoStack;

namespace lse::gui {

// The open scenario: its file, its undo history and its estimate. Every edit goes through here
// as an undoable command; the estimate is recomputed on each change, and the last valid one stays
// available while the scenario is invalid so views never go blank.
class ScenarioDocument : public QObject {
    Q_OBJECT
public:
    explicit ScenarioDocument(QObject *parent = nullptr);
    ~ScenarioDocument() override;

    const Scenario &scenario() const { return scenario_; }
    // Problems of the current scenario; empty when it is valid.
    const Problems &problems() const { return problems_; }
    bool isValid() const { return problems_.empty(); }
    // The newest valid scenario and its estimate (the current one when it is valid).
    bool hasEstimate() const { return has_estimate_; }
    const Scenario &estimatedScenario() const { return estimated_scenario_; }
    const Estimate &estimate() const { return estimate_; }

    QUndoStack *undoStack() const { return undo_stack_; }
    QString filePath() const { return file_path_; }
    // The file name, or "Untitled" for a new document.
    QString displayName() const;
    bool isModified() const;

    // One undoable edit named `text` (shown as "Undo <text>"). Consecutive edits of the same
    // `field` within a short time merge into one step, so a spin or a drag undoes at once.
    void edit(const QString &field, const QString &text, const std::function<void(Scenario &)> &apply);
    // Replaces the whole scenario as one undoable step (a page's suggestion, a search result).
    void replaceScenario(const Scenario &scenario, const QString &text);
    // Puts `model` into the scenario and moves every setting the model rules out to its nearest
    // valid value (adaptScenarioToModel), all as one undoable step named `text`; adjustmentNote()
    // then says what changed and why. Used by the preset picker and the config.json import.
    void loadModel(const ModelConfig &model, const QString &text);
    // Applies the repair core offers for problems()[index] (repairProblem), one undoable step;
    // false when the problem has none.
    bool fixProblem(int index);
    // Repairs every problem that has a repair (repairAllProblems), one undoable step; false when
    // nothing changed.
    bool fixAllProblems();
    // One line saying what the last model change or fix changed automatically and why ("Adapted to
    // Qwen2.5 7B: tp 8 → 4: ...; ..." or "Fixed: ..."); empty after any other edit, restored by undo.
    QString adjustmentNote() const { return adjustment_note_; }

    // File operations; on failure they return false, set *error and leave the document unchanged.
    void newDocument();
    bool open(const QString &path, QString *error);
    bool save(const QString &path, QString *error);
    // Puts a recovered autosave's scenario in place as an unsaved document whose save target is
    // `original_path` (empty: untitled, so saving asks for a name). The undo history starts here.
    void recover(const Scenario &scenario, const QString &original_path);
    // True from recover() until the document is saved, opened or new: saving over the original
    // file should be confirmed, since that file may hold newer work than the autosave.
    bool isRecovered() const { return recovered_; }
    // Reads a Hugging Face config.json into the model (undoable).
    bool importHuggingFaceConfig(const QString &path, QString *error);

    // Used by the undo commands.
    void applyScenario(const Scenario &scenario, const QString &adjustment_note = QString());

signals:
    // The scenario, its problems or its estimate changed.
    void scenarioChanged();
    // The file path or the modified flag changed.
    void fileStateChanged();

private:
    void recompute();
    void setFilePath(const QString &path);
    void pushScenario(const Scenario &scenario, const QString &text, const QString &adjustment_note);

    Scenario scenario_;
    Problems problems_;
    bool has_estimate_ = false;
    Scenario estimated_scenario_;
    Estimate estimate_;
    QUndoStack *undo_stack_;
    QString file_path_;
    InputFileRegistration file_input_;  // file_path_ as one of the program's inputs
    QString adjustment_note_;
    bool recovered_ = false;
};

}  // namespace lse::gui
