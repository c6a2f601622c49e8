// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/page_section.h"
#include "tensors/tensor_chain.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace lse::gui {

class ChartView;

// The Tensors page's "Views and copies" tab: a small tensor (up to 4 dimensions, 64 elements) and a
// chain of ops the user adds (transpose, view, reshape, …). core/tensors computes every step; the tab
// shows the step table (shape, strides, offset, contiguous, shares storage, copied, copy traffic), why
// a view is impossible, and for the selected step the logical array above its 1-D storage.
class TensorViewsSection : public PageSection {
    Q_OBJECT
public:
    static constexpr int kMaxStartDims = 4;
    static constexpr std::int64_t kMaxStartElements = 64;
    static constexpr std::int64_t kMaxStartStorage = 256;

    explicit TensorViewsSection(QWidget *parent = nullptr);

    QString id() const override { return QStringLiteral("views"); }
    QString title() const override;
    // Lesson settings (tensor_views_lesson_settings.cpp; keys in docs/lesson-pages.md).
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    void showEstimate(const Scenario &scenario, const Estimate &estimate) override;
    QList<ChartView *> charts() const override;
    void setPresentation(bool presentation) override;
    void retranslate() override;

    // The starting tensor, as typed ("2,3,4"; strides empty = contiguous). False (and a message) when refused.
    bool setStart(const QString &shape, const QString &strides = QString(), int offset = 0);
    // Parses and appends an op; false (and a message naming the op) when it cannot be parsed.
    bool addOp(const QString &text);
    void removeLastOp();
    void clearOps();
    // 0 = the starting tensor, k = after op k.
    void selectStep(int step);
    int selectedStep() const { return selected_step_; }

    const tensors::TensorChain &chain() const { return chain_; }
    QTableWidget *stepTable() const { return table_; }
    ChartView *layoutChart() const { return layout_chart_; }
    QString inputMessage() const;
    QString reasonText() const;
    // The step table as CSV (header row, then the start and one row per op).
    QString stepsCsv() const;
    bool saveStepsCsv(const QString &path, QString *error = nullptr) const;

protected:
    void changeEvent(QEvent *event) override;

private:
    // Why (shape, strides, offset) cannot start the chain (empty when it can), and the view if it can.
    QString startProblem(const QString &shape, const QString &strides, int offset,
                         tensors::TensorView *view = nullptr) const;
    void nameLessonRegions();
    void recompute();
    void refreshTable();
    void refreshDrawing();
    void retranslateControls();
    void showInputMessage(const QString &message);
    QStringList rowCells(int row) const;
    QStringList headerLabels() const;

    QLabel *intro_;
    QLabel *shape_label_;
    QLineEdit *shape_edit_;
    QLabel *strides_label_;
    QLineEdit *strides_edit_;
    QLabel *offset_label_;
    QSpinBox *offset_spin_;
    QLabel *dtype_label_;
    QSpinBox *dtype_spin_;
    QLabel *op_label_;
    QLineEdit *op_edit_;
    QPushButton *add_button_;
    QPushButton *remove_button_;
    QPushButton *clear_button_;
    QPushButton *csv_button_;
    QLabel *input_message_;
    QTableWidget *table_;
    QLabel *reason_;
    ChartView *layout_chart_;

    tensors::TensorView start_;
    std::vector<tensors::TensorOp> ops_;
    tensors::TensorChain chain_;
    int selected_step_ = 0;
    bool updating_ = false;
};

}  // namespace lse::gui
