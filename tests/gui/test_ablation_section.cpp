// SPDX-License-Identifier: GPL-3.0-or-later
// The Architecture page's Ablations tab offscreen: the shipped study shown at start, two tiny
// variants trained in the worker to the end (curves, table, readiness), Cancel keeping what
// finished, save → open round trip and a damaged file's message, exports and presentation mode.

#include "background_timeout.h"
#include "charts/chart_view.h"
#include "pages/architecture/ablation_section.h"
#include "pages/architecture/architecture_page.h"
#include "reference/ablation/ablation_results_json.h"
#include "reference/ablation/ablation_runner.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace lse;
using namespace lse::gui;

namespace {

// A model small enough that a step takes milliseconds, also under AddressSanitizer.
reference::TrainConfig tinyTestConfig()
{
    reference::TrainConfig c;
    c.model.name = "test";
    c.model.n_layers = 1;
    c.model.d_model = 32;
    c.model.n_heads = 2;
    c.model.n_kv_heads = 2;
    c.model.head_dim = 16;
    c.model.d_ff = 64;
    c.model.vocab_size = 300;
    c.model.max_seq_len = 32;
    c.batch_size = 4;
    c.warmup_steps = 2;
    c.eval_batches = 1;
    c.lr_max = 1e-2;
    c.lr_min = 1e-3;
    c.threads = 1;  // the model is too small to gain from two, and spinning teams slow ctest -j down
    return c;
}

// The norm study with the test model and text, "No norm" unticked: two variants.
void prepareNormRun(AblationSection &section, int steps)
{
    section.setTrainingText(reference::builtinAblationText().value().substr(0, 30000));
    section.studyBox()->setCurrentIndex(section.studyBox()->findData(QStringLiteral("norm")));
    section.modelBox()->setCurrentIndex(section.addModelChoice(QStringLiteral("test"), tinyTestConfig()));
    QCOMPARE(section.variantList()->count(), 3);
    section.variantList()->item(2)->setCheckState(Qt::Unchecked);
    section.stepsSpin()->setValue(steps);
}

}  // namespace

class TestAblationSection : public QObject {
    Q_OBJECT
private slots:
    void showsTheShippedStudyAtStart()
    {
        AblationSection section;
        QVERIFY(section.isReady());
        QCOMPARE(section.studyBox()->currentData().toString(), QStringLiteral("norm"));
        const reference::AblationResults &shown = section.shownResults();
        QCOMPARE(shown.study, std::string("norm"));
        QVERIFY(shown.variants.size() >= 2);
        QCOMPARE(section.resultsTable()->rowCount(), int(shown.variants.size()));
        // One training and one validation curve per variant.
        QCOMPARE(section.charts().front()->data().series.size(), qsizetype(2 * shown.variants.size()));
        // Every shipped study loads and belongs to a study of the list.
        for (const QString &name : QDir(QStringLiteral(":/ablations")).entryList({QStringLiteral("*.json")})) {
            QFile file(QStringLiteral(":/ablations/") + name);
            QVERIFY(file.open(QIODevice::ReadOnly));
            Result<reference::AblationResults> r = reference::ablationResultsFromJson(file.readAll());
            QVERIFY2(r.ok(), qPrintable(name));
            QVERIFY(section.studyBox()->findData(QString::fromStdString(r.value().study)) >= 0);
            section.studyBox()->setCurrentIndex(section.studyBox()->findData(QString::fromStdString(r.value().study)));
            QCOMPARE(section.shownResults().variants.size(), r.value().variants.size());
        }
    }

    void runsTwoVariantsToTheEnd()
    {
        AblationSection section;
        prepareNormRun(section, 20);
        QSignalSpy finished(&section, &AblationSection::runFinished);
        QSignalSpy ready(&section, &AblationSection::ready);
        QTest::mouseClick(section.runButton(), Qt::LeftButton);
        QVERIFY(!section.isReady());
        QVERIFY(!section.runButton()->isEnabled());
        QVERIFY(section.cancelButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kBackgroundWorkTimeoutMs);
        QCOMPARE(ready.count(), 1);
        QVERIFY(section.isReady());
        const reference::AblationResults &shown = section.shownResults();
        QVERIFY(!shown.cancelled);
        QCOMPARE(shown.variants.size(), std::size_t(2));
        for (const reference::AblationResult &v : shown.variants) {
            QVERIFY(v.status == reference::VariantStatus::Finished);
            QCOMPARE(v.stepsCompleted(), 20);
            QVERIFY(v.curve.back().train_loss < v.curve.front().train_loss);
        }
        QCOMPARE(shown.variants[1].variant.name, std::string("LayerNorm"));
        const ChartData &curves = section.charts().front()->data();
        QCOMPARE(curves.series.size(), 4);
        QCOMPARE(curves.series[0].x.size(), 20);
        QCOMPARE(curves.series[0].color, curves.series[1].color);  // one colour per variant
        QVERIFY(curves.series[0].color != curves.series[2].color);
        QCOMPARE(section.resultsTable()->rowCount(), 2);
        QCOMPARE(section.resultsTable()->item(1, 0)->text(), QStringLiteral("LayerNorm"));
        QCOMPARE(section.progressBar()->value(), section.progressBar()->maximum());
    }

    void cancelKeepsWhatFinished()
    {
        AblationSection section;
        prepareNormRun(section, 100000);
        QSignalSpy finished(&section, &AblationSection::runFinished);
        section.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(section.progressBar()->value() >= 3, kBackgroundWorkTimeoutMs);
        QTest::mouseClick(section.cancelButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kBackgroundWorkTimeoutMs);
        const reference::AblationResults &shown = section.shownResults();
        QVERIFY(shown.cancelled);
        QCOMPARE(shown.variants.size(), std::size_t(1));
        QVERIFY(shown.variants[0].status == reference::VariantStatus::Cancelled);
        QVERIFY(shown.variants[0].stepsCompleted() >= 3);
        QVERIFY(shown.variants[0].stepsCompleted() < 100000);
        QVERIFY(section.isReady());
        QVERIFY(section.runButton()->isEnabled());
    }

    void destroyedMidRunStopsTheWorker()
    {
        auto section = std::make_unique<AblationSection>();
        prepareNormRun(*section, 100000);
        section->startRun();
        QTRY_VERIFY_WITH_TIMEOUT(section->progressBar()->value() >= 2, kBackgroundWorkTimeoutMs);
        section.reset();  // cancels and joins the worker thread; nothing may crash or hang
        QVERIFY(!section);
    }

    void saveThenOpenRoundTrips()
    {
        QTemporaryDir dir;
        AblationSection section;
        prepareNormRun(section, 5);
        QSignalSpy finished(&section, &AblationSection::runFinished);
        section.startRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kBackgroundWorkTimeoutMs);
        const reference::AblationResults saved = section.shownResults();
        const QString path = dir.filePath(QStringLiteral("results.json"));
        QString error;
        QVERIFY2(section.saveResults(path, &error), qPrintable(error));

        AblationSection other;
        other.studyBox()->setCurrentIndex(other.studyBox()->findData(QStringLiteral("position")));
        QVERIFY2(other.openResults(path, &error), qPrintable(error));
        QVERIFY(other.shownResults() == saved);
        QCOMPARE(other.studyBox()->currentData().toString(), QStringLiteral("norm"));
        QCOMPARE(other.resultsTable()->rowCount(), 2);

        // A damaged file: the message names the file, the field and the rule; what is shown stays.
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray json = file.readAll();
        file.close();
        json.replace("\"tokens_per_s\": ", "\"tokens_per_s\": -");
        const QString damaged = dir.filePath(QStringLiteral("damaged.json"));
        QFile out(damaged);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(json);
        out.close();
        QVERIFY(!other.openResults(damaged, &error));
        QVERIFY2(error.contains(damaged) && error.contains(QStringLiteral("tokens_per_s"))
                     && error.contains(QStringLiteral("[range]")),
                 qPrintable(error));
        QVERIFY(other.shownResults() == saved);
        QVERIFY(!other.saveResults(dir.filePath(QStringLiteral("missing/folder/r.json")), &error));
        QVERIFY2(error.contains(QStringLiteral("missing/folder")) && error.contains(QStringLiteral("[unwritable]")),
                 qPrintable(error));
    }

    void architecturePageHasTheTabAndExportsItsCharts()
    {
        ArchitecturePage page;
        int tab = -1;
        for (int i = 0; i < page.tabs()->count(); ++i)
            if (page.tabs()->tabText(i) == QStringLiteral("Ablations"))
                tab = i;
        QVERIFY(tab >= 0);
        QStringList ids;
        for (ChartView *chart : page.charts())
            ids << chart->id();
        QVERIFY(ids.contains(QStringLiteral("ablation-loss-curves")));
        QVERIFY(ids.contains(QStringLiteral("ablation-final-validation-loss")));
        QTemporaryDir dir;
        for (ChartView *chart : page.charts()) {
            if (!chart->id().startsWith(QStringLiteral("ablation")))
                continue;
            QString error;
            QVERIFY2(chart->exportAll(dir.path(), &error), qPrintable(error));
            for (const char *suffix : {".png", ".pdf", ".svg", ".csv"})
                QVERIFY(QFileInfo(dir.filePath(chart->id() + QLatin1String(suffix))).size() > 0);
        }
        page.setPresentation(true);
        for (ChartView *chart : page.charts())
            QVERIFY(chart->presentation());
        page.retranslate();
        QVERIFY(page.isReady());
    }
};

QTEST_MAIN(TestAblationSection)
#include "test_ablation_section.moc"
