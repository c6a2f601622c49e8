// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pages/lesson_controls.h"
#include "pages/page_section.h"
#include "reference/ablation/ablation_result.h"
#include "reference/trainer.h"

#include <map>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace lse::gui {

class AblationWorker;

// The "Ablations" tab of the Architecture page (issue 15): train variants of a small model with
// the CPU reference transformer on the same tokens and seed, in the background with progress and
// Cancel, and compare their loss curves, tokens/s and final validation loss. The finished studies
// shipped in resources/ablations/ are shown at start, so a lecture needs no wait; results are saved
// and opened as files (core/reference/ablation/ablation_results_json.h).
class AblationSection : public PageSection {
    Q_OBJECT
public:
    explicit AblationSection(QWidget *parent = nullptr);
    ~AblationSection() override;

    QString id() const override { return QStringLiteral("ablations"); }
    QString title() const override;
    // Lesson settings and regions: docs/lesson-pages.md.
    QJsonObject lessonSettings() const override;
    bool applyLessonSettings(const QJsonObject &settings, QString *error) override;
    void showEstimate(const Scenario &scenario, const Estimate &estimate) override;
    QList<ChartView *> charts() const override;
    void setPresentation(bool presentation) override;
    void retranslate() override;
    bool isReady() const override;  // false while a run is in progress

    // The controls, for tests and keyboard users alike.
    QComboBox *studyBox() const { return study_box_; }
    QComboBox *modelBox() const { return model_box_; }
    QListWidget *variantList() const { return variant_list_; }
    QSpinBox *stepsSpin() const { return steps_spin_; }
    QPushButton *runButton() const { return run_button_; }
    QPushButton *cancelButton() const { return cancel_button_; }
    QProgressBar *progressBar() const { return progress_; }
    QTableWidget *resultsTable() const { return table_; }
    // The results on screen (the shipped study, a run, or an opened file); empty when none.
    const reference::AblationResults &shownResults() const { return shown_; }

    // What Save results… / Open results… do after their file dialog. False with *error (naming the
    // file and the rule) when the file cannot be written or read.
    // Another model to choose (e.g. a test's tiny one); returns its index in modelBox().
    int addModelChoice(const QString &label, const reference::TrainConfig &config);
    // The text the next run tokenizes; empty (the default): the built-in sample.
    void setTrainingText(const std::string &text) { text_ = text; }

    bool saveResults(const QString &path, QString *error = nullptr);
    bool openResults(const QString &path, QString *error = nullptr);
    void startRun();
    void cancelRun();

signals:
    void runStarted();
    void runProgress();
    void runFinished();

protected:
    void changeEvent(QEvent *event) override;

private:
    struct ModelChoice {
        QString label;  // empty: "<name> (<shape>)", written by retranslate()
        reference::TrainConfig config;
    };
    void loadModelChoices();
    void loadShippedResults();
    void fillStudies();
    void fillVariants();
    void showStudy();
    void show(const reference::AblationResults &results, const QString &origin);
    void refreshCharts();
    void fillTable();
    void onProgress();
    void onFinished();
    void updateControls();
    void chooseSaveFile();
    void chooseOpenFile();
    std::string currentStudy() const;

    std::vector<ModelChoice> models_;
    std::map<std::string, reference::AblationResults> by_study_;  // newest results of each study
    std::map<std::string, QString> origin_by_study_;
    reference::AblationResults shown_;
    std::string text_;
    QString shown_origin_;

    QLabel *intro_;
    QLabel *study_label_;
    QComboBox *study_box_;
    QLabel *model_label_;
    QComboBox *model_box_;
    QLabel *steps_label_;
    QSpinBox *steps_spin_;
    QLabel *variants_label_;
    QListWidget *variant_list_;
    QPushButton *run_button_;
    QPushButton *cancel_button_;
    QPushButton *save_button_;
    QPushButton *open_button_;
    QProgressBar *progress_;
    QLabel *status_;
    QLabel *origin_;
    ChartView *curves_chart_;
    ChartView *final_chart_;
    QTableWidget *table_;
    AblationWorker *worker_;
    void bindLessonControls();
    LessonControls lesson_controls_;
};

}  // namespace lse::gui
