// SPDX-License-Identifier: GPL-3.0-or-later
// The Architecture page's Model atlas tab, offscreen: every atlas row in the table, numeric
// sorting, the filters, loading a row as the scenario's model (button, Enter, double-click; in
// the main window one undo step adapted like a preset), the current model's row marked, charts.

#include "architecture/model_atlas.h"
#include "charts/chart_view.h"
#include "document/scenario_document.h"
#include "main_window.h"
#include "pages/architecture/architecture_page.h"
#include "pages/architecture/atlas/atlas_filter_model.h"
#include "pages/architecture/atlas/atlas_table_model.h"
#include "pages/architecture/atlas_section.h"
#include "scenario/presets.h"
#include "scenario/scenario_json.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <algorithm>

using namespace lse;
using namespace lse::gui;

namespace {

const AtlasEntry &rowEntry(AtlasSection &section, int proxy_row)
{
    AtlasFilterModel *filter = section.filterModel();
    return section.tableModel()->entry(filter->mapToSource(filter->index(proxy_row, 0)).row());
}

int proxyRowOf(AtlasSection &section, const std::string &id)
{
    for (int row = 0; row < section.filterModel()->rowCount(); ++row)
        if (rowEntry(section, row).id == id)
            return row;
    return -1;
}

template <typename T>
T *child(QWidget &parent, const char *name)
{
    T *widget = parent.findChild<T *>(QString::fromLatin1(name));
    if (!widget)
        qFatal("no child %s", name);
    return widget;
}

}  // namespace

class TestAtlasSection : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void tableHasEveryRow()
    {
        AtlasSection section;
        QCOMPARE(section.title(), QStringLiteral("Model atlas"));
        const std::vector<AtlasEntry> &atlas = builtinModelAtlas();
        QCOMPARE(std::size_t(section.table()->model()->rowCount()), atlas.size());
        QCOMPARE(section.table()->model()->columnCount(), int(AtlasTableModel::ColumnCount));
        for (const AtlasEntry &entry : atlas)
            QVERIFY2(proxyRowOf(section, entry.id) >= 0, entry.id.c_str());
        // The tooltip carries the row's source.
        const int row = proxyRowOf(section, "bloom-176b");
        const QString tip = section.table()->model()->index(row, AtlasTableModel::Name).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("176,247,271,424")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("ALiBi")), qPrintable(tip));
    }

    void sortingByParametersIsNumeric()
    {
        AtlasSection section;
        QTableView *table = section.table();
        table->sortByColumn(AtlasTableModel::EngineParameters, Qt::AscendingOrder);
        const int rows = table->model()->rowCount();
        for (int row = 1; row < rows; ++row)
            QVERIFY2(rowEntry(section, row - 1).engine_parameters <= rowEntry(section, row).engine_parameters,
                     rowEntry(section, row).id.c_str());
        // As text "1.56 B" would sort before "56.7 M"; as numbers the smallest model comes first.
        QCOMPARE(rowEntry(section, 0).id, std::string("transformer-base"));
        QCOMPARE(rowEntry(section, rows - 1).id, std::string("deepseek-v3"));

        // Rows without a published count go last, in either direction.
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            table->sortByColumn(AtlasTableModel::PublishedParameters, order);
            bool seen_empty = false;
            std::int64_t previous = order == Qt::AscendingOrder ? 0 : std::numeric_limits<std::int64_t>::max();
            for (int row = 0; row < rows; ++row) {
                const AtlasEntry &entry = rowEntry(section, row);
                if (!entry.published_parameters) {
                    seen_empty = true;
                    continue;
                }
                QVERIFY2(!seen_empty, entry.id.c_str());
                const std::int64_t count = *entry.published_parameters;
                QVERIFY2(order == Qt::AscendingOrder ? count >= previous : count <= previous, entry.id.c_str());
                previous = count;
            }
            QVERIFY(seen_empty);
        }
    }

    void filtersNarrowTheRows()
    {
        AtlasSection section;
        const int all = section.filterModel()->rowCount();
        const auto expected = [](auto keep) {
            const std::vector<AtlasEntry> &atlas = builtinModelAtlas();
            return int(std::count_if(atlas.begin(), atlas.end(), keep));
        };

        child<QLineEdit>(section, "atlas.filter")->setText(QStringLiteral("LLAMA"));
        const int llamas = expected([](const AtlasEntry &e) {
            return QString::fromStdString(e.model.name + e.organisation + e.family + e.id).contains("llama", Qt::CaseInsensitive);
        });
        QVERIFY(llamas >= 7);
        QCOMPARE(section.filterModel()->rowCount(), llamas);
        // Organisation matches too.
        child<QLineEdit>(section, "atlas.filter")->setText(QStringLiteral("deepmind"));
        QCOMPARE(section.filterModel()->rowCount(), 2);
        child<QLineEdit>(section, "atlas.filter")->clear();
        QCOMPARE(section.filterModel()->rowCount(), all);

        auto *family = child<QComboBox>(section, "atlas.family");
        family->setCurrentIndex(family->findData(QStringLiteral("Qwen")));
        QCOMPARE(section.filterModel()->rowCount(), expected([](const AtlasEntry &e) { return e.family == "Qwen"; }));
        for (int row = 0; row < section.filterModel()->rowCount(); ++row)
            QCOMPARE(rowEntry(section, row).family, std::string("Qwen"));
        // The charts summarise what the filters show.
        const ChartData &heads = section.charts().at(2)->data();
        double models = 0;
        for (double count : heads.series.front().y)
            models += count;
        QCOMPARE(int(models), section.filterModel()->rowCount());
        family->setCurrentIndex(0);

        child<QSpinBox>(section, "atlas.first_year")->setValue(2025);
        QCOMPARE(section.filterModel()->rowCount(), expected([](const AtlasEntry &e) { return e.year == 2025; }));
        child<QSpinBox>(section, "atlas.first_year")->setValue(2017);
        child<QSpinBox>(section, "atlas.last_year")->setValue(2018);
        QCOMPARE(section.filterModel()->rowCount(), expected([](const AtlasEntry &e) { return e.year <= 2018; }));
    }

    void loadingARowRequestsOneEditWithItsModel()
    {
        AtlasSection section;
        section.resize(1200, 900);  // room for the double-clicked row
        section.show();
        QVERIFY(QTest::qWaitForWindowExposed(&section));
        Scenario shown = defaultScenario();
        shown.training.tokens = 123'000'000'000;
        section.showEstimate(shown, Estimate{});
        QSignalSpy spy(&section, &AtlasSection::scenarioEditRequested);
        auto *load = child<QPushButton>(section, "atlas.load");
        QVERIFY(!load->isEnabled());  // nothing selected yet

        const int mixtral = proxyRowOf(section, "mixtral-8x7b");
        section.table()->selectRow(mixtral);
        QVERIFY(load->isEnabled());
        QTest::mouseClick(load, Qt::LeftButton);
        QCOMPARE(spy.count(), 1);
        Scenario requested = spy.at(0).at(0).value<Scenario>();
        QVERIFY(requested.model == findAtlasEntry("mixtral-8x7b")->model);
        // Only the model is replaced; the main window adapts the rest.
        QCOMPARE(clusterToJson(requested.cluster), clusterToJson(shown.cluster));
        QCOMPARE(trainingToJson(requested.training), trainingToJson(shown.training));
        QVERIFY(spy.at(0).at(1).toString().contains(QStringLiteral("Mixtral")));

        // Enter on the current row, and a double-click, load too.
        const int bert = proxyRowOf(section, "bert-base");
        section.table()->setCurrentIndex(section.filterModel()->index(bert, 0));
        section.table()->setFocus();
        QTest::keyClick(section.table(), Qt::Key_Return);
        QCOMPARE(spy.count(), 2);
        QVERIFY(spy.at(1).at(0).value<Scenario>().model == findAtlasEntry("bert-base")->model);

        const int grok = proxyRowOf(section, "grok-1");
        section.table()->scrollTo(section.filterModel()->index(grok, 0));
        const QRect cell = section.table()->visualRect(section.filterModel()->index(grok, 0));
        QVERIFY(section.table()->viewport()->rect().contains(cell.center()));
        // A real double-click: press and release, then the double-click event (which, for a
        // widget, QTest::mouseDClick sends alone).
        QTest::mouseClick(section.table()->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(spy.count(), 2);  // a single click only selects
        QTest::mouseDClick(section.table()->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(spy.count(), 3);
        QVERIFY(spy.at(2).at(0).value<Scenario>().model == findAtlasEntry("grok-1")->model);

        QVERIFY(!section.loadRow(-1));
        QVERIFY(!section.loadRow(section.filterModel()->rowCount()));
        QCOMPARE(spy.count(), 3);
    }

    void currentModelRowIsMarked()
    {
        AtlasSection section;
        Scenario scenario = defaultScenario();
        scenario.model = findModelPreset("mistral-7b")->model;
        section.showEstimate(scenario, Estimate{});
        const AtlasTableModel *model = section.tableModel();
        QCOMPARE(model->entry(model->currentRow()).id, std::string("mistral-7b"));
        for (int row = 0; row < model->rowCount(); ++row)
            QCOMPARE(model->index(row, 0).data(AtlasTableModel::kCurrentModelRole).toBool(), row == model->currentRow());
        QVERIFY(model->index(model->currentRow(), 0).data(Qt::FontRole).value<QFont>().bold());
        // A renamed copy is still that architecture; a changed one is none of the rows.
        scenario.model.name = "Custom";
        section.showEstimate(scenario, Estimate{});
        QCOMPARE(model->entry(model->currentRow()).id, std::string("mistral-7b"));
        scenario.model.n_layers = 31;
        section.showEstimate(scenario, Estimate{});
        QCOMPARE(model->currentRow(), -1);
    }

    void chartsAreFilledAndFollowPresentation()
    {
        AtlasSection section;
        const QList<ChartView *> charts = section.charts();
        QCOMPARE(charts.size(), 3);
        for (ChartView *chart : charts) {
            QVERIFY2(!chart->data().series.isEmpty(), qPrintable(chart->id()));
            for (const ChartSeries &series : chart->data().series) {
                QVERIFY2(!series.x.isEmpty(), qPrintable(chart->id() + ": " + series.name));
                QCOMPARE(series.x.size(), series.y.size());
            }
            QVERIFY(!chart->toCsv().isEmpty());
            QVERIFY(!chart->data().formula.source.isEmpty());
        }
        // Every chart exports (PNG, PDF, SVG, CSV).
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        for (ChartView *chart : charts) {
            QString error;
            QVERIFY2(chart->exportAll(folder.path(), &error), qPrintable(error));
            for (const char *suffix : {".png", ".pdf", ".svg", ".csv"})
                QVERIFY2(QFileInfo(folder.filePath(chart->id() + QLatin1String(suffix))).size() > 0,
                         qPrintable(chart->id() + QLatin1String(suffix)));
        }
        // FFN ratio: 4 and 8/3 are marked.
        QCOMPARE(charts.at(1)->data().reference_lines.size(), 2);
        section.setPresentation(true);
        for (ChartView *chart : charts)
            QVERIFY(chart->presentation());
        section.setPresentation(false);
        QVERIFY(!charts.front()->presentation());
    }

    void architecturePageHasTheAtlasTab()
    {
        ArchitecturePage page;
        QVERIFY(page.findChild<AtlasSection *>() != nullptr);
        QStringList ids;
        for (ChartView *chart : page.charts())
            ids << chart->id();
        QVERIFY(ids.contains(QStringLiteral("atlas-ffn-ratio")));
    }

    void mainWindowLoadsARowLikeAPreset()
    {
        MainWindow window(false);
        ScenarioDocument *document = window.document();
        // Pages are built on first need: asking for the page builds it.
        QVERIFY(window.findChild<AtlasSection *>() == nullptr);
        auto *section = window.page(QStringLiteral("architecture"))->findChild<AtlasSection *>();
        QVERIFY(section);
        section->showEstimate(document->estimatedScenario(), document->estimate());
        const QByteArray before = scenarioToJson(document->scenario());
        const int steps = document->undoStack()->count();
        // BERT-base's 512-token context and 12 heads rule out the course example's seq_len and tp.
        QVERIFY(section->loadRow(proxyRowOf(*section, "bert-base")));
        QCOMPARE(document->undoStack()->count(), steps + 1);
        const Scenario &after = document->scenario();
        QVERIFY(after.model == findAtlasEntry("bert-base")->model);
        QVERIFY2(validate(after).empty(), formatProblems(validate(after)).c_str());
        QVERIFY(after.training.seq_len <= 512);
        QVERIFY2(!document->adjustmentNote().isEmpty(), "the adjustment sentence is shown");
        document->undoStack()->undo();
        QCOMPARE(scenarioToJson(document->scenario()), before);
    }
};

QTEST_MAIN(TestAtlasSection)
#include "test_atlas_section.moc"
