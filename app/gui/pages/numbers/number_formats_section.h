// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/lesson_controls.h"
#include "pages/page_section.h"

#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace lse::gui {

// The Numbers page's "Formats" tab: every number format of core/numbers (FP32 … FP8, INT8) as a bit
// layout and a table of its properties computed from its definition; a typed value rounded to every
// format (stored value, coloured bits, errors, overflow/underflow); and the spacing of representable
// values on a log-log number line with the typed value marked.
class NumberFormatsSection : public PageSection {
    Q_OBJECT
public:
    // Columns of the results table.
    enum ResultColumn { FormatColumn, StoredColumn, BitsColumn, AbsErrorColumn, RelErrorColumn, FlagsColumn };
    // Columns of the properties table.
    enum PropertyColumn { LayoutColumn, BiasColumn, MaxColumn, MinNormalColumn, MinSubnormalColumn, EpsilonColumn,
                          DigitsColumn };

    explicit NumberFormatsSection(QWidget *parent = nullptr);

    QString id() const override { return QStringLiteral("formats"); }
    QString title() const override;
    // Lesson settings and regions: docs/lesson-pages.md.
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    void showEstimate(const Scenario &scenario, const Estimate &estimate) override;
    QList<ChartView *> charts() const override;
    void setPresentation(bool presentation) override;
    void retranslate() override;

    void setValueText(const QString &text);
    // The typed value, or nothing when the field is empty or not a number.
    std::optional<double> value() const { return value_; }
    QLineEdit *valueEdit() const { return value_edit_; }
    QCheckBox *saturateCheckBox() const { return saturate_box_; }
    QLabel *messageLabel() const { return message_; }
    QTableWidget *propertiesTable() const { return properties_table_; }
    QTableWidget *resultsTable() const { return results_table_; }
    ChartView *bitLayoutChart() const { return layout_chart_; }
    ChartView *spacingChart() const { return spacing_chart_; }
    ChartView *relativeSpacingChart() const { return relative_chart_; }

signals:
    // After the results table and the number line show a new value (or none).
    void resultsChanged();

private:
    void retranslateControls();
    void fillProperties();
    void refreshValue();
    void fillResults();

    QLabel *intro_;
    ChartView *layout_chart_;
    QTableWidget *properties_table_;
    QLabel *value_label_;
    QLineEdit *value_edit_;
    QCheckBox *saturate_box_;
    QLabel *message_;
    QTableWidget *results_table_;
    ChartView *spacing_chart_;
    ChartView *relative_chart_;
    std::optional<double> value_;
    void bindLessonControls();
    LessonControls lesson_controls_;
};

}  // namespace lse::gui
