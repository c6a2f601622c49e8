// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QWidget>

#include <functional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QListWidget;
class QFormLayout;

namespace lse {
struct Scenario;
}

namespace lse::gui {

class ScenarioDocument;

// The scenario editor: a preset picker and one widget per model, cluster and training field.
// Each edit becomes an undoable document command; problems the engine reports are marked on the
// field they name (red frame, message in the tooltip) and listed below, while the pages keep the
// last valid results.
class ScenarioEditor : public QWidget {
    Q_OBJECT
public:
    explicit ScenarioEditor(ScenarioDocument *document, QWidget *parent = nullptr);
    ~ScenarioEditor() override;

    // The widget editing a field path such as "model.n_layers" or "training.tp" (for tests).
    QWidget *fieldWidget(const QString &field) const;
    QComboBox *presetPicker() const { return preset_picker_; }
    QComboBox *gpuPicker() const { return gpu_picker_; }
    QListWidget *problemList() const { return problem_list_; }
    // Repair the selected problem / every problem that has a repair (each one undo step).
    QPushButton *fixButton() const { return fix_button_; }
    QPushButton *fixAllButton() const { return fix_all_button_; }
    // The document's adjustment note ("Adapted to <model>: tp 8 → 4: ...", "Fixed: ..."), hidden
    // when there is none.
    QLabel *adjustmentLabel() const { return adjustment_label_; }

    // As narrow as its fields allow (the dock's minimum): the page beside it gets the rest. Its
    // natural width, from the longest label and preset name, left 476 px for pages on a 1024-px
    // screen in English (test_narrow_window); the user can still drag the dock wider.
    QSize sizeHint() const override;

    void setPresentation(bool presentation);
    // Turns text typed into a field but not yet committed (no Enter, focus still there) into its
    // document edit, so a document undo/redo that follows does not silently drop it.
    void commitPendingEdits();

private:
    struct Field;
    void buildUi();
    void addField(QFormLayout *form, Field field);
    void refreshFromDocument();
    void markProblems();
    void showMfuSource();
    void updateFixActions();
    void showProblemMenu(const QPoint &position);
    void commitText(const QString &path);
    void commitList(const Field &field, QLineEdit *line);

    ScenarioDocument *document_;
    std::vector<Field> fields_;
    QHash<QString, QWidget *> widgets_;
    QHash<QString, QLabel *> labels_;
    QComboBox *preset_picker_ = nullptr;
    QComboBox *gpu_picker_ = nullptr;
    QListWidget *problem_list_ = nullptr;
    QLabel *problem_header_ = nullptr;
    QLabel *adjustment_label_ = nullptr;
    QPushButton *fix_button_ = nullptr;
    QPushButton *fix_all_button_ = nullptr;
    bool refreshing_ = false;
};

}  // namespace lse::gui
