// SPDX-License-Identifier: GPL-3.0-or-later
#include "document/scenario_document.h"

#include "common/file_bytes.h"
#include "scenario/hf_import.h"
#include "scenario/model_identity.h"
#include "scenario/scenario_adjust.h"
#include "scenario/scenario_json.h"
#include "scenario/scenario_repair.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QUndoCommand>
#include <QUndoStack>

namespace lse::gui {

namespace {

// Edits of one field closer together than this are one undo step (a spin box held down, a drag).
constexpr qint64 kMergeWindowMs = 1500;

// Stores whole scenarios: they are small value types, and restoring a copy is exact.
class ScenarioCommand : public QUndoCommand {
public:
    ScenarioCommand(ScenarioDocument *document, Scenario before, Scenario after, const QString &text,
                    const QString &field, QString note_before = QString(), QString note_after = QString())
        : QUndoCommand(text), document_(document), before_(std::move(before)), after_(std::move(after)),
          field_(field), note_before_(std::move(note_before)), note_after_(std::move(note_after)),
          time_ms_(QDateTime::currentMSecsSinceEpoch())
    {
    }

    void undo() override { document_->applyScenario(before_, note_before_); }
    void redo() override { document_->applyScenario(after_, note_after_); }
    int id() const override { return field_.isEmpty() ? -1 : 1; }

    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *next = static_cast<const ScenarioCommand *>(other);
        if (next->field_ != field_ || next->time_ms_ - time_ms_ > kMergeWindowMs)
            return false;
        after_ = next->after_;
        time_ms_ = next->time_ms_;
        return true;
    }

private:
    ScenarioDocument *document_;
    Scenario before_;
    Scenario after_;
    QString field_;
    QString note_before_;  // the adjustment note shown before and after this step
    QString note_after_;
    qint64 time_ms_;
};

}  // namespace

ScenarioDocument::ScenarioDocument(QObject *parent)
    : QObject(parent), scenario_(defaultScenario()), undo_stack_(new QUndoStack(this))
{
    connect(undo_stack_, &QUndoStack::cleanChanged, this, &ScenarioDocument::fileStateChanged);
    recompute();
}

ScenarioDocument::~ScenarioDocument() = default;

QString ScenarioDocument::displayName() const
{
    return file_path_.isEmpty() ? tr("Untitled") : QFileInfo(file_path_).fileName();
}

bool ScenarioDocument::isModified() const { return !undo_stack_->isClean(); }

void ScenarioDocument::edit(const QString &field, const QString &text, const std::function<void(Scenario &)> &apply)
{
    Scenario after = scenario_;
    apply(after);
    // An edited preset stops being that preset ("Custom (from Llama 2 70B)") and is it again
    // when edited back.
    after.model.name = nameAfterEdit(scenario_.model, after.model);
    undo_stack_->push(new ScenarioCommand(this, scenario_, std::move(after), text, field, adjustment_note_));
}

void ScenarioDocument::replaceScenario(const Scenario &scenario, const QString &text)
{
    pushScenario(scenario, text, QString());
}

void ScenarioDocument::pushScenario(const Scenario &scenario, const QString &text, const QString &adjustment_note)
{
    undo_stack_->push(new ScenarioCommand(this, scenario_, scenario, text, QString(), adjustment_note_, adjustment_note));
}

void ScenarioDocument::loadModel(const ModelConfig &model, const QString &text)
{
    const Adjusted adjusted = adaptScenarioToModel(scenario_, model);
    const QString note = adjusted.adjustments.empty()
        ? QString()
        : tr("Adapted to %1: %2").arg(QString::fromStdString(adjusted.scenario.model.name),
                                      QString::fromStdString(joinAdjustments(adjusted.adjustments)));
    pushScenario(adjusted.scenario, text, note);
}

bool ScenarioDocument::fixProblem(int index)
{
    if (index < 0 || index >= int(problems_.size()))
        return false;
    const std::optional<Repair> repair = repairProblem(scenario_, problems_[std::size_t(index)]);
    if (!repair)
        return false;
    const QString description = QString::fromStdString(repair->description);
    pushScenario(repair->scenario, tr("Fix: %1").arg(description), tr("Fixed: %1").arg(description));
    return true;
}

bool ScenarioDocument::fixAllProblems()
{
    const Adjusted repaired = repairAllProblems(scenario_);
    if (repaired.adjustments.empty())
        return false;
    pushScenario(repaired.scenario, tr("Fix all problems"),
                 tr("Fixed: %1").arg(QString::fromStdString(joinAdjustments(repaired.adjustments))));
    return true;
}

void ScenarioDocument::applyScenario(const Scenario &scenario, const QString &adjustment_note)
{
    scenario_ = scenario;
    adjustment_note_ = adjustment_note;
    recompute();
}

void ScenarioDocument::recompute()
{
    Result<Estimate> result = lse::estimate(scenario_);
    if (result.ok()) {
        problems_.clear();
        estimate_ = *result;
        estimated_scenario_ = scenario_;
        has_estimate_ = true;
    } else {
        problems_ = result.problems();
    }
    emit scenarioChanged();
}

void ScenarioDocument::setFilePath(const QString &path)
{
    file_path_ = path;
    // While a file is this document's, no export, screenshot or other window's save replaces it.
    file_input_ = path.isEmpty() ? InputFileRegistration()
                                 : InputFileRegistration(QFile::encodeName(path).toStdString(),
                                                         "the scenario open in a window of this program");
    emit fileStateChanged();
}

void ScenarioDocument::newDocument()
{
    recovered_ = false;
    undo_stack_->clear();
    scenario_ = defaultScenario();
    adjustment_note_.clear();
    recompute();
    undo_stack_->setClean();
    setFilePath(QString());
}

bool ScenarioDocument::open(const QString &path, QString *error)
{
    const Result<Scenario> loaded = loadScenarioFile(path.toStdString());
    if (!loaded) {
        if (error)
            *error = QString::fromStdString(formatProblems(loaded.problems())).trimmed();
        return false;
    }
    recovered_ = false;
    undo_stack_->clear();
    scenario_ = *loaded;
    adjustment_note_.clear();
    recompute();
    undo_stack_->setClean();
    setFilePath(QFileInfo(path).absoluteFilePath());
    return true;
}

bool ScenarioDocument::save(const QString &path, QString *error)
{
    // The document's own file is its to replace; any other file a window reads (a lesson, another
    // window's scenario) is refused by the writer.
    const bool own_file = !file_path_.isEmpty() && sameFile(QFile::encodeName(path).toStdString(),
                                                            QFile::encodeName(file_path_).toStdString());
    const Problems problems = saveScenarioFile(scenario_, QFile::encodeName(path).toStdString(),
                                               own_file ? InputReplacement::AllowedForOwnFile : InputReplacement::Refused);
    if (!problems.empty()) {
        if (error)
            *error = QString::fromStdString(formatProblems(problems)).trimmed();
        return false;
    }
    recovered_ = false;
    undo_stack_->setClean();
    setFilePath(QFileInfo(path).absoluteFilePath());
    return true;
}

void ScenarioDocument::recover(const Scenario &scenario, const QString &original_path)
{
    undo_stack_->clear();
    scenario_ = scenario;
    adjustment_note_.clear();
    recovered_ = true;
    recompute();
    // No state of this history matches a file on disk: modified until saved, even after undo.
    undo_stack_->resetClean();
    setFilePath(original_path.isEmpty() ? QString() : QFileInfo(original_path).absoluteFilePath());
}

bool ScenarioDocument::importHuggingFaceConfig(const QString &path, QString *error)
{
    const Result<ModelConfig> model = loadHuggingFaceConfigFile(path.toStdString());
    if (!model) {
        if (error)
            *error = QString::fromStdString(formatProblems(model.problems())).trimmed();
        return false;
    }
    loadModel(*model, tr("Import %1").arg(QFileInfo(path).fileName()));
    return true;
}

}  // namespace lse::gui
