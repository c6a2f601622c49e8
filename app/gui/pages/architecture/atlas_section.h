// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/lesson_controls.h"
#include "pages/page_section.h"

class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace lse::gui {

class AtlasFilterModel;
class AtlasTableModel;

// The Architecture page's "Model atlas" tab: notable models of 2017–2025 (core's built-in atlas)
// in a sortable, filterable table, any row loadable as the scenario's model, and summary charts
// of the rows the filters show (design-choice shares per year, FFN ratio over time, head
// dimensions).
class AtlasSection : public PageSection {
    Q_OBJECT
public:
    explicit AtlasSection(QWidget *parent = nullptr);

    QString id() const override { return QStringLiteral("atlas"); }
    QString title() const override;
    // Lesson settings and regions: docs/lesson-pages.md.
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    void showEstimate(const Scenario &scenario, const Estimate &estimate) override;
    QList<ChartView *> charts() const override;
    void setPresentation(bool presentation) override;
    void retranslate() override;

    QTableView *table() const { return table_; }
    AtlasTableModel *tableModel() const { return table_model_; }
    AtlasFilterModel *filterModel() const { return filter_model_; }

    // Asks for the scenario with the model of the table's row `proxy_row` (in view order); the
    // main window adapts the rest as for a preset, in one undo step. False for a bad row.
    bool loadRow(int proxy_row);

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void loadSelected();
    void applyFilters();
    void refreshCharts();
    void updateControls();
    void arrangeCharts();
    void fitColumns();

    AtlasTableModel *table_model_;
    AtlasFilterModel *filter_model_;
    QLineEdit *filter_text_;
    QComboBox *family_;
    QLabel *years_label_;
    QSpinBox *first_year_;
    QSpinBox *last_year_;
    QLabel *shown_label_;
    QPushButton *load_button_;
    QLabel *hint_label_;
    QTableView *table_;
    QGridLayout *chart_grid_;
    ChartView *shares_chart_;
    ChartView *ffn_chart_;
    ChartView *head_dim_chart_;
    bool presentation_ = false;
    int chart_columns_ = 0;  // as arranged; 0 before the first arrangement
    Scenario scenario_;
    void bindLessonControls();
    LessonControls lesson_controls_;
};

}  // namespace lse::gui
