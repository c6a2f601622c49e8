// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/architecture/ablation_section.h"

#include "charts/chart_view.h"
#include "pages/architecture/ablation/ablation_charts.h"
#include "pages/architecture/ablation/ablation_worker.h"
#include "pages/page_format.h"
#include "reference/ablation/ablation_results_json.h"
#include "reference/ablation/ablation_spec.h"
#include "pages/table_key_columns.h"

#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lse::gui {

namespace {

constexpr int kDefaultSteps = 300;
constexpr int kMaxSteps = 100000;
constexpr int kCurvesChartMinimumHeight = 420;

QString qs(const std::string &text) { return QString::fromStdString(text); }

// Problems as lines "message [rule]": loaders' messages name the file, the rule says what failed.
QString problemText(const Problems &problems)
{
    QStringList lines;
    for (const Problem &p : problems)
        lines << QStringLiteral("%1 [%2]").arg(qs(p.message), qs(p.rule));
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

AblationSection::AblationSection(QWidget *parent)
    : PageSection(parent),
      intro_(new QLabel(this)),
      study_label_(new QLabel(this)),
      study_box_(new QComboBox(this)),
      model_label_(new QLabel(this)),
      model_box_(new QComboBox(this)),
      steps_label_(new QLabel(this)),
      steps_spin_(new QSpinBox(this)),
      variants_label_(new QLabel(this)),
      variant_list_(new QListWidget(this)),
      run_button_(new QPushButton(this)),
      cancel_button_(new QPushButton(this)),
      save_button_(new QPushButton(this)),
      open_button_(new QPushButton(this)),
      progress_(new QProgressBar(this)),
      status_(new QLabel(this)),
      origin_(new QLabel(this)),
      curves_chart_(new ChartView(QStringLiteral("ablation-loss-curves"), this)),
      final_chart_(new ChartView(QStringLiteral("ablation-final-validation-loss"), this)),
      table_(new QTableWidget(this)),
      worker_(new AblationWorker(this))
{
    auto *layout = new QVBoxLayout(addScrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    auto *controls = new QGridLayout;
    controls->addWidget(study_label_, 0, 0);
    controls->addWidget(study_box_, 0, 1);
    controls->addWidget(model_label_, 1, 0);
    controls->addWidget(model_box_, 1, 1);
    controls->addWidget(steps_label_, 2, 0);
    controls->addWidget(steps_spin_, 2, 1);
    controls->addWidget(variants_label_, 3, 0, Qt::AlignTop);
    controls->addWidget(variant_list_, 3, 1);
    controls->setColumnStretch(1, 1);
    // Long study names must not widen the page past a 1024-pixel window: the combo boxes elide.
    for (QComboBox *box : {study_box_, model_box_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(16);
    }
    for (QLabel *label : {study_label_, model_label_, steps_label_, variants_label_})
        label->setBuddy(label == study_label_ ? static_cast<QWidget *>(study_box_)
                        : label == model_label_ ? static_cast<QWidget *>(model_box_)
                        : label == steps_label_ ? static_cast<QWidget *>(steps_spin_)
                                                : static_cast<QWidget *>(variant_list_));
    layout->addLayout(controls);
    variant_list_->setMaximumHeight(96);
    steps_spin_->setRange(1, kMaxSteps);
    steps_spin_->setValue(kDefaultSteps);

    auto *buttons = new QHBoxLayout;
    for (QPushButton *b : {run_button_, cancel_button_, save_button_, open_button_})
        buttons->addWidget(b);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    progress_->setTextVisible(true);
    layout->addWidget(progress_);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_);
    origin_->setWordWrap(true);
    origin_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(origin_);
    layout->addWidget(curves_chart_, 2);
    layout->addWidget(table_);
    layout->addWidget(final_chart_, 1);

    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->setVisible(false);
    table_->setWordWrap(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setMinimumHeight(120);
    table_->setMaximumHeight(190);  // a row per variant (at most four); the charts take the rest
    setKeyColumns(table_, {0, 4, 6});  // variant, final validation loss, status

    connect(study_box_, &QComboBox::currentIndexChanged, this, [this] {
        fillVariants();
        showStudy();
    });
    connect(model_box_, &QComboBox::currentIndexChanged, this, [this] { fillVariants(); });
    connect(run_button_, &QPushButton::clicked, this, &AblationSection::startRun);
    connect(cancel_button_, &QPushButton::clicked, this, &AblationSection::cancelRun);
    connect(save_button_, &QPushButton::clicked, this, &AblationSection::chooseSaveFile);
    connect(open_button_, &QPushButton::clicked, this, &AblationSection::chooseOpenFile);
    connect(worker_, &AblationWorker::progress, this, &AblationSection::onProgress);
    connect(worker_, &AblationWorker::finished, this, &AblationSection::onFinished);

    loadModelChoices();
    loadShippedResults();
    retranslate();
    setPresentation(false);
    showStudy();
    updateControls();
    bindLessonControls();
}

AblationSection::~AblationSection() = default;

QString AblationSection::title() const { return tr("Ablations"); }

void AblationSection::showEstimate(const Scenario &, const Estimate &)
{
    // The ablation model is its own small transformer, trained here; the scenario does not change it.
}

QList<ChartView *> AblationSection::charts() const { return {curves_chart_, final_chart_}; }

void AblationSection::setPresentation(bool presentation)
{
    PageSection::setPresentation(presentation);
    // The loss curves carry a legend of two entries per variant: more room than a one-line chart.
    curves_chart_->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kCurvesChartMinimumHeight);
    final_chart_->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kChartMinimumHeight);
}

bool AblationSection::isReady() const { return !worker_->isRunning(); }

void AblationSection::changeEvent(QEvent *event)
{
    PageSection::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        refreshCharts();  // series colours follow the light/dark palette
}

void AblationSection::retranslate()
{
    intro_->setText(tr("Train variants of a small transformer with the CPU reference implementation, one after the "
                       "other, on the same tokens (a byte-level BPE of the built-in TinyStories-style sample) and the "
                       "same seed, so every variant sees the same batches and only the architecture differs. The "
                       "studies shipped with the program are shown until you run your own."));
    study_label_->setText(tr("&Study:"));
    model_label_->setText(tr("&Model:"));
    steps_label_->setText(tr("S&teps per variant:"));
    variants_label_->setText(tr("&Variants:"));
    run_button_->setText(tr("&Run"));
    cancel_button_->setText(tr("&Cancel"));
    save_button_->setText(tr("&Save results…"));
    open_button_->setText(tr("&Open results…"));
    fillStudies();
    for (int i = 0; i < model_box_->count() && i < int(models_.size()); ++i) {
        const ModelChoice &choice = models_[std::size_t(i)];
        const ModelConfig &m = choice.config.model;
        const QString shape = tr("%1 layers, d_model %2, context %3").arg(m.n_layers).arg(m.d_model).arg(m.max_seq_len);
        model_box_->setItemText(i, !choice.label.isEmpty() ? choice.label
                                   : i == 0              ? tr("Ablation tiny (%1)").arg(shape)
                                                         : tr("%1 (%2)").arg(qs(m.name), shape));
    }
    table_->setColumnCount(7);
    table_->setHorizontalHeaderLabels({tr("Variant"), tr("Changes"), tr("Parameters"), tr("Tokens/s"),
                                       tr("Final validation loss"), tr("Wall time"), tr("Status")});
    table_->horizontalHeaderItem(3)->setToolTip(
        tr("Training tokens per second of the fastest tenth of the steps: other programs on the machine slow "
           "some steps down, the fast steps measure the variant itself. Validation is not included."));
    table_->horizontalHeaderItem(6)->setToolTip(
        tr("finished, cancelled (the steps done before Cancel are kept) or diverged (a NaN or infinite loss)"));
    show(shown_, shown_origin_);
}

void AblationSection::fillStudies()
{
    const QString current = study_box_->currentData().toString();
    const std::pair<const char *, QString> studies[] = {
        {"norm", tr("Norm type: RMSNorm vs LayerNorm vs none")},
        {"activation", tr("Activation at equal parameters: SwiGLU vs GeLU vs ReLU vs SiLU")},
        {"position", tr("Positional encoding: RoPE vs learned vs sinusoidal vs none")},
        {"placement", tr("Norm placement: pre-norm vs post-norm")},
        {"parallel", tr("Block: serial vs parallel attention and MLP")},
    };
    const QSignalBlocker block(study_box_);
    if (study_box_->count() == 0) {
        for (const auto &[name, label] : studies)
            study_box_->addItem(label, QString::fromLatin1(name));
    } else {
        for (int i = 0; i < study_box_->count(); ++i)
            for (const auto &[name, label] : studies)
                if (study_box_->itemData(i).toString() == QLatin1String(name))
                    study_box_->setItemText(i, label);
    }
    if (!current.isEmpty())
        study_box_->setCurrentIndex(study_box_->findData(current));
    if (variant_list_->count() == 0)
        fillVariants();
}

void AblationSection::loadModelChoices()
{
    models_.push_back({QString(), reference::defaultAblationBase()});
    // The Reference run page's presets (resources/reference/*.json), smallest first.
    const QDir dir(QStringLiteral(":/reference"));
    std::vector<ModelChoice> presets;
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        Result<reference::TrainConfig> config = reference::trainConfigFromJson(file.readAll(), name.toStdString());
        if (!config)
            continue;
        presets.push_back({QString(), config.value()});  // labelled (and relabelled) by retranslate()
    }
    std::stable_sort(presets.begin(), presets.end(), [](const ModelChoice &a, const ModelChoice &b) {
        return a.config.model.d_model * a.config.model.n_layers < b.config.model.d_model * b.config.model.n_layers;
    });
    models_.insert(models_.end(), presets.begin(), presets.end());
    const QSignalBlocker block(model_box_);
    for (const ModelChoice &choice : models_)
        model_box_->addItem(choice.label);
}

void AblationSection::loadShippedResults()
{
    const QDir dir(QStringLiteral(":/ablations"));
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        Result<reference::AblationResults> results = reference::ablationResultsFromJson(file.readAll());
        if (!results)
            continue;
        const std::string study = results.value().study;
        by_study_[study] = results.value();
        origin_by_study_[study] = QStringLiteral("shipped:") + name;
    }
}

std::string AblationSection::currentStudy() const { return study_box_->currentData().toString().toStdString(); }

void AblationSection::fillVariants()
{
    variant_list_->clear();
    const std::optional<reference::AblationStudy> study = reference::studyFromName(currentStudy());
    const int model = model_box_->currentIndex();
    if (!study || model < 0 || model >= int(models_.size()))
        return;
    for (const reference::AblationVariant &v : reference::studyVariants(*study, models_[std::size_t(model)].config.model)) {
        auto *item = new QListWidgetItem(AblationCharts::variantName(v.name), variant_list_);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
        item->setToolTip(qs(reference::describeChanges(v.changes)));
    }
}

void AblationSection::showStudy()
{
    if (worker_->isRunning())
        return;  // the run in progress stays on screen
    const auto found = by_study_.find(currentStudy());
    if (found == by_study_.end())
        show(reference::AblationResults{}, QString());
    else
        show(found->second, origin_by_study_[found->first]);
}

void AblationSection::show(const reference::AblationResults &results, const QString &origin)
{
    shown_ = results;
    shown_origin_ = origin;
    if (origin.startsWith(QLatin1String("shipped:"))) {
        const QString file = origin.mid(8);
        origin_->setText(tr("Showing the study shipped with the program (resources/ablations/%1), trained on a 2-core "
                            "machine with: llm-explorer-cli ablate --study %2 --steps %3 --threads 1 --out %1. %4")
                             .arg(file, qs(results.study))
                             .arg(results.base.steps)
                             .arg(AblationCharts::setupText(results)));
    } else if (origin == QLatin1String("run")) {
        origin_->setText(tr("Showing this run%1. %2")
                             .arg(results.cancelled ? tr(" (cancelled: the variants finished are kept)") : QString(),
                                  AblationCharts::setupText(results)));
    } else if (!origin.isEmpty()) {
        origin_->setText(tr("Showing %1. %2").arg(origin, AblationCharts::setupText(results)));
    } else {
        origin_->setText(tr("No results for this study yet: press Run."));
    }
    refreshCharts();
    fillTable();
    updateControls();
}

void AblationSection::refreshCharts()
{
    curves_chart_->setData(AblationCharts::lossCurves(shown_, palette()));
    final_chart_->setData(AblationCharts::finalValidationLoss(shown_, palette()));
}

void AblationSection::fillTable()
{
    table_->setRowCount(int(shown_.variants.size()));
    for (int row = 0; row < int(shown_.variants.size()); ++row) {
        const reference::AblationResult &r = shown_.variants[std::size_t(row)];
        const QString cells[] = {
            AblationCharts::variantName(r.variant.name),
            qs(reference::describeChanges(r.variant.changes)),
            format::integer(r.parameters),
            format::decimal(r.tokens_per_s, 0),
            r.final_validation_loss ? format::decimal(*r.final_validation_loss, 4) : tr("—"),
            tr("%1 s").arg(format::decimal(r.wall_seconds, 1)),
            r.status == reference::VariantStatus::Diverged
                ? tr("diverged: %1").arg(qs(r.message))
                : tr("%1 (%n step(s))", nullptr, r.stepsCompleted()).arg(AblationCharts::statusText(r.status)),
        };
        for (int column = 0; column < 7; ++column) {
            auto *item = new QTableWidgetItem(cells[column]);
            if (column >= 2 && column <= 5)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(row, column, item);
        }
    }
    table_->resizeColumnsToContents();
}

void AblationSection::startRun()
{
    if (worker_->isRunning())
        return;
    const std::optional<reference::AblationStudy> study = reference::studyFromName(currentStudy());
    const int model = model_box_->currentIndex();
    if (!study || model < 0 || model >= int(models_.size()))
        return;
    reference::AblationSpec spec =
        reference::standardStudy(*study, reference::withAblationSteps(models_[std::size_t(model)].config, steps_spin_->value()));
    std::vector<reference::AblationVariant> ticked;
    for (int i = 0; i < variant_list_->count() && i < int(spec.variants.size()); ++i)
        if (variant_list_->item(i)->checkState() == Qt::Checked)
            ticked.push_back(spec.variants[std::size_t(i)]);
    if (ticked.empty()) {
        status_->setText(tr("Tick at least one variant to run."));
        return;
    }
    spec.variants = ticked;
    spec.text = text_;
    if (const Problems problems = reference::validateAblationSpec(spec); !problems.empty()) {
        status_->setText(problemText(problems));
        return;
    }
    reference::AblationResults live;
    live.study = spec.study;
    live.base = spec.base;
    show(live, QStringLiteral("run"));
    status_->setText(tr("Tokenizing the text…"));
    progress_->setRange(0, int(spec.variants.size()) * spec.base.steps);
    progress_->setValue(0);
    progress_->setFormat(tr("Tokenizing the text…"));
    worker_->start(spec);
    updateControls();
    emit runStarted();
}

void AblationSection::cancelRun()
{
    if (!worker_->isRunning())
        return;
    worker_->cancel();
    status_->setText(tr("Cancelling after the current step…"));
}

void AblationSection::onProgress()
{
    const AblationWorker::Snapshot s = worker_->snapshot();
    if (s.phase == reference::AblationProgress::Phase::Training) {
        progress_->setValue(s.variant * s.steps + s.step);
        const QString text = tr("Variant %1/%2 (%3): step %4/%5, loss %6")
                                 .arg(s.variant + 1)
                                 .arg(s.variant_count)
                                 .arg(AblationCharts::variantName(s.variant_name.toStdString()))
                                 .arg(s.step)
                                 .arg(s.steps)
                                 .arg(format::decimal(s.loss, 3));
        progress_->setFormat(text);
        status_->setText(text);
        shown_.variants = s.variants;
        refreshCharts();
        fillTable();
    }
    emit runProgress();
}

void AblationSection::onFinished()
{
    const std::optional<Result<reference::AblationResults>> &result = worker_->result();
    if (result && result->ok()) {
        const reference::AblationResults &results = result->value();
        by_study_[results.study] = results;
        origin_by_study_[results.study] = QStringLiteral("run");
        progress_->setValue(progress_->maximum());
        progress_->setFormat(results.cancelled ? tr("Cancelled") : tr("Finished"));
        status_->setText(results.cancelled ? tr("Cancelled: the variants finished before Cancel are kept.")
                                           : tr("Finished: %n variant(s) trained.", nullptr, int(results.variants.size())));
        show(results, QStringLiteral("run"));
    } else {
        progress_->setFormat(tr("Failed"));
        status_->setText(result ? problemText(result->problems()) : tr("The run ended without a result."));
        showStudy();
    }
    updateControls();
    emit runFinished();
    emit ready();
}

void AblationSection::updateControls()
{
    const bool running = worker_->isRunning();
    run_button_->setEnabled(!running);
    cancel_button_->setEnabled(running);
    save_button_->setEnabled(!running && !shown_.variants.empty());
    open_button_->setEnabled(!running);
    study_box_->setEnabled(!running);
    model_box_->setEnabled(!running);
    steps_spin_->setEnabled(!running);
    variant_list_->setEnabled(!running);
    progress_->setVisible(running || progress_->value() > 0);
}

int AblationSection::addModelChoice(const QString &label, const reference::TrainConfig &config)
{
    models_.push_back({label, config});
    model_box_->addItem(label);
    return model_box_->count() - 1;
}

bool AblationSection::saveResults(const QString &path, QString *error)
{
    Result<bool> saved = reference::saveAblationResults(shown_, QFile::encodeName(path).toStdString());
    if (!saved) {
        if (error)
            *error = problemText(saved.problems());
        return false;
    }
    status_->setText(tr("Results saved to %1.").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool AblationSection::openResults(const QString &path, QString *error)
{
    Result<reference::AblationResults> read = reference::loadAblationResults(QFile::encodeName(path).toStdString());
    if (!read) {
        if (error)
            *error = problemText(read.problems());
        return false;
    }
    const reference::AblationResults &results = read.value();
    const QString origin = tr("the results file %1").arg(QDir::toNativeSeparators(path));
    by_study_[results.study] = results;
    origin_by_study_[results.study] = origin;
    const int index = study_box_->findData(qs(results.study));
    if (index >= 0 && index != study_box_->currentIndex()) {
        const QSignalBlocker block(study_box_);
        study_box_->setCurrentIndex(index);
        fillVariants();
    }
    show(results, origin);
    status_->setText(tr("Opened %1.").arg(QDir::toNativeSeparators(path)));
    return true;
}

void AblationSection::chooseSaveFile()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save ablation results"),
                                                      QStringLiteral("ablation-%1.json").arg(qs(shown_.study)),
                                                      tr("Ablation results (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveResults(path, &error))
        QMessageBox::warning(this, tr("Cannot save the results"), error);
}

void AblationSection::chooseOpenFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open ablation results"), QString(),
                                                      tr("Ablation results (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!openResults(path, &error))
        QMessageBox::warning(this, tr("Cannot open the results"), error);
}

void AblationSection::bindLessonControls()
{
    intro_->setObjectName(QStringLiteral("ablation-intro"));
    variant_list_->setObjectName(QStringLiteral("ablation-variants"));
    status_->setObjectName(QStringLiteral("ablation-status"));
    origin_->setObjectName(QStringLiteral("ablation-origin"));
    table_->setObjectName(QStringLiteral("ablation-table"));
    lesson_controls_.addChoiceByData(QStringLiteral("study"), study_box_);
    // The model trained by a new run: "ablation-tiny" (the first choice) or a Reference run preset's name.
    auto model_names = [this] {
        QStringList names;
        for (std::size_t i = 0; i < models_.size(); ++i)
            names << (i == 0 ? QStringLiteral("ablation-tiny") : qs(models_[i].config.model.name));
        return names;
    };
    lesson_controls_.add(
        {QStringLiteral("model"),
         [this, model_names] { return QJsonValue(model_names().value(model_box_->currentIndex())); },
         [model_names](const QJsonValue &value) {
             if (!value.isString() || !model_names().contains(value.toString()))
                 return tr("expected %1").arg(model_names().join(QLatin1Char('|')));
             return QString();
         },
         [this, model_names](const QJsonValue &value) {
             model_box_->setCurrentIndex(int(model_names().indexOf(value.toString())));
         }});
    lesson_controls_.addInt(QStringLiteral("steps"), steps_spin_);
}

QJsonObject AblationSection::lessonSettings() const { return lesson_controls_.settings(); }

bool AblationSection::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    return lesson_controls_.apply(settings, error);
}

}  // namespace lse::gui
