// SPDX-License-Identifier: GPL-3.0-or-later
// The application shell, offscreen: editing, validation, undo, documents, export and screenshots.

#include "charts/chart_view.h"
#include "document/recovery_dialog.h"
#include "document/scenario_document.h"
#include "editor/scenario_editor.h"
#include "main_window.h"
#include "pages/page.h"
#include "pages/parallel/search_page.h"
#include "work_progress_dialog.h"

#include "scenario/scenario_json.h"

#include <qcustomplot.h>

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPainter>
#include <QPushButton>
#include <QProcess>
#include <QRegularExpression>
#include <QProgressDialog>
#include <QScopeGuard>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace lse;
using namespace lse::gui;

namespace {

QSpinBox *spin(MainWindow &window, const QString &field)
{
    auto *widget = qobject_cast<QSpinBox *>(window.editor()->fieldWidget(field));
    if (!widget)
        qFatal("no spin box for %s", qPrintable(field));
    return widget;
}

QByteArray json(const Scenario &scenario) { return scenarioToJson(scenario); }

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void startsOnTheCourseExample()
    {
        MainWindow window(false);
        const Scenario &scenario = window.document()->scenario();
        QCOMPARE(scenario.cluster.gpus, 1024);
        QCOMPARE(scenario.training.tokens, qint64(15'000'000'000'000));
        QVERIFY(window.document()->hasEstimate());
        QCOMPARE(window.pageIds().mid(0, 4), (QStringList{"overview", "memory", "compute", "time"}));
    }

    void editingAFieldUpdatesEngineAndCharts()
    {
        MainWindow window(false);
        QVERIFY(window.selectPage("memory"));
        Page *memory = window.page("memory");
        QVERIFY(!memory->charts().isEmpty());
        ChartView *chart = memory->charts().front();
        const ChartData before = chart->data();
        const double activations_before = double(window.document()->estimate().memory.activations);
        QSignalSpy changed(window.document(), &ScenarioDocument::scenarioChanged);

        // Full recomputation through the combo box, as a user would pick it.
        auto *recompute = qobject_cast<QComboBox *>(window.editor()->fieldWidget("training.recomputation"));
        QVERIFY(recompute);
        recompute->setCurrentIndex(2);
        emit recompute->activated(2);
        QCOMPARE(changed.count(), 1);
        QVERIFY(window.document()->scenario().training.recomputation == Recomputation::Full);
        QVERIFY(double(window.document()->estimate().memory.activations) < activations_before);
        // The memory chart shows the new numbers.
        bool chart_changed = false;
        const ChartData after = chart->data();
        for (qsizetype i = 0; i < after.series.size() && i < before.series.size(); ++i)
            chart_changed = chart_changed || after.series[i].y != before.series[i].y;
        QVERIFY(chart_changed);

        // A spin box edit (micro-batch) changes the estimate too.
        spin(window, "training.micro_batch")->setValue(2);
        QCOMPARE(window.document()->scenario().training.micro_batch, qint64(2));
    }

    void invalidInputIsFlaggedAndResultsStay()
    {
        MainWindow window(false);
        const QByteArray valid = json(window.document()->estimatedScenario());
        const double days = window.document()->estimate().time.days;
        QSpinBox *tp = spin(window, "training.tp");
        tp->setValue(3);
        QVERIFY(!window.document()->isValid());
        QVERIFY(tp->property("invalid").toBool());
        QVERIFY(tp->toolTip().contains("not divisible by training.tp 3"));
        QVERIFY(window.editor()->problemList()->count() >= 1);
        // The pages keep the last valid scenario and its numbers.
        QCOMPARE(json(window.document()->estimatedScenario()), valid);
        QCOMPARE(window.document()->estimate().time.days, days);
        tp->setValue(8);
        QVERIFY(window.document()->isValid());
        QVERIFY(!tp->property("invalid").toBool());
    }

    void garbageInCountFieldIsFlagged()
    {
        MainWindow window(false);
        auto *tokens = qobject_cast<QLineEdit *>(window.editor()->fieldWidget("training.tokens"));
        QVERIFY(tokens);
        QCOMPARE(tokens->text(), QString("15T"));
        tokens->setText("lots");
        emit tokens->editingFinished();
        QVERIFY(tokens->property("invalid").toBool());
        QCOMPARE(window.document()->scenario().training.tokens, qint64(15'000'000'000'000));
        tokens->setText("300B");
        emit tokens->editingFinished();
        QCOMPARE(window.document()->scenario().training.tokens, qint64(300'000'000'000));
    }

    void undoRedoRestoresValues()
    {
        MainWindow window(false);
        QUndoStack *stack = window.document()->undoStack();
        const QByteArray original = json(window.document()->scenario());
        spin(window, "model.n_layers")->setValue(40);
        auto *flash = qobject_cast<QCheckBox *>(window.editor()->fieldWidget("training.flash_attention"));
        flash->setChecked(false);
        QCOMPARE(stack->count(), 2);
        stack->undo();
        QVERIFY(window.document()->scenario().training.flash_attention);
        QVERIFY(flash->isChecked());  // the widget follows the document
        stack->undo();
        QCOMPARE(json(window.document()->scenario()), original);
        QCOMPARE(spin(window, "model.n_layers")->value(), 80);
        stack->redo();
        QCOMPARE(window.document()->scenario().model.n_layers, 40);
        QVERIFY(window.document()->isModified());
    }

    void spinningIsOneUndoStep()
    {
        MainWindow window(false);
        QSpinBox *layers = spin(window, "model.n_layers");
        for (int value = 81; value <= 88; ++value)
            layers->setValue(value);
        QCOMPARE(window.document()->undoStack()->count(), 1);
        window.document()->undoStack()->undo();
        QCOMPARE(window.document()->scenario().model.n_layers, 80);
    }

    // The optional link fields: a value overrides the catalog, "catalog" (0) clears it; each edit
    // is one undo step and undo restores the catalog default (and the widget follows).
    void linkFieldEditIsOneUndoStep()
    {
        MainWindow window(false);
        auto *network = qobject_cast<QDoubleSpinBox *>(window.editor()->fieldWidget("cluster.inter_node_gbps_per_gpu"));
        QVERIFY(network != nullptr);
        QCOMPARE(network->value(), 0.0);
        QVERIFY(!network->specialValueText().isEmpty());
        QSignalSpy changed(window.document(), &ScenarioDocument::scenarioChanged);
        network->setValue(200);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(window.document()->undoStack()->count(), 1);
        QCOMPARE(window.document()->scenario().cluster.inter_node_gbps_per_gpu.value_or(0), 200.0);
        window.document()->undoStack()->undo();
        QVERIFY(!window.document()->scenario().cluster.inter_node_gbps_per_gpu.has_value());
        QCOMPARE(network->value(), 0.0);

        auto *overlap = qobject_cast<QCheckBox *>(window.editor()->fieldWidget("training.dp_overlap"));
        QVERIFY(overlap != nullptr && overlap->isChecked());
        overlap->setChecked(false);
        QVERIFY(!window.document()->scenario().training.parallel.dp_overlap);
        window.document()->undoStack()->undo();
        QVERIFY(window.document()->scenario().training.parallel.dp_overlap);
    }

    // Layers per stage: empty is the automatic split (shown as the placeholder); a list is one
    // undo step; the engine's problems land on the field; text that is no list never reaches it.
    void stageLayersFieldEditsTheList()
    {
        MainWindow window(false);
        auto *layers = qobject_cast<QLineEdit *>(window.editor()->fieldWidget("training.stage_layers"));
        QVERIFY(layers != nullptr);
        QVERIFY(layers->text().isEmpty());
        QCOMPARE(layers->placeholderText(), QString("automatic: 20,20,20,20"));  // 80 layers on 4 stages
        QSignalSpy changed(window.document(), &ScenarioDocument::scenarioChanged);
        layers->setText("19,21,21,19");
        emit layers->editingFinished();
        QCOMPARE(changed.count(), 1);
        QCOMPARE(window.document()->undoStack()->count(), 1);
        QCOMPARE(window.document()->scenario().training.parallel.stage_layers, (std::vector<int>{19, 21, 21, 19}));
        QVERIFY(window.document()->isValid());
        window.document()->undoStack()->undo();
        QVERIFY(layers->text().isEmpty());  // the widget follows the document
        window.document()->undoStack()->redo();
        QCOMPARE(layers->text(), QString("19,21,21,19"));

        layers->setText("20,20,20,19");
        emit layers->editingFinished();
        QVERIFY(!window.document()->isValid());
        QVERIFY(layers->property("invalid").toBool());
        QVERIFY2(layers->toolTip().contains("must sum to model.n_layers 80"), qPrintable(layers->toolTip()));

        const int steps = window.document()->undoStack()->count();
        layers->setText("20;20");
        emit layers->editingFinished();
        QCOMPARE(window.document()->undoStack()->count(), steps);
        QVERIFY(layers->property("invalid").toBool());
        QVERIFY(layers->toolTip().contains("training.stage_layers: '20;20' is not a comma-separated list"));

        layers->setText("");
        emit layers->editingFinished();
        QVERIFY(window.document()->scenario().training.parallel.stage_layers.empty());
        QVERIFY(window.document()->isValid());

        // Another depth: the placeholder shows its automatic split (70 on 4 stages).
        spin(window, "model.n_layers")->setValue(70);
        QCOMPARE(layers->placeholderText(), QString("automatic: 17,18,18,17"));
    }

    void presetPickerLoadsAModel()
    {
        MainWindow window(false);
        QComboBox *presets = window.editor()->presetPicker();
        const int index = presets->findData("gpt2-small");
        QVERIFY(index > 0);
        presets->setCurrentIndex(index);
        emit presets->activated(index);
        QCOMPARE(window.document()->scenario().model.d_model, qint64(768));
        QCOMPARE(window.document()->undoStack()->count(), 1);
    }

    void saveOpenRoundTripsExactly()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("run.json");
        MainWindow window(false);
        spin(window, "training.zero_stage")->setValue(3);
        spin(window, "model.n_layers")->setValue(64);
        QString error;
        QVERIFY2(window.document()->save(path, &error), qPrintable(error));
        QVERIFY(!window.document()->isModified());
        MainWindow other(false);
        QVERIFY2(other.openFile(path, &error), qPrintable(error));
        QCOMPARE(json(other.document()->scenario()), json(window.document()->scenario()));
        QCOMPARE(other.document()->filePath(), QFileInfo(path).absoluteFilePath());
    }

    void malformedFileKeepsTheDocument()
    {
        QTemporaryDir dir;
        MainWindow window(false);
        spin(window, "model.n_layers")->setValue(48);
        const QByteArray before = json(window.document()->scenario());
        const std::pair<const char *, const char *> files[] = {
            {"broken.json", R"({"format": "llm-explorer-scenario", "version": 1, "model": {"n_layers": )"},
            {"wrong.json", R"({"format": "llm-explorer-scenario", "version": 1, "model": {"n_layers": "many"}})"},
            {"notmodel.json", R"({"hello": "world"})"},
        };
        for (const auto &[name, content] : files) {
            const QString path = dir.filePath(name);
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(content);
            file.close();
            QString error;
            QVERIFY2(!window.openFile(path, &error), name);
            QVERIFY2(!error.isEmpty(), name);
            QCOMPARE(json(window.document()->scenario()), before);
        }
    }

    void importsHuggingFaceConfig()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("config.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"model_type": "llama", "hidden_size": 2048, "num_hidden_layers": 16,
                      "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 8192,
                      "vocab_size": 128256, "max_position_embeddings": 131072, "tie_word_embeddings": true})");
        file.close();
        MainWindow window(false);
        QString error;
        QVERIFY2(window.openFile(path, &error), qPrintable(error));
        QCOMPARE(window.document()->scenario().model.d_model, qint64(2048));
        QVERIFY(window.document()->undoStack()->canUndo());
    }

    void exportAllWritesEveryFormat()
    {
        QTemporaryDir dir;
        MainWindow window(false);
        window.resize(1280, 800);
        QString error;
        QVERIFY2(window.exportAllPages(dir.path(), &error) == MainWindow::ExportResult::Done, qPrintable(error));
        int files = 0;
        for (const QString &id : window.pageIds()) {
            const QDir folder(dir.filePath(id));
            QVERIFY2(QFileInfo(folder.filePath("page.png")).size() > 0, qPrintable(id));
            for (ChartView *chart : window.page(id)->charts())
                for (const char *extension : {"png", "pdf", "svg", "csv"}) {
                    const QFileInfo info(folder.filePath(chart->id() + "." + extension));
                    QVERIFY2(info.size() > 0, qPrintable(info.filePath()));
                    ++files;
                }
        }
        QVERIFY(files >= 4 * 6);
        QVERIFY(!QImage(dir.filePath("memory/page.png")).isNull());
    }

    // File → Export All Pages right after launch, no page shown yet: every page is selected,
    // laid out and finished (the search done, queued replots drawn) before it is grabbed, so its
    // image is the page as the user sees it when it is shown.
    void exportAllFinishesEachPageBeforeGrabbing()
    {
        QTemporaryDir dir;
        MainWindow window(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QCOMPARE(window.exportAllPages(dir.path(), &error), MainWindow::ExportResult::Done);
        auto *search = qobject_cast<SearchPage *>(window.page("search"));
        QVERIFY(search && search->isReady() && search->result());
        QVERIFY(search->resultsTable()->rowCount() > 0);
        for (const QString id : {"roofline", "pipeline", "layout", "search"}) {
            Page *page = window.page(id);
            QVERIFY(window.selectPage(id));
            for (int i = 0; i < 5; ++i)
                QCoreApplication::processEvents();
            for (ChartView *chart : page->charts())
                chart->plot()->replot(QCustomPlot::rpImmediateRefresh);
            const QImage shown = page->grab().toImage().convertToFormat(QImage::Format_ARGB32);
            const QImage exported = QImage(dir.filePath(id + "/page.png")).convertToFormat(QImage::Format_ARGB32);
            QVERIFY2(exported == shown, qPrintable(id));
        }
    }

    // Cancel stops before the next page and keeps what was written; a progress dialog counts pages.
    void exportAllCanBeCancelled()
    {
        QTemporaryDir dir;
        MainWindow window(false);
        window.resize(1280, 800);
        QSignalSpy started(&window, &MainWindow::exportPageStarted);
        QString dialog_label;
        int dialog_maximum = -1;
        connect(&window, &MainWindow::exportPageStarted, &window, [&](int index, int) {
            auto *dialog = window.findChild<QProgressDialog *>();
            QVERIFY(dialog);
            dialog_label = dialog->labelText();
            dialog_maximum = dialog->maximum();
            if (index == 2)
                emit dialog->canceled();  // what its Cancel button sends
        });
        QString error;
        int written = -1;
        QCOMPARE(window.exportAllPages(dir.path(), &error, &written), MainWindow::ExportResult::Cancelled);
        const QStringList ids = window.pageIds();
        QCOMPARE(started.count(), 3);
        QCOMPARE(written, 2);
        QCOMPARE(dialog_maximum, int(ids.size()));
        QVERIFY2(dialog_label.contains(QString("3 of %1").arg(ids.size())), qPrintable(dialog_label));
        QVERIFY(QFileInfo(dir.filePath(ids[0] + "/page.png")).size() > 0);
        QVERIFY(QFileInfo(dir.filePath(ids[1] + "/page.png")).size() > 0);
        QVERIFY(!QFileInfo::exists(dir.filePath(ids[2])));
        QVERIFY(!QFileInfo::exists(dir.filePath(ids.last())));
    }

    // Issue 28 item 23: in presentation mode the tables' headers kept the normal font over enlarged
    // cells. Every header of every page built before the switch follows its table, and back.
    void tableHeadersFollowPresentationFonts()
    {
        MainWindow window(false);
        window.resize(1024, 768);
        const QStringList pages = {"search", "reference_run", "validation", "layout", "tokenization"};
        for (const QString &id : pages)
            QVERIFY(window.selectPage(id));
        const auto headersFollow = [&window](const char *when) {
            int headers = 0;
            for (const QHeaderView *header : window.findChildren<QHeaderView *>()) {
                const auto *table = qobject_cast<const QTableView *>(header->parentWidget());
                if (!table)
                    continue;
                ++headers;
                QVERIFY2(qFuzzyCompare(header->font().pointSizeF(), QApplication::font().pointSizeF()),
                         qPrintable(QString("%1: %2 header %3 pt, application %4 pt")
                                        .arg(when, table->objectName())
                                        .arg(header->font().pointSizeF())
                                        .arg(QApplication::font().pointSizeF())));
            }
            QVERIFY(headers >= 5);
        };
        const qreal normal = QApplication::font().pointSizeF();
        window.setPresentation(true);
        QVERIFY(QApplication::font().pointSizeF() > normal);
        QVERIFY(!window.renderScreenshot(QSize(1024, 768)).isNull());  // as --screenshot --presentation
        headersFollow("presentation");
        window.setPresentation(false);
        headersFollow("normal");
    }

    // Return pressed while Export All runs (the second Enter of "type the folder, Enter, Enter")
    // does not cancel it: the progress dialog has no default button (issue 28 item 21).
    void exportAllIgnoresReturn()
    {
        QTemporaryDir dir;
        MainWindow window(false);
        window.resize(1280, 800);
        int written = -1;
        QSignalSpy canceled(&window, &MainWindow::exportCancelRequested);
        connect(&window, &MainWindow::exportPageStarted, &window, [&](int index, int) {
            auto *dialog = window.findChild<QProgressDialog *>();
            QVERIFY(dialog);
            if (index == 1) {
                QTest::keyClick(dialog, Qt::Key_Return);
                QTest::keyClick(dialog, Qt::Key_Enter);
            }
            if (index == 2)
                emit dialog->canceled();  // end the test's export early, on purpose
        });
        QString error;
        QCOMPARE(window.exportAllPages(dir.path(), &error, &written), MainWindow::ExportResult::Cancelled);
        QCOMPARE(written, 2);  // Return at page 2 cancelled after 1 page before the fix
        QCOMPARE(canceled.count(), 1);
    }

    // Every progress dialog of the app (WorkProgressDialog): Return and Enter never cancel, even
    // with the Cancel button focused; Escape and a click do.
    void progressDialogHasNoDefaultButton()
    {
        QWidget parent;
        parent.show();
        WorkProgressDialog dialog(QStringLiteral("Working"), 10, &parent);
        dialog.setMinimumDuration(0);
        dialog.setValue(1);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QSignalSpy canceled(&dialog, &QProgressDialog::canceled);
        const QList<QPushButton *> buttons = dialog.findChildren<QPushButton *>();
        QCOMPARE(buttons.size(), 1);
        for (QPushButton *button : buttons) {
            QVERIFY(!button->isDefault());
            QVERIFY(!button->autoDefault());
        }
        QTest::keyClick(&dialog, Qt::Key_Return);
        QTest::keyClick(&dialog, Qt::Key_Enter);
        buttons.front()->setFocus();
        QTest::keyClick(buttons.front(), Qt::Key_Return);
        QTest::keyClick(&dialog, Qt::Key_Enter);
        QCOMPARE(canceled.count(), 0);
        QVERIFY(!dialog.wasCanceled());
        QTest::keyClick(&dialog, Qt::Key_Escape);
        QCOMPARE(canceled.count(), 1);
    }

    // Ctrl+PgDn / Ctrl+PgUp step through the pages (wrapping), Ctrl+1…9 jump to one; Ctrl++ /
    // Ctrl+- / Ctrl+0 zoom the application font outside presentation mode only.
    void keyboardSelectsPagesAndZooms()
    {
        MainWindow window(false);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        const QStringList ids = window.pageIds();
        QCOMPARE(window.currentPage()->id(), ids[0]);
        QTest::keyClick(&window, Qt::Key_PageDown, Qt::ControlModifier);
        QCOMPARE(window.currentPage()->id(), ids[1]);
        QTest::keyClick(&window, Qt::Key_PageUp, Qt::ControlModifier);
        QTest::keyClick(&window, Qt::Key_PageUp, Qt::ControlModifier);
        QCOMPARE(window.currentPage()->id(), ids.last());
        QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(window.currentPage()->id(), ids[2]);

        const qreal normal = QApplication::font().pointSizeF();
        QTest::keyClick(&window, Qt::Key_Plus, Qt::ControlModifier);
        QVERIFY(QApplication::font().pointSizeF() > normal);
        QCOMPARE(window.zoomPercent(), 110);
        QTest::keyClick(&window, Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(QApplication::font().pointSizeF(), normal);
        QTest::keyClick(&window, Qt::Key_Minus, Qt::ControlModifier);
        const qreal smaller = QApplication::font().pointSizeF();
        QVERIFY(smaller < normal);
        // Presentation mode has its own size; zoom keys leave it alone and it returns to the zoom.
        window.setPresentation(true);
        const qreal presentation = QApplication::font().pointSizeF();
        QTest::keyClick(&window, Qt::Key_Plus, Qt::ControlModifier);
        QCOMPARE(QApplication::font().pointSizeF(), presentation);
        window.setPresentation(false);
        QCOMPARE(QApplication::font().pointSizeF(), smaller);
        window.setZoomPercent(100);
        QCOMPARE(QApplication::font().pointSizeF(), normal);
    }

    // Set TP to 3 (invalid), F11, undo, F11: the fields and the editor follow the application
    // font again instead of keeping a copied, pinned font or palette.
    void invalidFieldsFollowPresentationFontAndTheme()
    {
        MainWindow window(false);
        QSpinBox *tp = spin(window, "training.tp");
        tp->setValue(3);
        QVERIFY(tp->property("invalid").toBool());
        window.setPresentation(true);
        window.document()->undoStack()->undo();
        QVERIFY(!tp->property("invalid").toBool());
        window.setPresentation(false);
        const qreal application = QApplication::font().pointSizeF();
        for (const char *field : {"training.dp", "training.tp", "training.pp", "training.cp"}) {
            QWidget *widget = window.editor()->fieldWidget(field);
            QVERIFY2(!widget->testAttribute(Qt::WA_SetFont), field);
            QVERIFY2(!widget->testAttribute(Qt::WA_SetPalette), field);
            QCOMPARE(widget->font().pointSizeF(), application);
        }
        QVERIFY(!window.editor()->testAttribute(Qt::WA_SetFont));
        QCOMPARE(window.editor()->font().pointSizeF(), application);
        // Marked while in presentation mode, then leaving it: the marked field shrinks back too,
        // and a theme change still reaches it.
        window.setPresentation(true);
        tp->setValue(3);
        QVERIFY(tp->property("invalid").toBool());
        window.setPresentation(false);
        QCOMPARE(tp->font().pointSizeF(), application);
        window.setTheme(Theme::Dark);
        QCoreApplication::processEvents();
        const QColor dark_base = spin(window, "model.n_layers")->palette().color(QPalette::Base);
        QCOMPARE(tp->palette().color(QPalette::Base), dark_base);
        window.setTheme(Theme::Light);
        QCoreApplication::processEvents();
        QVERIFY(tp->palette().color(QPalette::Base) != dark_base);
    }

    // First launch without saved geometry on a 1600×1000 screen: a share of the screen, not the
    // layouts' minimum (1038×454). Runs this binary on an offscreen screen of that size.
    void firstLaunchTakesAShareOfTheScreen()
    {
        QTemporaryDir dir;
        QFile config(dir.filePath("screen.json"));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(R"({"screens": [{"name": "wide", "x": 0, "y": 0, "width": 1600, "height": 1000,
                                      "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})");
        config.close();
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert("QT_QPA_PLATFORM", "offscreen:configfile=" + config.fileName());
        environment.insert("LSE_TEST_SCREEN_CHILD", "1");
        QProcess child;
        child.setProcessEnvironment(environment);
        child.start(QCoreApplication::applicationFilePath(), {"firstLaunchSizeOnTheConfiguredScreen"});
        QVERIFY(child.waitForFinished(60000));
        const QByteArray output = child.readAllStandardOutput() + child.readAllStandardError();
        QVERIFY2(child.exitCode() == 0, output.constData());
        QVERIFY2(output.contains("PASS   : TestMainWindow::firstLaunchSizeOnTheConfiguredScreen"), output.constData());
    }
    void firstLaunchSizeOnTheConfiguredScreen()
    {
        if (qEnvironmentVariableIsEmpty("LSE_TEST_SCREEN_CHILD"))
            QSKIP("run by firstLaunchTakesAShareOfTheScreen on a 1600x1000 offscreen screen");
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        QCOMPARE(available.size(), QSize(1600, 1000));
        MainWindow window(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.width() >= 0.75 * available.width() && window.height() >= 0.75 * available.height(),
                 qPrintable(QString("%1x%2").arg(window.width()).arg(window.height())));
        QVERIFY(available.contains(window.geometry()));
    }

    // Presentation mode on 1024×768 and 1280×720 projectors, in both languages: no page is wider
    // than the room it gets (nothing cut off at the right edge), and the Search page uses the
    // application font like every other page instead of scaling it once more.
    void presentationPagesFitProjectors_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("lang");
        QTest::addRow("1024x768 en") << QSize(1024, 768) << "en";
        QTest::addRow("1280x720 en") << QSize(1280, 720) << "en";
        QTest::addRow("1024x768 zh_CN") << QSize(1024, 768) << "zh_CN";
        QTest::addRow("1280x720 zh_CN") << QSize(1280, 720) << "zh_CN";
    }
    void presentationPagesFitProjectors()
    {
        QFETCH(QSize, size);
        QFETCH(QString, lang);
        QVERIFY(MainWindow::installLanguage(lang));
        {
            MainWindow window(false);
            // A failed check returns early: still leave presentation mode and English behind.
            const auto restore = qScopeGuard([&window] {
                window.setPresentation(false);
                MainWindow::installLanguage("en");
            });
            window.resize(size);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.setPresentation(true);
            for (const QString &id : window.pageIds()) {
                QVERIFY(window.selectPage(id));
                for (int i = 0; i < 3; ++i)
                    QCoreApplication::processEvents();
                Page *page = window.page(id);
                const auto *scroll = page->findChild<QScrollArea *>(QString(), Qt::FindDirectChildrenOnly);
                if (!scroll)
                    continue;
                const int needed = scroll->widget()->minimumSizeHint().width();
                const int room = scroll->viewport()->width();
                QVERIFY2(needed <= room, qPrintable(QString("%1 needs %2 px, has %3").arg(id).arg(needed).arg(room)));
                // Panels (the Overview's headline cards) are laid out side by side, never on top
                // of each other.
                QList<QRect> panels;
                for (const QFrame *frame : scroll->widget()->findChildren<QFrame *>())
                    if (frame->frameShape() == QFrame::StyledPanel && frame->isVisible()
                        && !qobject_cast<const QAbstractScrollArea *>(frame))
                        panels << QRect(frame->mapTo(scroll->widget(), QPoint(0, 0)), frame->size());
                for (int a = 0; a < panels.size(); ++a)
                    for (int b = a + 1; b < panels.size(); ++b)
                        QVERIFY2(!panels[a].intersects(panels[b]), qPrintable(id));
            }
            auto *search = qobject_cast<SearchPage *>(window.page("search"));
            QCOMPARE(search->resultsTable()->font().pointSizeF(), QApplication::font().pointSizeF());
            // The memory bar chart keeps a readable plot (it shrank to ~60 px beside a wide list).
            QVERIFY(window.selectPage("memory"));
            for (int i = 0; i < 3; ++i)
                QCoreApplication::processEvents();
            QCustomPlot *bars = window.page("memory")->charts().front()->plot();
            bars->replot(QCustomPlot::rpImmediateRefresh);
            QVERIFY2(bars->axisRect()->height() >= 150, qPrintable(QString::number(bars->axisRect()->height())));
        }
    }

    // Switching to Chinese from the menu, then presentation mode or zoom: the application font
    // keeps the Simplified Chinese fallback family (both derive it from the launch font).
    void languageMenuFontSurvivesPresentationAndZoom()
    {
        MainWindow window(false);
        QAction *chinese = nullptr;
        for (QAction *action : window.findChildren<QAction *>())
            if (action->text() == QString::fromUtf8("简体中文"))
                chinese = action;
        QVERIFY(chinese);
        chinese->trigger();
        QCOMPARE(MainWindow::currentLanguage(), QString("zh_CN"));
        window.setPresentation(true);
        QVERIFY(QApplication::font().families().contains("Noto Sans CJK SC"));
        window.setPresentation(false);
        window.setZoomPercent(120);
        QVERIFY(QApplication::font().families().contains("Noto Sans CJK SC"));
        window.setZoomPercent(100);
        QVERIFY(MainWindow::installLanguage("en"));
    }

    void languageSwitchKeepsTheDocument()
    {
        MainWindow window(false);
        spin(window, "model.n_layers")->setValue(40);
        const QByteArray before = json(window.document()->scenario());
        QVERIFY(MainWindow::installLanguage("zh_CN"));
        MainWindow chinese(false);
        QVERIFY(chinese.pageIds().size() >= 4);
        QVERIFY(MainWindow::installLanguage("en"));
        QCOMPARE(json(window.document()->scenario()), before);
    }

    void presentationModeScalesAndRestores()
    {
        MainWindow window(false);
        const qreal normal = QApplication::font().pointSizeF();
        window.setPresentation(true);
        QVERIFY(QApplication::font().pointSizeF() > normal * 1.4);
        window.setPresentation(false);
        QCOMPARE(QApplication::font().pointSizeF(), normal);
    }

    // Controls on every page follow the application font: a page that scales its own (Layout and
    // Tokenization did, by 1.6 on top of presentation's 1.5) is bigger than the others and ignores zoom.
    void pageControlsFollowTheApplicationFont()
    {
        MainWindow window(false);
        const auto check = [&window](const char *when) {
            const qreal expected = QApplication::font().pointSizeF();
            for (const QString &id : window.pageIds()) {
                window.selectPage(id);
                QCoreApplication::processEvents();
                for (const QWidget *control : window.page(id)->findChildren<QWidget *>()) {
                    if (!qobject_cast<const QComboBox *>(control) && !qobject_cast<const QAbstractSpinBox *>(control)
                        && !qobject_cast<const QAbstractButton *>(control))
                        continue;
                    QVERIFY2(qAbs(control->font().pointSizeF() - expected) < 0.01,
                             qPrintable(QStringLiteral("%1: %2 on page %3 has %4 pt, the application %5 pt")
                                            .arg(when, control->metaObject()->className(), id)
                                            .arg(control->font().pointSizeF())
                                            .arg(expected)));
                }
            }
        };
        check("normal");
        window.setPresentation(true);
        check("presentation");
        window.setPresentation(false);
        check("after presentation");
    }

    // Ctrl+Z / Ctrl+Shift+Z reach the document's undo stack while a field has focus (the field's
    // own text undo used to swallow them); text typed but not committed is kept as a redo step.
    void undoShortcutsWorkInsideFields()
    {
        MainWindow window(false);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QUndoStack *stack = window.document()->undoStack();
        QSpinBox *layers = spin(window, "model.n_layers");
        layers->setValue(40);
        QCOMPARE(stack->index(), 1);
        layers->setFocus();
        QVERIFY(layers->hasFocus());
        QSignalSpy changed(window.document(), &ScenarioDocument::scenarioChanged);
        QTest::keyClick(layers, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(stack->index(), 0);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(layers->value(), 80);
        QTest::keyClick(layers, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(stack->index(), 1);
        QCOMPARE(window.document()->scenario().model.n_layers, 40);

        // Typed into the tokens field without Enter: committed first, then undone; redo restores it.
        auto *tokens = qobject_cast<QLineEdit *>(window.editor()->fieldWidget("training.tokens"));
        QVERIFY(tokens);
        tokens->setFocus();
        tokens->selectAll();
        QTest::keyClicks(tokens, "300B");
        QTest::keyClick(tokens, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(stack->count(), 2);
        QCOMPARE(stack->index(), 1);
        QCOMPARE(window.document()->scenario().training.tokens, qint64(15'000'000'000'000));
        QCOMPARE(tokens->text(), QString("15T"));
        QTest::keyClick(tokens, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(window.document()->scenario().training.tokens, qint64(300'000'000'000));
    }

    // Qt's own strings (dialog buttons) follow the UI language, and emoji are drawn from a colour
    // emoji font (not as boxes) while digits and spaces keep the UI font.
    void qtStringsAndEmojiFontFollowTheLanguage()
    {
        QVERIFY(MainWindow::installLanguage("zh_CN"));
        const bool qt_loaded = MainWindow::qtTranslationLoaded();
        const QString cancel = QCoreApplication::translate("QPlatformTheme", "Cancel");
        const QStringList families = QApplication::font().families();
        QVERIFY(MainWindow::installLanguage("en"));
        QVERIFY(qt_loaded);
        QVERIFY2(cancel != QLatin1String("Cancel"), qPrintable(cancel));
        QVERIFY(families.contains("Noto Sans CJK SC"));
        QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QString("Cancel"));

        // 🙂 in colour: some pixel is clearly saturated (a missing glyph box is grey).
        QImage image(64, 64, QImage::Format_ARGB32);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            QFont font = QApplication::font();
            font.setPixelSize(40);
            painter.setFont(font);
            painter.drawText(image.rect(), Qt::AlignCenter, QString::fromUtf8("\xF0\x9F\x99\x82"));
        }
        bool colour = false;
        for (int y = 0; y < image.height() && !colour; ++y)
            for (int x = 0; x < image.width() && !colour; ++x)
                colour = image.pixelColor(x, y).hsvSaturationF() > 0.5;
        QVERIFY2(colour, "the emoji has no colour pixel: no colour emoji font in the fallback");
        // Digits keep the UI font's advance (an emoji font drawing them would make them wider).
        const QFontMetricsF metrics(QApplication::font());
        QFont plain = QApplication::font();
        plain.setFamilies({plain.family()});
        QCOMPARE(metrics.horizontalAdvance("0123456789 "), QFontMetricsF(plain).horizontalAdvance("0123456789 "));
    }

    // Without any display (no DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM), --version and --help
    // print and exit 0 instead of aborting in QApplication; showing the window is refused with a
    // message and exit 2.
    void versionAndHelpWorkWithoutADisplay_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exit_code");
        QTest::addColumn<QString>("expected");
        QTest::addRow("--version") << QStringList{"--version"} << 0 << QStringLiteral(LSE_VERSION);
        QTest::addRow("--help") << QStringList{"--help"} << 0 << QStringLiteral("--screenshot");
        QTest::addRow("unknown flag") << QStringList{"--bogus"} << 2 << QStringLiteral("bogus");
        QTest::addRow("window") << QStringList{} << 2 << QStringLiteral("DISPLAY");
    }
    void versionAndHelpWorkWithoutADisplay()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exit_code);
        QFETCH(QString, expected);
        QTemporaryDir home;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            environment.remove(QString::fromLatin1(name));
        // The window case must not read the developer's settings or last scenario.
        environment.insert("XDG_CONFIG_HOME", home.path());
        QProcess app;
        app.setProcessEnvironment(environment);
        app.start(QStringLiteral(LSE_GUI_PATH), arguments);
        QVERIFY(app.waitForFinished(60000));
        const QString output = QString::fromUtf8(app.readAllStandardOutput() + app.readAllStandardError());
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);  // no SIGABRT
        QVERIFY2(app.exitCode() == exit_code, qPrintable(output));
        QVERIFY2(output.contains(expected), qPrintable(output));
    }

    void badCommandLineExitsTwo()
    {
        QProcess app;
        app.start(QStringLiteral(LSE_GUI_PATH), {"--page", "nowhere", "--screenshot", "/tmp/x.png"});
        QVERIFY(app.waitForFinished(60000));
        QCOMPARE(app.exitCode(), 2);
        QVERIFY(app.readAllStandardError().contains("--page 'nowhere' is not a page"));
    }

    // Qt shows "%n problem(s)" verbatim unless a translation gives the plural forms; English has its own.
    void englishCountsUseSingularAndPlural()
    {
        QVERIFY(MainWindow::installLanguage("en"));
        MainWindow window(false);
        spin(window, "training.tp")->setValue(3);
        QTRY_VERIFY(!window.document()->isValid());
        const int problems = int(window.document()->problems().size());
        const QString text = QCoreApplication::translate(
            "lse::gui::MainWindow", "%n problem(s) in the scenario; the pages show the last valid results.", nullptr, 1);
        QCOMPARE(text, QStringLiteral("1 problem in the scenario; the pages show the last valid results."));
        const QString many = QCoreApplication::translate(
            "lse::gui::MainWindow", "%n problem(s) in the scenario; the pages show the last valid results.", nullptr,
            problems + 1);
        QVERIFY2(many.startsWith(QString::number(problems + 1) + " problems in"), qPrintable(many));
        int counted = 0;
        for (const QLabel *label : window.findChildren<QLabel *>())
            if (label->text().contains(QLatin1String("problem"))) {
                QVERIFY2(!label->text().contains(QLatin1String("problem(s)")), qPrintable(label->text()));
                ++counted;
            }
        QVERIFY(counted > 0);
    }

    // Issue 28 item 25: "1 document … were autosaved". The recovery dialog agrees with its count,
    // and no English singular form of any %n message keeps a plural verb or a "(s)".
    void englishSingularFormsAgree()
    {
        QVERIFY(MainWindow::installLanguage("en"));
        const RecoveryDialog::Entry entry{QString(), QDateTime::currentDateTimeUtc(), QString()};
        const auto intro = [](const QList<RecoveryDialog::Entry> &entries) {
            RecoveryDialog dialog(entries);
            for (const QLabel *label : dialog.findChildren<QLabel *>())
                if (label->text().contains(QLatin1String("autosaved")))
                    return label->text();
            return QString();
        };
        QVERIFY2(intro({entry}).contains(QLatin1String("1 document with unsaved changes was autosaved")), qPrintable(intro({entry})));
        QVERIFY2(intro({entry, entry}).contains(QLatin1String("2 documents with unsaved changes were autosaved")),
                 qPrintable(intro({entry, entry})));

        QFile file(QStringLiteral(LSE_SOURCE_DIR "/resources/translations/llm_explorer_en.ts"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString ts = QString::fromUtf8(file.readAll());
        static const QRegularExpression message(QStringLiteral("<source>(.*?)</source>\\s*<translation>\\s*"
                                                               "<numerusform>(.*?)</numerusform>\\s*<numerusform>(.*?)</numerusform>"),
                                                QRegularExpression::DotMatchesEverythingOption);
        int checked = 0;
        for (auto it = message.globalMatch(ts); it.hasNext(); ++checked) {
            const QRegularExpressionMatch match = it.next();
            const QString singular = match.captured(2);
            QVERIFY2(!singular.contains(QLatin1String("(s)")) && !singular.contains(QLatin1String("(es)")),
                     qPrintable(singular));
            // A plural verb in the counted noun's clause is wrong in the singular.
            static const QRegularExpression plural_verb(QStringLiteral("%n [^.;:]*?\\b(were|are)\\b"));
            QVERIFY2(!plural_verb.match(singular).hasMatch(), qPrintable(singular));
        }
        QVERIFY(checked > 40);
    }

    // --- issue 13: models adapt the scenario, problems offer fixes, names follow edits ----------

    void importingAConfigAdaptsTheScenarioInOneStep()
    {
        // Qwen2.5-7B: 28 heads / 4 KV heads do not split 8 ways; the course layout had tp 8.
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("my-qwen"));
        const QString path = dir.filePath("my-qwen/config.json");
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(R"({"model_type": "qwen2", "hidden_size": 3584, "intermediate_size": 18944,
                           "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4,
                           "vocab_size": 150000, "max_position_embeddings": 32768})");
        }
        MainWindow window(false);
        window.selectPage("overview");
        QSignalSpy changed(window.document(), &ScenarioDocument::scenarioChanged);
        QString error;
        QVERIFY2(window.openFile(path, &error), qPrintable(error));
        QCOMPARE(changed.count(), 1);
        QVERIFY2(window.document()->isValid(), qPrintable(QString::fromStdString(formatProblems(window.document()->problems()))));
        QCOMPARE(window.document()->scenario().training.parallel.tp, 4);
        // The pages show the imported model, not the last valid Llama 2 70B.
        QCOMPARE(QString::fromStdString(window.document()->estimatedScenario().model.name), QString("my-qwen"));
        QCOMPARE(window.document()->undoStack()->count(), 1);
        QLabel *note = window.editor()->adjustmentLabel();
        QVERIFY(note->isVisibleTo(window.editor()));
        QVERIFY2(note->text().contains("tp 8 → 4: 28 heads / 4 KV heads are not divisible by 8"), qPrintable(note->text()));
        window.document()->undoStack()->undo();
        QCOMPARE(window.document()->scenario().training.parallel.tp, 8);
        QCOMPARE(window.document()->scenario().model.name, defaultScenario().model.name);
        QVERIFY(!note->isVisibleTo(window.editor()));
    }

    void choosingAPresetAdaptsTheScenario()
    {
        MainWindow window(false);
        QComboBox *presets = window.editor()->presetPicker();
        const int index = presets->findData("gpt2-small");
        presets->setCurrentIndex(index);
        emit presets->activated(index);
        QVERIFY(window.document()->isValid());
        QCOMPARE(window.document()->scenario().training.seq_len, qint64(1024));
        QCOMPARE(window.document()->undoStack()->count(), 1);
        QVERIFY(window.editor()->adjustmentLabel()->text().contains("seq_len 4096 → 1024"));
    }

    void problemsOfferFixes()
    {
        MainWindow window(false);
        Scenario broken = window.document()->scenario();
        broken.training.parallel.tp = 3;       // divides no head count, nor the GPUs
        broken.training.global_batch = 1000;   // not a multiple of micro·dp
        broken.training.mfu = 3;               // no obvious repair
        window.document()->replaceScenario(broken, "break");
        QVERIFY(!window.document()->isValid());
        QPushButton *fix = window.editor()->fixButton();
        QPushButton *fix_all = window.editor()->fixAllButton();
        QListWidget *list = window.editor()->problemList();
        QVERIFY(fix_all->isEnabled());

        // One fix: the batch problem's row.
        int batch_row = -1;
        for (int row = 0; row < list->count(); ++row)
            if (list->item(row)->text().startsWith("training.global_batch"))
                batch_row = row;
        QVERIFY(batch_row >= 0);
        list->setCurrentRow(batch_row);
        QVERIFY(fix->isEnabled());
        const int steps = window.document()->undoStack()->count();
        QSignalSpy changed(window.document(), &ScenarioDocument::scenarioChanged);
        fix->click();
        QCOMPARE(changed.count(), 1);
        QVERIFY2(window.editor()->adjustmentLabel()->text().contains("global_batch 1000 → "),
                 qPrintable(window.editor()->adjustmentLabel()->text()));
        QCOMPARE(window.document()->undoStack()->count(), steps + 1);
        for (const Problem &problem : window.document()->problems())
            QVERIFY2(problem.field != "training.global_batch", problem.message.c_str());

        // The MFU problem has no fix; Fix all repairs the rest in one step.
        for (int row = 0; row < list->count(); ++row)
            if (list->item(row)->text().startsWith("training.mfu")) {
                list->setCurrentRow(row);
                QVERIFY(!fix->isEnabled());
            }
        fix_all->click();
        QCOMPARE(window.document()->undoStack()->count(), steps + 2);
        QCOMPARE(window.document()->problems().size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(window.document()->problems().front().field), QString("training.mfu"));
        QVERIFY(!fix_all->isEnabled());
        window.document()->undoStack()->undo();
        QCOMPARE(window.document()->scenario().training.parallel.tp, 3);
    }

    void editedPresetIsNamedCustom()
    {
        MainWindow window(false);
        window.selectPage("overview");
        QSpinBox *layers = spin(window, "model.n_layers");
        layers->setValue(40);
        const QString custom = "Custom (from Llama 2 70B)";
        QCOMPARE(QString::fromStdString(window.document()->scenario().model.name), custom);
        QCOMPARE(window.editor()->presetPicker()->currentIndex(), 0);
        // The overview's sentence names the model as it now is.
        bool named = false;
        for (const QLabel *label : window.page("overview")->findChildren<QLabel *>())
            named = named || label->text().contains(custom + " is a dense model");
        QVERIFY(named);
        // Edited back, it is the preset again.
        layers->setValue(80);
        QCOMPARE(window.document()->scenario().model.name, defaultScenario().model.name);
    }

    void saveOnAFullDiskKeepsTheOldFile()
    {
        // Issue 14 item 3: the document's Save goes through core's checked writer. A forked child
        // saves under a 512-byte file-size limit (SIGXFSZ ignored, so the write fails with EFBIG as
        // one fails with ENOSPC on a full disk): the save must fail with the system's text, the
        // document stay modified under its old name, and the old file stay as it was.
        QTemporaryDir dir;
        const QString path = dir.filePath("run.json");
        const QByteArray old = "the old scenario, which must survive";
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(old);
        }
        MainWindow window(false);
        spin(window, "model.n_layers")->setValue(64);
        QVERIFY(window.document()->isModified());
        std::fflush(nullptr);
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            ::signal(SIGXFSZ, SIG_IGN);
            const rlimit limit{512, 512};
            ::setrlimit(RLIMIT_FSIZE, &limit);
            QSignalSpy fileState(window.document(), &ScenarioDocument::fileStateChanged);
            QString error;
            const bool saved = window.document()->save(path, &error);
            // 0: refused as it should be; anything else says what went wrong.
            int status = 0;
            if (saved)
                status = 10;
            else if (!error.contains(QString::fromLocal8Bit(std::strerror(EFBIG))))
                status = 11;
            else if (!window.document()->isModified() || fileState.count() != 0 || !window.document()->filePath().isEmpty())
                status = 12;
            ::_exit(status);
        }
        int status = -1;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), old);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"run.json"});
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
