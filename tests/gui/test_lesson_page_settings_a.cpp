// SPDX-License-Identifier: GPL-3.0-or-later
// Lesson settings and highlight regions of the cost, hardware, model and foundations pages
// (docs/lesson-pages.md): every page's settings round-trip, bad keys and values are refused with
// the key named and nothing changed, a valid setting changes what the page shows, and every region
// the document lists exists on its page. Sectioned pages are driven through the page, the way the
// main window does it: select the section, then hand the page the step's settings.

#include "charts/chart_view.h"
#include "cost/estimate.h"
#include "pages/cost/compute_page.h"
#include "pages/cost/memory_page.h"
#include "pages/cost/overview_page.h"
#include "pages/cost/time_page.h"
#include "pages/serving/serving_page.h"
#include "pages/traces/trace_page.h"
#include "pages/validation/validation_page.h"
#include "pages/numbers/numbers_page.h"
#include "pages/tensors/tensors_page.h"
#include "pages/hardware/hardware_page.h"
#include "pages/kernels/kernels_page.h"
#include "pages/roofline/roofline_page.h"
#include "pages/architecture/architecture_page.h"
#include "pages/scaling/scaling_page.h"
#include "pages/sectioned_page.h"
#include "scenario/scenario_json.h"

#include <QAbstractItemModel>
#include <QAbstractItemView>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QMap>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTest>

#include <functional>
#include <memory>

using namespace lse;
using namespace lse::gui;

namespace {

// "architecture/choices" → the Architecture page with its choices section selected.
std::unique_ptr<Page> makePage(const QString &step_page)
{
    const QString page_id = step_page.section(QLatin1Char('/'), 0, 0);
    const QString section_id = step_page.section(QLatin1Char('/'), 1);
    const QMap<QString, std::function<Page *()>> factories = {
        {QStringLiteral("overview"), [] { return new OverviewPage; }},
        {QStringLiteral("memory"), [] { return new MemoryPage; }},
        {QStringLiteral("compute"), [] { return new ComputePage; }},
        {QStringLiteral("time"), [] { return new TimePage; }},
        {QStringLiteral("validation"), [] { return new ValidationPage; }},
        {QStringLiteral("serving"), [] { return new ServingPage; }},
        {QStringLiteral("trace"), [] { return new TracePage; }},
        {QStringLiteral("hardware"), [] { return new HardwarePage; }},
        {QStringLiteral("roofline"), [] { return new RooflinePage; }},
        {QStringLiteral("kernels"), [] { return new KernelsPage; }},
        {QStringLiteral("architecture"), [] { return new ArchitecturePage; }},
        {QStringLiteral("scaling"), [] { return new ScalingPage; }},
        {QStringLiteral("numbers"), [] { return new NumbersPage; }},
        {QStringLiteral("tensors"), [] { return new TensorsPage; }},
    };
    if (!factories.contains(page_id))
        return nullptr;
    std::unique_ptr<Page> page(factories.value(page_id)());
    page->resize(1280, 900);
    const Scenario scenario = defaultScenario();
    const Result<Estimate> estimate = lse::estimate(scenario);
    if (estimate)
        page->showEstimate(scenario, estimate.value());
    if (!section_id.isEmpty()) {
        auto *sectioned = qobject_cast<SectionedPage *>(page.get());
        if (sectioned == nullptr || !sectioned->selectSection(section_id))
            return nullptr;
    }
    return page;
}

// Everything the page shows as text and chart data, to tell whether a setting changed it.
QString shownState(const Page &page)
{
    QStringList parts;
    for (const ChartView *chart : page.findChildren<ChartView *>()) {
        const ChartData &data = chart->data();
        parts << chart->id() << data.title << QString::number(data.rects.size()) << data.categories.join(u',');
        for (const ChartSeries &series : data.series) {
            parts << series.name;
            for (qsizetype i = 0; i < series.x.size(); ++i)
                parts << QString::number(series.x[i]) << QString::number(series.y.value(i));
        }
    }
    for (const QLabel *label : page.findChildren<QLabel *>())
        parts << label->text();
    for (const QAbstractItemView *view : page.findChildren<QAbstractItemView *>()) {
        const QAbstractItemModel *model = view->model();
        if (model == nullptr)
            continue;
        for (int row = 0; row < model->rowCount(); ++row)
            for (int column = 0; column < model->columnCount(); ++column)
                parts << model->index(row, column).data().toString();
    }
    return parts.join(QLatin1Char('\n'));
}

// Page id ("architecture/choices") → region object names, from docs/lesson-pages.md: a page's
// heading is "## `id` …" and its regions are the "- `name`" lines under "### Regions".
QMap<QString, QStringList> documentedRegions()
{
    QFile file(QStringLiteral(LSE_SOURCE_DIR "/docs/lesson-pages.md"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QRegularExpression page_heading(QStringLiteral("^## `([^`]+)`"));
    const QRegularExpression item(QStringLiteral("^- `([^`]+)`"));
    QMap<QString, QStringList> regions;
    QString page;
    bool in_regions = false;
    for (const QString &line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'))) {
        if (const auto heading = page_heading.match(line); heading.hasMatch()) {
            page = heading.captured(1);
            in_regions = false;
        } else if (line.startsWith(QLatin1String("### "))) {
            in_regions = line.trimmed() == QLatin1String("### Regions");
        } else if (in_regions && !page.isEmpty()) {
            if (const auto match = item.match(line); match.hasMatch())
                regions[page] << match.captured(1);
        }
    }
    return regions;
}

const QStringList kPages = {
    QStringLiteral("overview"),
    QStringLiteral("memory"),
    QStringLiteral("compute"),
    QStringLiteral("time"),
    QStringLiteral("validation"),
    QStringLiteral("serving"),
    QStringLiteral("hardware"),
    QStringLiteral("roofline"),
    QStringLiteral("kernels/flash-attention"),
    QStringLiteral("kernels/gemm-waves"),
    QStringLiteral("kernels/fusion"),
    QStringLiteral("trace"),
    QStringLiteral("architecture/atlas"),
    QStringLiteral("architecture/choices"),
    QStringLiteral("architecture/positional-encodings"),
    QStringLiteral("architecture/ablations"),
    QStringLiteral("scaling"),
    QStringLiteral("numbers/formats"),
    QStringLiteral("numbers/mixed-precision"),
    QStringLiteral("numbers/underflow"),
    QStringLiteral("tensors/views"),
    QStringLiteral("tensors/access-order"),
};

QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

}  // namespace

class TestLessonPageSettingsA : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data()
    {
        QTest::addColumn<QString>("page_id");
        for (const QString &id : kPages)
            QTest::newRow(qPrintable(id)) << id;
    }
    // Applying what lessonSettings() returns succeeds and changes nothing; a page without
    // settings returns {} and accepts {}.
    void roundTrip()
    {
        QFETCH(QString, page_id);
        std::unique_ptr<Page> page = makePage(page_id);
        QVERIFY(page);
        const QJsonObject settings = page->lessonSettings();
        const QString shown = shownState(*page);
        QString error;
        QVERIFY2(page->applyLessonSettings(settings, &error), qPrintable(error));
        QCOMPARE(page->lessonSettings(), settings);
        QCOMPARE(shownState(*page), shown);
        QVERIFY(page->applyLessonSettings({}, &error));
    }

    void unknownKeyRefused_data() { roundTrip_data(); }
    void unknownKeyRefused()
    {
        QFETCH(QString, page_id);
        std::unique_ptr<Page> page = makePage(page_id);
        QVERIFY(page);
        const QJsonObject before = page->lessonSettings();
        QString error;
        QVERIFY(!page->applyLessonSettings({{QStringLiteral("no_such_setting"), 1}}, &error));
        QVERIFY2(error.startsWith(QLatin1String("no_such_setting:")), qPrintable(error));
        QCOMPARE(page->lessonSettings(), before);
    }

    void badValueRefused_data()
    {
        QTest::addColumn<QString>("page_id");
        QTest::addColumn<QJsonObject>("settings");
        QTest::addColumn<QString>("key");
        // A valid key first (it must not be applied either), then the bad one.
        QTest::newRow("validation") << "validation" << json(R"j({"selected_run":"no-such-run"})j") << "selected_run";
        QTest::newRow("validation tab") << "validation" << json(R"j({"tab":"inference"})j") << "tab";
        QTest::newRow("serving weights") << "serving" << json(R"j({"batch":8,"weights":"int3"})j") << "weights";
        QTest::newRow("serving acceptance") << "serving" << json(R"j({"acceptance":1.5})j") << "acceptance";
        QTest::newRow("hardware") << "hardware" << json(R"j({"first_accelerator":"no-such-gpu"})j")
                                  << "first_accelerator";
        QTest::newRow("roofline phase") << "roofline" << json(R"j({"batch":8,"phase":"forward"})j") << "phase";
        QTest::newRow("roofline batch") << "roofline" << json(R"j({"phase":"decode","batch":3})j") << "batch";
        QTest::newRow("roofline machines") << "roofline" << json(R"j({"machines":["h100-sxm", 7]})j") << "machines";
        QTest::newRow("roofline flash") << "roofline" << json(R"j({"flash_attention":"yes"})j") << "flash_attention";
        QTest::newRow("flash attention algorithm") << "kernels/flash-attention"
                                                   << json(R"j({"head_dim":32,"algorithm":"flash3"})j") << "algorithm";
        QTest::newRow("flash attention sram") << "kernels/flash-attention" << json(R"j({"sram_bytes":100})j")
                                              << "sram_bytes";
        QTest::newRow("gemm waves dtype") << "kernels/gemm-waves" << json(R"j({"m":512,"dtype":"int3"})j") << "dtype";
        QTest::newRow("gemm waves n") << "kernels/gemm-waves" << json(R"j({"n":0})j") << "n";
        QTest::newRow("fusion tokens") << "kernels/fusion" << json(R"j({"width":64,"tokens":-1})j") << "tokens";
        QTest::newRow("atlas") << "architecture/atlas" << json(R"j({"filter":"x","first_year":1900})j") << "first_year";
        QTest::newRow("choices") << "architecture/choices" << json(R"j({"axis":"NormType"})j") << "axis";
        QTest::newRow("positional") << "architecture/positional-encodings" << json(R"j({"heads":4,"rope_base":1})j")
                                    << "rope_base";
        QTest::newRow("ablations") << "architecture/ablations" << json(R"j({"study":"dropout"})j") << "study";
        QTest::newRow("ablation model") << "architecture/ablations" << json(R"j({"steps":10,"model":"gpt-5"})j")
                                        << "model";
        QTest::newRow("formats") << "numbers/formats" << json(R"j({"value":"1","saturate":1})j") << "saturate";
        QTest::newRow("underflow") << "numbers/underflow" << json(R"j({"growth_interval":0.5})j") << "growth_interval";
        QTest::newRow("views shape") << "tensors/views" << json(R"j({"operations":[],"shape":"2,x"})j") << "shape";
        QTest::newRow("views op") << "tensors/views" << json(R"j({"operations":["twist(0)"]})j") << "operations";
        QTest::newRow("views step") << "tensors/views" << json(R"j({"operations":[".T"],"selected_step":2})j")
                                    << "selected_step";
        QTest::newRow("access order") << "tensors/access-order" << json(R"j({"rows":-1})j") << "rows";
    }
    void badValueRefused()
    {
        QFETCH(QString, page_id);
        QFETCH(QJsonObject, settings);
        QFETCH(QString, key);
        std::unique_ptr<Page> page = makePage(page_id);
        QVERIFY(page);
        const QJsonObject before = page->lessonSettings();
        QVERIFY(!before.isEmpty());
        QString error;
        QVERIFY(!page->applyLessonSettings(settings, &error));
        QVERIFY2(error.startsWith(key + QLatin1Char(':')), qPrintable(error));
        QCOMPARE(page->lessonSettings(), before);
    }

    void settingChangesPage_data()
    {
        QTest::addColumn<QString>("page_id");
        QTest::addColumn<QJsonObject>("settings");
        QTest::newRow("serving batch") << "serving" << json(R"j({"batch":64})j");
        QTest::newRow("serving formats") << "serving" << json(R"j({"weights":"int4","kv_cache":"fp8"})j");
        QTest::newRow("hardware") << "hardware" << json(R"j({"second_accelerator":"none"})j");
        QTest::newRow("roofline phase") << "roofline" << json(R"j({"phase":"decode"})j");
        QTest::newRow("roofline batch") << "roofline" << json(R"j({"batch":256})j");
        QTest::newRow("roofline machines") << "roofline" << json(R"j({"machines":["this-cpu"]})j");
        QTest::newRow("flash attention") << "kernels/flash-attention" << json(R"j({"causal":true})j");
        QTest::newRow("gemm waves") << "kernels/gemm-waves" << json(R"j({"n":2432})j");
        QTest::newRow("fusion") << "kernels/fusion" << json(R"j({"training":true})j");
        QTest::newRow("atlas") << "architecture/atlas" << json(R"j({"filter":"no model is called this"})j");
        QTest::newRow("choices") << "architecture/choices" << json(R"j({"axis":"attention"})j");
        QTest::newRow("positional") << "architecture/positional-encodings" << json(R"j({"rope_base":500000})j");
        QTest::newRow("ablations") << "architecture/ablations" << json(R"j({"study":"activation"})j");
        QTest::newRow("formats") << "numbers/formats" << json(R"j({"value":"3.14159"})j");
        QTest::newRow("underflow") << "numbers/underflow" << json(R"j({"scale_exponent":3})j");
        QTest::newRow("views") << "tensors/views" << json(R"j({"shape":"2,3","operations":["transpose(0, 1)"]})j");
    }
    // The page recomputes through its normal path, and lessonSettings() then reports the values set.
    void settingChangesPage()
    {
        QFETCH(QString, page_id);
        QFETCH(QJsonObject, settings);
        std::unique_ptr<Page> page = makePage(page_id);
        QVERIFY(page);
        const QString shown = shownState(*page);
        QString error;
        QVERIFY2(page->applyLessonSettings(settings, &error), qPrintable(error));
        QVERIFY(shownState(*page) != shown);
        const QJsonObject after = page->lessonSettings();
        for (auto it = settings.begin(); it != settings.end(); ++it)
            QCOMPARE(after.value(it.key()), it.value());
    }

    void roofline_phaseChangesAcceleratorChart()
    {
        RooflinePage page;
        const Scenario scenario = defaultScenario();
        page.showEstimate(scenario, lse::estimate(scenario).value());
        const ChartData before = page.acceleratorChart()->data();
        QString error;
        QVERIFY2(page.applyLessonSettings(json(R"j({"phase":"decode","batch":1})j"), &error), qPrintable(error));
        const ChartData after = page.acceleratorChart()->data();
        QCOMPARE(after.series.size(), before.series.size());
        bool moved = false;
        for (qsizetype s = 0; s < after.series.size(); ++s)
            moved = moved || after.series[s].x != before.series[s].x;
        QVERIFY(moved);  // the operators' intensities differ between a training step and one decode token
    }

    // Selecting another published run fills the operator table with that run's operators.
    void validation_selectedRunChangesOperatorTable()
    {
        std::unique_ptr<Page> page = makePage(QStringLiteral("validation"));
        QVERIFY(page);
        const QString current = page->lessonSettings().value(QStringLiteral("selected_run")).toString();
        QVERIFY(!current.isEmpty());
        const QString other = current == QLatin1String("narayanan21_t1_3.6B") ? QStringLiteral("narayanan21_t1_1.7B")
                                                                              : QStringLiteral("narayanan21_t1_3.6B");
        const QString shown = shownState(*page);
        QString error;
        QVERIFY2(page->applyLessonSettings({{QStringLiteral("selected_run"), other}}, &error), qPrintable(error));
        QCOMPARE(page->lessonSettings().value(QStringLiteral("selected_run")).toString(), other);
        QVERIFY(shownState(*page) != shown);
    }

    // The sectioned pages forward to the selected section: settings of another section are not known.
    void sectionedPageForwardsToCurrentSection()
    {
        std::unique_ptr<Page> page = makePage(QStringLiteral("architecture/choices"));
        QVERIFY(page);
        QVERIFY(page->lessonSettings().contains(QStringLiteral("axis")));
        QString error;
        QVERIFY(!page->applyLessonSettings(json(R"j({"study":"norm"})j"), &error));
        QVERIFY2(error.startsWith(QLatin1String("study:")), qPrintable(error));
        auto *sectioned = qobject_cast<SectionedPage *>(page.get());
        QVERIFY(sectioned->selectSection(QStringLiteral("ablations")));
        QVERIFY2(page->applyLessonSettings(json(R"j({"study":"norm"})j"), &error), qPrintable(error));
        QCOMPARE(page->lessonSettings().value(QStringLiteral("study")).toString(), QStringLiteral("norm"));
    }

    void documentedRegionsExist_data()
    {
        QTest::addColumn<QString>("page_id");
        QTest::addColumn<QStringList>("regions");
        const QMap<QString, QStringList> documented = documentedRegions();
        QVERIFY(!documented.isEmpty());
        for (const QString &id : kPages) {
            QVERIFY2(documented.contains(id), qPrintable(id + " has no regions in docs/lesson-pages.md"));
            QTest::newRow(qPrintable(id)) << id << documented.value(id);
        }
    }
    void documentedRegionsExist()
    {
        QFETCH(QString, page_id);
        QFETCH(QStringList, regions);
        std::unique_ptr<Page> page = makePage(page_id);
        QVERIFY(page);
        QSet<QString> chart_ids;
        for (const ChartView *chart : page->charts())
            chart_ids.insert(chart->id());
        for (const QString &region : regions)
            QVERIFY2(page->findChild<QWidget *>(region) != nullptr || chart_ids.contains(region),
                     qPrintable(page_id + ": no region " + region));
    }
};

QTEST_MAIN(TestLessonPageSettingsA)
#include "test_lesson_page_settings_a.moc"
