// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 20: every GUI action that can take well over 200 ms keeps the window painting, shows its
// progress and can be cancelled. One row per action: the test starts it through the real UI (the
// menu action or the page's button), asks the main window to repaint every 20 ms and counts the
// paint events that arrive *while the work is in progress*; once a few have arrived and the
// progress has advanced it presses Cancel and checks the action ends and can be started again.
// Work that blocked the event loop would deliver no paint until it had ended, so no row can pass
// by waiting long enough. Nothing is timed: repaints and progress steps are counted.
// docs/responsiveness.md lists the actions and how each stays responsive.

#include "background_timeout.h"
#include "document/scenario_document.h"
#include "hardware/machine_roofline.h"
#include "lessons/lesson.h"
#include "main_window.h"
#include "pages/tensors/access_order_section.h"
#include "pages/roofline/roofline_page.h"
#include "pages/architecture/ablation_section.h"
#include "pages/architecture/design_choices_section.h"
#include "pages/architecture/norm_timing_panel.h"
#include "pages/reference/reference_run_page.h"
#include "pages/tokenizer/tokenization_page.h"
#include "pages/distributed/distributed_run_page.h"
#include "pages/parallel/search_page.h"
#include "pages/sectioned_page.h"
#include "reference/ablation/ablation_runner.h"
#include "reference/trainer.h"
#include "scenario/scenario.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QJsonObject>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QPointer>
#include <QProgressDialog>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <functional>
#include <memory>

using namespace lse;
using namespace lse::gui;

namespace {

// Enough repaints to show the event loop kept turning, not one lucky frame at the start or end.
constexpr int kMinPaintsWhileRunning = 3;

// One long action as the test drives it. `running` is true from the moment the work starts until
// its result (or cancellation) has been delivered; `progress` counts the progress updates the UI
// showed; `usable` says the UI can start the action again.
struct LongAction {
    QString skip;  // non-empty: the row cannot run here (why)
    std::function<void()> start;
    std::function<bool()> running;
    std::function<int()> progress;
    std::function<void()> cancel;
    std::function<bool()> usable;
    // The signal that reports the end (finished or cancelled), for a QSignalSpy.
    QObject *ended_sender = nullptr;
    QByteArray ended_signal;
};

// Counts paint events of the watched window while `running()` holds.
class PaintCounter : public QObject {
public:
    PaintCounter(QWidget *window, std::function<bool()> running) : running_(std::move(running))
    {
        window->installEventFilter(this);
    }
    int paints() const { return paints_; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && running_())
            ++paints_;
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<bool()> running_;
    int paints_ = 0;
};

// Counts valueChanged of every progress bar under `root` (present now).
std::shared_ptr<int> countProgressBarUpdates(QWidget *root)
{
    auto count = std::make_shared<int>(0);
    for (QProgressBar *bar : root->findChildren<QProgressBar *>())
        QObject::connect(bar, &QProgressBar::valueChanged, root, [count] { ++*count; });
    return count;
}

QPushButton *buttonWithText(QWidget *root, const QString &text)
{
    for (QPushButton *button : root->findChildren<QPushButton *>())
        if (button->text().remove(QLatin1Char('&')) == text)
            return button;
    return nullptr;
}

QAction *menuAction(QWidget *window, const QString &text)
{
    for (QAction *action : window->findChildren<QAction *>())
        if (action->text().remove(QLatin1Char('&')) == text)
            return action;
    return nullptr;
}

// A model small enough that a step takes milliseconds, also under AddressSanitizer.
reference::TrainConfig tinyConfig(int steps)
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
    c.steps = steps;
    c.warmup_steps = 2;
    c.eval_every = 5;
    c.eval_batches = 1;
    c.lr_max = 3e-3;
    c.lr_min = 3e-4;
    c.threads = 1;  // teams spinning against other test processes slow every step down
    return c;
}

QString shortText()
{
    const QString paragraph = QStringLiteral(
        "The cat sat on the mat. The dog sat on the log. A bird sang in the tree and the sun was warm. "
        "Tim and Lily played with a red ball in the park until the sky was dark.\n");
    QString text;
    for (int i = 0; i < 30; ++i)
        text += paragraph;
    return text;
}

// Made-up words from a fixed seed: many distinct pairs, so BPE merges for a long time.
QByteArray syntheticCorpus(int words)
{
    static const char *const syllables[] = {"ka", "lo", "mi", "ren", "tu", "sha", "qi", "po", "vel", "dor",
                                            "an", "es", "ix", "um", "zen", "bra", "cho", "ft", "gli", "orn"};
    QRandomGenerator random(20);
    QByteArray text;
    for (int w = 0; w < words; ++w) {
        const int parts = 1 + int(random.bounded(4));
        for (int p = 0; p < parts; ++p)
            text += syllables[random.bounded(int(std::size(syllables)))];
        text += (w % 17 == 16) ? ".\n" : " ";
    }
    return text;
}

}  // namespace

class TestResponsiveness : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        // The machine measurement caches its result: keep it out of the user's cache.
        qputenv("LSE_CACHE_DIR", dir_.filePath(QStringLiteral("cache")).toUtf8());
        window_ = std::make_unique<MainWindow>(false);
        window_->resize(1280, 800);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    }
    void cleanupTestCase() { window_.reset(); }

    void repaintsAndCancels_data()
    {
        QTest::addColumn<QString>("action");
        for (const char *action : {"export_all", "tokenizer_training", "reference_training", "layout_search",
                                   "machine_measurement", "reference_ops", "norm_timing", "access_order", "ablation",
                                   "lesson_handout", "distributed_run"})
            QTest::newRow(action) << QString::fromLatin1(action);
    }

    void repaintsAndCancels()
    {
        QFETCH(QString, action);
        LongAction work = make(action);
        if (!work.skip.isEmpty())
            QSKIP(qPrintable(work.skip));
        QVERIFY2(work.start, "no such action");

        PaintCounter counter(window_.get(), work.running);
        QSignalSpy ended(work.ended_sender, work.ended_signal.constData());
        QVERIFY(ended.isValid());
        int progress_at_start = -1;
        bool cancelled = false;
        int paints_at_cancel = 0;
        int progress_at_cancel = 0;
        // The test's own clock: asks for a repaint, answers file dialogs the action opens and
        // presses Cancel once the work has been seen to repaint and progress.
        QTimer ticker;
        ticker.setInterval(20);
        connect(&ticker, &QTimer::timeout, this, [&] {
            window_->update();
            answerFileDialog();
            if (progress_at_start < 0 && work.running())
                progress_at_start = work.progress();
            if (!cancelled && progress_at_start >= 0 && work.running() && counter.paints() >= kMinPaintsWhileRunning
                && work.progress() > progress_at_start) {
                cancelled = true;
                paints_at_cancel = counter.paints();
                progress_at_cancel = work.progress();
                work.cancel();
            }
        });
        ticker.start();
        work.start();  // Export All and the handout return only when done; their loop runs the ticker
        QTRY_VERIFY2_WITH_TIMEOUT(cancelled, qPrintable(QStringLiteral("%1: %2 repaints, progress %3 → %4 while running")
                                                            .arg(action)
                                                            .arg(counter.paints())
                                                            .arg(progress_at_start)
                                                            .arg(work.progress())),
                                  kBackgroundWorkTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!ended.isEmpty() && !work.running(), kBackgroundWorkTimeoutMs);
        ticker.stop();
        qInfo("%s: %d repaints and %d progress updates before Cancel", qPrintable(action), paints_at_cancel,
              progress_at_cancel - progress_at_start);
        QVERIFY(paints_at_cancel >= kMinPaintsWhileRunning);
        QVERIFY(progress_at_cancel > progress_at_start);
        QTRY_VERIFY_WITH_TIMEOUT(work.usable(), kBackgroundWorkTimeoutMs);
    }

private:
    // Accepts the modal file dialog an action opened with the path the row chose.
    void answerFileDialog()
    {
        auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget());
        if (!dialog || dialog_answer_.isEmpty())
            return;
        // A folder dialog answers its current directory when nothing is typed in.
        if (dialog->fileMode() == QFileDialog::Directory) {
            dialog->setDirectory(dialog_answer_);
        } else {
            // QFileDialog::selectFile leaves the file name field alone while it has the focus, and
            // it gets the focus when the dialog is activated: on a loaded machine that came before
            // this tick, nothing was selected, accept() returned without closing and the row waited
            // forever. Without the focus the field takes the name.
            if (QWidget *focus = dialog->focusWidget())
                focus->clearFocus();
            dialog->selectFile(dialog_answer_);
            if (!dialog->selectedFiles().contains(dialog_answer_))
                return;  // the next tick tries again
        }
        static_cast<QDialog *>(dialog)->accept();  // QFileDialog::accept(), protected there
        if (!dialog->isVisible())
            dialog_answer_.clear();
    }

    // The progress dialog's Cancel button, as the user presses it (it emits canceled(), which
    // QProgressDialog::cancel() does not).
    void clickProgressDialogCancel()
    {
        auto *dialog = window_->findChild<QProgressDialog *>();
        QVERIFY(dialog);
        auto *button = dialog->findChild<QPushButton *>();
        QVERIFY(button);
        QTest::mouseClick(button, Qt::LeftButton);
    }

    Page *show(const QString &id)
    {
        if (!window_->selectPage(id))
            return nullptr;
        return window_->currentPage();
    }

    LongAction make(const QString &action)
    {
        if (action == QLatin1String("export_all"))
            return exportAll();
        if (action == QLatin1String("tokenizer_training"))
            return tokenizerTraining();
        if (action == QLatin1String("reference_training"))
            return referenceTraining();
        if (action == QLatin1String("layout_search"))
            return layoutSearch();
        if (action == QLatin1String("machine_measurement"))
            return rooflineWorker(true);
        if (action == QLatin1String("reference_ops"))
            return rooflineWorker(false);
        if (action == QLatin1String("norm_timing"))
            return normTiming();
        if (action == QLatin1String("access_order"))
            return accessOrder();
        if (action == QLatin1String("ablation"))
            return ablation();
        if (action == QLatin1String("lesson_handout"))
            return lessonHandout();
        if (action == QLatin1String("distributed_run"))
            return distributedRun();
        return {};
    }

    // File → Export All Pages: on the GUI thread (widgets are rendered there), one page at a time
    // with the event loop turning between pages.
    LongAction exportAll()
    {
        LongAction work;
        QAction *trigger = menuAction(window_.get(), QStringLiteral("Export All Pages…"));
        if (!trigger)
            return work;
        const QString folder = dir_.filePath(QStringLiteral("export"));
        QDir().mkpath(folder);
        auto pages_started = std::make_shared<int>(0);
        auto exporting = std::make_shared<bool>(false);
        connect(window_.get(), &MainWindow::exportPageStarted, this, [pages_started, exporting] {
            ++*pages_started;
            *exporting = true;
        });
        work.start = [this, trigger, folder, exporting] {
            dialog_answer_ = folder;
            trigger->trigger();
            *exporting = false;
        };
        work.running = [exporting] { return *exporting; };
        work.progress = [pages_started] { return *pages_started; };
        work.cancel = [this] { clickProgressDialogCancel(); };
        work.usable = [trigger] { return trigger->isEnabled(); };
        work.ended_sender = window_.get();
        work.ended_signal = SIGNAL(exportCancelRequested());
        return work;
    }

    // Tokenization → Train on files: a few MB of made-up words, a large vocabulary.
    LongAction tokenizerTraining()
    {
        LongAction work;
        auto *page = qobject_cast<TokenizationPage *>(show(QStringLiteral("tokenization")));
        if (!page)
            return work;
        const QString corpus = dir_.filePath(QStringLiteral("corpus.txt"));
        QFile file(corpus);
        if (!file.open(QIODevice::WriteOnly) || file.write(syntheticCorpus(400000)) < 0)
            return work;
        file.close();
        QString error;
        page->applyLessonSettings(QJsonObject{{QStringLiteral("vocab_size"), 20000}}, &error);
        QPushButton *train = buttonWithText(page, QStringLiteral("Train on files…"));
        if (!train)
            train = buttonWithText(page, QStringLiteral("Train on files"));
        QPushButton *cancel = buttonWithText(page, QStringLiteral("Cancel"));
        if (!train || !cancel)
            return work;
        const auto progress = countProgressBarUpdates(page);
        work.start = [this, train, corpus] {
            dialog_answer_ = corpus;
            QTest::mouseClick(train, Qt::LeftButton);
        };
        work.running = [page] { return page->trainState() == TokenizationPage::TrainState::Running; };
        work.progress = [progress] { return *progress; };
        work.cancel = [cancel] { QTest::mouseClick(cancel, Qt::LeftButton); };
        work.usable = [page, train] {
            return train->isEnabled() && page->trainState() == TokenizationPage::TrainState::Cancelled;
        };
        work.ended_sender = page;
        work.ended_signal = SIGNAL(trainingFinished(bool));
        return work;
    }

    // Reference run → Start: BPE, token file and a tiny model trained for far more steps than
    // the test waits for; Stop ends it.
    LongAction referenceTraining()
    {
        LongAction work;
        auto *page = qobject_cast<ReferenceRunPage *>(show(QStringLiteral("reference_run")));
        if (!page)
            return work;
        page->setPresetConfig(tinyConfig(100000));
        page->setCustomText(shortText());
        page->setVocabSize(300);
        QPushButton *start = buttonWithText(page, QStringLiteral("Start"));
        QPushButton *stop = buttonWithText(page, QStringLiteral("Stop"));
        if (!start || !stop)
            return work;
        const auto progress = countProgressBarUpdates(page);
        using State = ReferenceRunPage::State;
        work.start = [start] { QTest::mouseClick(start, Qt::LeftButton); };
        work.running = [page] { return page->state() == State::Preparing || page->state() == State::Training; };
        work.progress = [progress] { return *progress; };
        work.cancel = [stop] { QTest::mouseClick(stop, Qt::LeftButton); };
        work.usable = [page, start] { return start->isEnabled() && page->state() == State::Stopped; };
        work.ended_sender = page;
        work.ended_signal = SIGNAL(stateChanged(lse::gui::ReferenceRunPage::State));
        return work;
    }

    // Search → Run search on a cluster large enough for hundreds of thousands of layouts.
    LongAction layoutSearch()
    {
        LongAction work;
        Scenario big = window_->document()->scenario();
        big.cluster.gpus = 16384;
        window_->document()->replaceScenario(big, QStringLiteral("16384 GPUs"));
        auto *page = qobject_cast<SearchPage *>(show(QStringLiteral("search")));
        if (!page)
            return work;
        page->cancelSearch();  // the first show started one; the row starts its own with the button
        if (!page->waitForSearch(kBackgroundWorkTimeoutMs))
            return work;
        QPushButton *run = buttonWithText(page, QStringLiteral("Re-run search"));
        if (!run)
            run = buttonWithText(page, QStringLiteral("Run search"));
        QPushButton *cancel = buttonWithText(page, QStringLiteral("Cancel"));
        if (!run || !cancel)
            return work;
        const auto progress = countProgressBarUpdates(page);
        work.start = [run] { QTest::mouseClick(run, Qt::LeftButton); };
        work.running = [page] { return page->isSearching(); };
        work.progress = [progress] { return *progress; };
        work.cancel = [cancel] { QTest::mouseClick(cancel, Qt::LeftButton); };
        work.usable = [page, run] { return run->isEnabled() && page->result() && page->result()->cancelled; };
        work.ended_sender = page;
        work.ended_signal = SIGNAL(ready());
        return work;
    }

    // Roofline → Measure this machine (small matrices repeated for a while, so the five stages
    // are short) or Measure reference ops (many profiled steps).
    LongAction rooflineWorker(bool machine)
    {
        LongAction work;
        auto *page = qobject_cast<RooflinePage *>(show(QStringLiteral("roofline")));
        if (!page)
            return work;
        MachineMeasureOptions options;
        options.sgemm_n_all_cores = 128;
        options.sgemm_n_one_core = 96;
        options.stream_bytes = 4 * 1024 * 1024;
        options.min_seconds_per_stage = 0.4;
        page->setMachineMeasureOptions(options);
        page->setReferenceRunSize(100000, 1);
        QPushButton *start = page->findChild<QPushButton *>(machine ? QStringLiteral("measureMachineButton")
                                                                    : QStringLiteral("measureOpsButton"));
        QPushButton *cancel = page->cancelButton();
        if (!start)
            return work;
        const auto progress = countProgressBarUpdates(page);
        work.start = [start] { QTest::mouseClick(start, Qt::LeftButton); };
        work.running = [page] { return page->busy(); };
        work.progress = [progress] { return *progress; };
        work.cancel = [cancel] { QTest::mouseClick(cancel, Qt::LeftButton); };
        work.usable = [page, start] { return start->isEnabled() && !page->busy(); };
        work.ended_sender = page;
        work.ended_signal = SIGNAL(workerFinished());
        return work;
    }

    // Architecture → Design choices → norm timing → Measure, many timed calls.
    LongAction normTiming()
    {
        LongAction work;
        auto *page = qobject_cast<SectionedPage *>(show(QStringLiteral("architecture")));
        auto *section = page ? page->findChild<DesignChoicesSection *>() : nullptr;
        auto *panel = section ? section->findChild<NormTimingPanel *>() : nullptr;
        if (!panel || !page->selectSection(section->id()))
            return work;
        // The scenario's (N, D), already capped to kMaxNormTimingElements; only more calls.
        NormTimingRequest request = panel->request();
        request.repetitions = 500;
        panel->setRequest(request);
        return timedMeasurement(panel, panel, [panel] { return panel->isRunning(); }, SIGNAL(finished(bool)));
    }

    // Tensors → Access order → Measure, many timed calls per variant.
    LongAction accessOrder()
    {
        LongAction work;
        auto *page = qobject_cast<SectionedPage *>(show(QStringLiteral("tensors")));
        auto *section = page ? page->findChild<AccessOrderSection *>() : nullptr;
        if (!section || !page->selectSection(section->id()))
            return work;
        AccessTimingRequest request = section->request();
        request.repetitions = 200;
        section->setRequest(request);
        return timedMeasurement(section, section, [section] { return section->isRunning(); },
                                SIGNAL(finished(bool)));
    }

    // A Measure / Cancel pair under `root` whose owner reports the end with `ended_signal`.
    LongAction timedMeasurement(QWidget *root, QObject *owner, std::function<bool()> running,
                                const char *ended_signal)
    {
        LongAction work;
        QPushButton *measure = buttonWithText(root, QStringLiteral("Measure"));
        QPushButton *cancel = buttonWithText(root, QStringLiteral("Cancel"));
        if (!measure || !cancel)
            return work;
        const auto progress = countProgressBarUpdates(root);
        work.start = [measure] { QTest::mouseClick(measure, Qt::LeftButton); };
        work.running = running;
        work.progress = [progress] { return *progress; };
        work.cancel = [cancel] { QTest::mouseClick(cancel, Qt::LeftButton); };
        work.usable = [measure, running] { return measure->isEnabled() && !running(); };
        work.ended_sender = owner;
        work.ended_signal = ended_signal;
        return work;
    }

    // Architecture → Ablations → Run: two variants of a tiny model, many steps each.
    LongAction ablation()
    {
        LongAction work;
        auto *page = qobject_cast<SectionedPage *>(show(QStringLiteral("architecture")));
        auto *section = page ? page->findChild<AblationSection *>() : nullptr;
        if (!section || !page->selectSection(section->id()))
            return work;
        section->setTrainingText(reference::builtinAblationText().value().substr(0, 30000));
        section->studyBox()->setCurrentIndex(section->studyBox()->findData(QStringLiteral("norm")));
        section->modelBox()->setCurrentIndex(section->addModelChoice(QStringLiteral("test"), tinyConfig(100)));
        for (int i = 2; i < section->variantList()->count(); ++i)
            section->variantList()->item(i)->setCheckState(Qt::Unchecked);
        section->stepsSpin()->setValue(section->stepsSpin()->maximum());
        const auto progress = countProgressBarUpdates(section);
        QPushButton *run = section->runButton();
        QPushButton *cancel = section->cancelButton();
        auto running = std::make_shared<bool>(false);
        connect(section, &AblationSection::runStarted, this, [running] { *running = true; });
        connect(section, &AblationSection::runFinished, this, [running] { *running = false; });
        work.start = [run] { QTest::mouseClick(run, Qt::LeftButton); };
        work.running = [running] { return *running; };
        work.progress = [progress] { return *progress; };
        work.cancel = [cancel] { QTest::mouseClick(cancel, Qt::LeftButton); };
        work.usable = [run] { return run->isEnabled(); };
        work.ended_sender = section;
        work.ended_signal = SIGNAL(runFinished());
        return work;
    }

    // Lessons → Export Handout of a lesson with many steps: on the GUI thread (each step is the
    // window rendered), with the progress dialog turning the event loop between steps.
    LongAction lessonHandout()
    {
        LongAction work;
        QAction *trigger = menuAction(window_.get(), QStringLiteral("Export Handout…"));
        if (!trigger)
            return work;
        Lesson lesson;
        lesson.id = "responsiveness";
        lesson.title = {"Many steps", "很多步"};
        for (int i = 0; i < 60; ++i) {
            LessonStep step;
            step.page = (i % 3 == 0) ? "time" : (i % 3 == 1) ? "memory" : "compute";
            step.text = {"Step {time.days}.", "步骤 {time.days}。"};
            lesson.steps.push_back(step);
        }
        QString error;
        if (!window_->startLesson(lesson, 0, &error)) {
            work.skip = QStringLiteral("cannot start the lesson: ") + error;
            return work;
        }
        auto exporting = std::make_shared<bool>(false);
        auto progress = std::make_shared<int>(0);
        auto watched = std::make_shared<QPointer<QProgressDialog>>();
        // The menu action has no end signal of its own: it ends when trigger() returns, which this
        // marker announces.
        auto *ended = new QObject(this);
        work.start = [this, trigger, exporting, ended] {
            dialog_answer_ = dir_.filePath(QStringLiteral("handout.pdf"));
            *exporting = true;
            trigger->trigger();
            *exporting = false;
            window_->endLesson();
            ended->setObjectName(QStringLiteral("handout export returned"));
        };
        // The dialog exists while the handout is written; its bar is the progress.
        work.running = [this, exporting, progress, watched] {
            auto *dialog = window_->findChild<QProgressDialog *>();
            if (dialog && dialog != *watched) {
                *watched = dialog;
                if (auto *bar = dialog->findChild<QProgressBar *>())
                    connect(bar, &QProgressBar::valueChanged, dialog, [progress] { ++*progress; });
            }
            return *exporting && dialog != nullptr;
        };
        work.progress = [progress] { return *progress; };
        work.cancel = [this] { clickProgressDialogCancel(); };
        work.usable = [trigger] { return trigger->isEnabled(); };
        work.ended_sender = ended;
        work.ended_signal = SIGNAL(objectNameChanged(QString));
        return work;
    }

    // Distributed run → Start: two ranks under mpiexec, many steps; Cancel ends the processes.
    LongAction distributedRun()
    {
        LongAction work;
#ifndef LSE_MPIEXEC
        work.skip = QStringLiteral("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        if (!QFile::exists(QStringLiteral(LSE_CLI_PATH))) {
            work.skip = QStringLiteral("llm-explorer-cli not built: cmake --build --target llm-explorer-cli");
            return work;
        }
        auto *page = qobject_cast<DistributedRunPage *>(show(QStringLiteral("distributed_run")));
        if (!page)
            return work;
        page->setLaunchers(QStringLiteral(LSE_MPIEXEC), QStringLiteral(LSE_CLI_PATH));
        page->setPresetConfig(tinyConfig(100000));
        page->setCustomText(shortText());
        page->ranksSpin()->setValue(2);
        page->stepsSpin()->setValue(page->stepsSpin()->maximum());
        page->batchSpin()->setValue(8);
        const auto progress = countProgressBarUpdates(page);
        QPushButton *start = page->startButton();
        QPushButton *cancel = page->cancelButton();
        using State = DistributedRunPage::State;
        work.start = [start] { QTest::mouseClick(start, Qt::LeftButton); };
        work.running = [page] { return page->state() == State::Preparing || page->state() == State::Running; };
        work.progress = [progress] { return *progress; };
        work.cancel = [cancel] { QTest::mouseClick(cancel, Qt::LeftButton); };
        work.usable = [page, start] { return start->isEnabled() && page->state() == State::Cancelled; };
        work.ended_sender = page;
        work.ended_signal = SIGNAL(runEnded());
#endif
        return work;
    }

    QTemporaryDir dir_;
    std::unique_ptr<MainWindow> window_;
    QString dialog_answer_;
};

QTEST_MAIN(TestResponsiveness)
#include "test_responsiveness.moc"
