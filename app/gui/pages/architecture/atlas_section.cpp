// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/architecture/atlas_section.h"

#include "architecture/model_atlas.h"
#include "charts/chart_view.h"
#include "pages/architecture/atlas/atlas_charts.h"
#include "pages/architecture/atlas/atlas_filter_model.h"
#include "pages/architecture/atlas/atlas_table_model.h"
#include "pages/page_format.h"
#include "scenario/scenario_json.h"
#include "pages/table_key_columns.h"

#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace lse::gui {

namespace {

// Below this section width two charts side by side squeeze their axes and labels.
constexpr int kTwoChartColumnsMinimumWidth = 1000;
// Taller than kChartMinimumHeight: each chart's legend has up to six entries and its formula
// panel three wrapped lines, which at narrow widths left the plot no room.
constexpr int kAtlasChartMinimumHeight = 440;

}  // namespace

AtlasSection::AtlasSection(QWidget *parent)
    : PageSection(parent),
      table_model_(new AtlasTableModel(builtinModelAtlas(), this)),
      filter_model_(new AtlasFilterModel(this)),
      scenario_(defaultScenario())
{
    filter_model_->setSourceModel(table_model_);
    const std::vector<AtlasEntry> &atlas = table_model_->atlas();
    const auto [earliest, latest] = std::minmax_element(
        atlas.begin(), atlas.end(), [](const AtlasEntry &a, const AtlasEntry &b) { return a.year < b.year; });

    filter_text_ = new QLineEdit;
    filter_text_->setObjectName(QStringLiteral("atlas.filter"));
    filter_text_->setClearButtonEnabled(true);
    family_ = new QComboBox;
    family_->setObjectName(QStringLiteral("atlas.family"));
    family_->addItem(QString(), QString());  // "All families", named in retranslate()
    std::set<std::string> families;
    for (const AtlasEntry &entry : atlas)
        families.insert(entry.family);
    for (const std::string &family : families)
        family_->addItem(format::fromStd(family), format::fromStd(family));
    years_label_ = new QLabel;
    first_year_ = new QSpinBox;
    first_year_->setObjectName(QStringLiteral("atlas.first_year"));
    last_year_ = new QSpinBox;
    last_year_->setObjectName(QStringLiteral("atlas.last_year"));
    for (QSpinBox *year : {first_year_, last_year_}) {
        year->setRange(earliest->year, latest->year);
        year->setGroupSeparatorShown(false);
    }
    first_year_->setValue(earliest->year);
    last_year_->setValue(latest->year);
    shown_label_ = new QLabel;
    load_button_ = new QPushButton;
    load_button_->setObjectName(QStringLiteral("atlas.load"));

    auto *filters = new QHBoxLayout;
    filters->addWidget(filter_text_, 2);
    filters->addWidget(family_, 1);
    filters->addWidget(years_label_);
    filters->addWidget(first_year_);
    filters->addWidget(new QLabel(QStringLiteral("–")));
    filters->addWidget(last_year_);

    table_ = new QTableView;
    table_->setObjectName(QStringLiteral("atlas.table"));
    table_->setModel(filter_model_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(AtlasTableModel::Date, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionsMovable(true);
    setKeyColumns(table_, {AtlasTableModel::Name, AtlasTableModel::Date, AtlasTableModel::PublishedParameters});
    fitColumns();

    hint_label_ = new QLabel;
    hint_label_->setWordWrap(true);
    auto *actions = new QHBoxLayout;
    actions->addWidget(shown_label_);
    actions->addWidget(hint_label_, 1);
    actions->addWidget(load_button_);

    shares_chart_ = new ChartView(QStringLiteral("atlas-choice-shares"), this);
    ffn_chart_ = new ChartView(QStringLiteral("atlas-ffn-ratio"), this);
    head_dim_chart_ = new ChartView(QStringLiteral("atlas-head-dimensions"), this);
    auto *chart_area = new QScrollArea;
    chart_area->setWidgetResizable(true);
    chart_area->setFrameShape(QFrame::NoFrame);
    chart_area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *chart_widget = new QWidget;
    chart_grid_ = new QGridLayout(chart_widget);
    chart_grid_->setContentsMargins(0, 0, 0, 0);
    chart_area->setWidget(chart_widget);

    // The table and the charts share the height; the user moves the split.
    auto *splitter = new QSplitter(Qt::Vertical);
    auto *table_pane = new QWidget;
    auto *table_layout = new QVBoxLayout(table_pane);
    table_layout->setContentsMargins(0, 0, 0, 0);
    table_layout->addLayout(filters);
    table_layout->addWidget(table_, 1);
    table_layout->addLayout(actions);
    splitter->addWidget(table_pane);
    splitter->addWidget(chart_area);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    splitter->setSizes({1000, 1000});  // half and half until the user moves the split

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addWidget(splitter);

    connect(filter_text_, &QLineEdit::textChanged, this, &AtlasSection::applyFilters);
    connect(family_, &QComboBox::currentIndexChanged, this, &AtlasSection::applyFilters);
    connect(first_year_, &QSpinBox::valueChanged, this, &AtlasSection::applyFilters);
    connect(last_year_, &QSpinBox::valueChanged, this, &AtlasSection::applyFilters);
    connect(load_button_, &QPushButton::clicked, this, &AtlasSection::loadSelected);
    // Double-click and Enter both activate a row.
    connect(table_, &QTableView::activated, this, [this](const QModelIndex &index) { loadRow(index.row()); });
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &AtlasSection::updateControls);

    arrangeCharts();
    setPresentation(false);
    retranslate();
    bindLessonControls();
}

QString AtlasSection::title() const
{
    return tr("Model atlas");
}

void AtlasSection::showEstimate(const Scenario &scenario, const Estimate &)
{
    scenario_ = scenario;
    table_model_->setCurrentModel(scenario.model);
}

QList<ChartView *> AtlasSection::charts() const
{
    return {shares_chart_, ffn_chart_, head_dim_chart_};
}

void AtlasSection::setPresentation(bool presentation)
{
    PageSection::setPresentation(presentation);
    presentation_ = presentation;
    for (ChartView *chart : charts())
        chart->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kAtlasChartMinimumHeight);
    arrangeCharts();
}

void AtlasSection::changeEvent(QEvent *event)
{
    PageSection::changeEvent(event);
    // Presentation mode and zoom change the font: widths measured for the old one would elide.
    if (event->type() == QEvent::FontChange)
        fitColumns();
}

void AtlasSection::fitColumns()
{
    table_->resizeColumnsToContents();
    // Room for the current model's row, drawn bold and therefore wider than what was measured.
    const int bold_margin = 2 * table_->fontMetrics().averageCharWidth();
    for (int column = 0; column < AtlasTableModel::ColumnCount; ++column)
        table_->setColumnWidth(column, table_->columnWidth(column) + bold_margin);
}

void AtlasSection::resizeEvent(QResizeEvent *event)
{
    PageSection::resizeEvent(event);
    arrangeCharts();
}

// Two charts a row where they are wide enough to read; one a row on narrow windows and in
// presentation mode, where fonts are large.
void AtlasSection::arrangeCharts()
{
    const int columns = presentation_ || width() < kTwoChartColumnsMinimumWidth ? 1 : 2;
    if (columns == chart_columns_)
        return;
    chart_columns_ = columns;
    const QList<ChartView *> all = charts();
    for (ChartView *chart : all)
        chart_grid_->removeWidget(chart);
    for (int i = 0; i < all.size(); ++i)
        chart_grid_->addWidget(all[i], i / columns, i % columns);
    for (int column = 0; column < 2; ++column)
        chart_grid_->setColumnStretch(column, column < columns ? 1 : 0);
}

void AtlasSection::retranslate()
{
    filter_text_->setPlaceholderText(tr("Filter by model, organisation or family"));
    family_->setItemText(0, tr("All families"));
    family_->setToolTip(tr("Show one family of models"));
    years_label_->setText(tr("Years"));
    load_button_->setText(tr("Load as scenario model"));
    load_button_->setToolTip(tr("Replace the scenario's model with the selected row (one undo step); settings the "
                                "model rules out adapt as when a preset is chosen"));
    hint_label_->setText(tr("Double-click a row or press Enter to load it; hover a row for its source and notes. "
                            "Bold: the current scenario's model."));
    table_model_->retranslate();
    updateControls();
    refreshCharts();
}

void AtlasSection::applyFilters()
{
    if (first_year_->value() > last_year_->value()) {
        // Keep the range non-empty: the spin box the user moved wins.
        QSpinBox *other = sender() == first_year_ ? last_year_ : first_year_;
        const QSignalBlocker blocker(other);
        other->setValue(sender() == first_year_ ? first_year_->value() : last_year_->value());
    }
    filter_model_->setText(filter_text_->text());
    filter_model_->setFamily(family_->currentData().toString());
    filter_model_->setYearRange(first_year_->value(), last_year_->value());
    updateControls();
    refreshCharts();
}

void AtlasSection::updateControls()
{
    // The noun agrees with the total ("1 of 50 models"), so the total is the plural's count.
    shown_label_->setText(tr("%1 of %n model(s)", nullptr, table_model_->rowCount()).arg(filter_model_->rowCount()));
    load_button_->setEnabled(table_->selectionModel()->hasSelection());
}

void AtlasSection::refreshCharts()
{
    std::vector<AtlasEntry> shown;
    for (int row = 0; row < filter_model_->rowCount(); ++row)
        shown.push_back(table_model_->entry(filter_model_->mapToSource(filter_model_->index(row, 0)).row()));
    shares_chart_->setData(AtlasCharts::choiceShares(shown));
    ffn_chart_->setData(AtlasCharts::ffnRatios(shown));
    head_dim_chart_->setData(AtlasCharts::headDimensions(shown));
}

void AtlasSection::loadSelected()
{
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    if (!rows.isEmpty())
        loadRow(rows.front().row());
}

bool AtlasSection::loadRow(int proxy_row)
{
    if (proxy_row < 0 || proxy_row >= filter_model_->rowCount())
        return false;
    const AtlasEntry &entry = table_model_->entry(filter_model_->mapToSource(filter_model_->index(proxy_row, 0)).row());
    Scenario scenario = scenario_;
    scenario.model = entry.model;
    emit scenarioEditRequested(scenario, tr("Load %1 from the model atlas").arg(format::fromStd(entry.model.name)));
    return true;
}

void AtlasSection::bindLessonControls()
{
    shown_label_->setObjectName(QStringLiteral("atlas-shown"));
    hint_label_->setObjectName(QStringLiteral("atlas-hint"));
    lesson_controls_.addText(QStringLiteral("filter"), filter_text_);
    lesson_controls_.addChoiceByData(QStringLiteral("family"), family_, {{QString(), QStringLiteral("all")}});
    lesson_controls_.addInt(QStringLiteral("first_year"), first_year_);
    lesson_controls_.addInt(QStringLiteral("last_year"), last_year_);
}

QJsonObject AtlasSection::lessonSettings() const { return lesson_controls_.settings(); }

bool AtlasSection::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    return lesson_controls_.apply(settings, error);
}

}  // namespace lse::gui
