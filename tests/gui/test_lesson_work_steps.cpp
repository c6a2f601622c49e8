// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 28, item 1: every shipped lesson walked as a class walks it, pressing each button a step
// tells the student to press ("Now press Start", press "Measure this machine", press Run, ...).
// The button must be on the step's page and enabled, and the work it starts must get going without
// a failure (the cpu-training lesson's Start used to fail at once: "Cannot read
// :/samples/tiny_stories_generated.txt"). To keep it short, long work is stopped or cancelled once
// it has shown progress.
#include "background_timeout.h"
#include "lessons/lesson_catalog.h"
#include "lessons/lesson_controller.h"
#include "main_window.h"
#include "pages/page.h"
#include "pages/reference/reference_run_page.h"

#include <QAbstractButton>
#include <QElapsedTimer>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace lse;
using namespace lse::gui;

namespace {

// A button's text as a lesson names it: without its mnemonic '&' and a trailing ellipsis.
QString plainText(const QAbstractButton *button)
{
    QString text = button->text();
    text.remove(QLatin1Char('&'));
    if (text.endsWith(QStringLiteral("…")))
        text.chop(1);
    return text.trimmed();
}

// The buttons a step's English text tells the student to press: "press Start", "press
// \"Measure this machine\"", "Pressing \"Measure reference ops\"". Next is the lesson's own key.
QStringList pressedButtons(const LessonStep &step)
{
    static const QRegularExpression kPress(QStringLiteral("\\b[Pp]ress(?:ing)?\\s+(?:\"([^\"]+)\"|([A-Z][A-Za-z]*))"));
    QStringList names;
    const QString text = QString::fromStdString(step.text.en);
    for (auto it = kPress.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        const QString name = match.captured(1).isEmpty() ? match.captured(2) : match.captured(1);
        if (name != QLatin1String("Next"))
            names << name;
    }
    return names;
}

QList<QAbstractButton *> visibleButtons(const QWidget *page)
{
    QList<QAbstractButton *> buttons;
    for (QAbstractButton *button : page->findChildren<QAbstractButton *>())
        if (button->isVisibleTo(page))
            buttons << button;
    return buttons;
}

QAbstractButton *stopButton(const QWidget *page)
{
    for (QAbstractButton *button : visibleButtons(page))
        if (button->isEnabled() && (plainText(button) == QLatin1String("Stop") || plainText(button) == QLatin1String("Cancel")))
            return button;
    return nullptr;
}

QList<int> progressValues(const QWidget *page)
{
    QList<int> values;
    for (const QProgressBar *bar : page->findChildren<QProgressBar *>())
        values << (bar->isVisibleTo(page) && bar->maximum() > bar->minimum() ? bar->value() - bar->minimum() : 0);
    return values;
}

// The texts the page shows now: its labels and text boxes.
QStringList shownTexts(const QWidget *page)
{
    QStringList texts;
    for (const QLabel *label : page->findChildren<QLabel *>())
        if (label->isVisibleTo(page))
            texts << label->text();
    for (const QPlainTextEdit *edit : page->findChildren<QPlainTextEdit *>())
        if (edit->isVisibleTo(page))
            texts << edit->toPlainText();
    return texts;
}

// Texts shown now that were not before and read like a failure.
QStringList newFailures(const QStringList &before, const QStringList &now)
{
    static const QRegularExpression kFailure(QStringLiteral("\\b(?:[Ff]ailed|[Cc]annot|[Ee]rror)\\b"));
    QStringList failures;
    for (const QString &text : now)
        if (!before.contains(text) && text.contains(kFailure))
            failures << text;
    return failures;
}

}  // namespace

class TestLessonWorkSteps : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // The machine measurements these steps make go to an empty cache, never the user's.
        QVERIFY(cache_.isValid());
        qputenv("LSE_CACHE_DIR", cache_.path().toUtf8());
    }

    void everyPressedButtonStartsItsWork_data()
    {
        QTest::addColumn<QString>("id");
        for (const Lesson &lesson : builtinLessons()) {
            bool presses = false;
            for (const LessonStep &step : lesson.steps)
                presses = presses || !pressedButtons(step).isEmpty();
            if (presses)
                QTest::newRow(lesson.id.c_str()) << QString::fromStdString(lesson.id);
        }
    }

    void everyPressedButtonStartsItsWork()
    {
        QFETCH(QString, id);
        const Lesson *lesson = findBuiltinLesson(id.toStdString());
        QVERIFY(lesson);
        MainWindow window(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.startLesson(*lesson, 0, &error), qPrintable(error));
        for (int k = 0; k < int(lesson->steps.size()); ++k) {
            if (k > 0)
                QVERIFY(window.lessonController()->goToStep(k));
            QCoreApplication::processEvents();
            // A machine measured on one page (the Reference run, cpu-training step 4) is the one the
            // Roofline draws later (step 10), although every page was built when the lesson began.
            if (const auto *status = window.currentPage()->findChild<QLabel *>(QStringLiteral("machineStatus"));
                status && measured_machine_)
                QVERIFY2(!status->text().contains(QStringLiteral("not been measured")),
                         qPrintable(QStringLiteral("%1 step %2: %3").arg(id).arg(k + 1).arg(status->text())));
            for (const QString &name : pressedButtons(lesson->steps[std::size_t(k)]))
                pressAndCheck(window, QStringLiteral("%1 step %2: %3").arg(id).arg(k + 1).arg(name), name);
            if (QTest::currentTestFailed())
                return;
        }
        window.endLesson();
    }

private:
    void pressAndCheck(MainWindow &window, const QString &where, const QString &name)
    {
        Page *page = window.currentPage();
        QVERIFY2(page, qPrintable(where));
        QAbstractButton *button = nullptr;
        for (QAbstractButton *candidate : visibleButtons(page))
            if (plainText(candidate) == name)
                button = candidate;
        QVERIFY2(button, qPrintable(where + QStringLiteral(": no button of that name on the page")));
        // A page may already be at work when the step shows it (the Numbers page's underflow run
        // starts when the page is first shown): the student sees it working and waits for it.
        if (!button->isEnabled() && stopButton(page))
            QTRY_VERIFY_WITH_TIMEOUT(!stopButton(page), kBackgroundWorkTimeoutMs);
        QVERIFY2(button->isEnabled(), qPrintable(where + QStringLiteral(": the button is disabled")));
        const QStringList texts_before = shownTexts(page);
        const QList<int> progress_before = progressValues(page);
        auto *reference_run = qobject_cast<ReferenceRunPage *>(page);
        QElapsedTimer timer;
        timer.start();
        button->click();

        // Busy while the button stays disabled or a Stop/Cancel button is enabled; getting on once
        // a progress bar moved (the Reference run: once its text is read and its BPE trained).
        const auto busy = [&] { return !button->isEnabled() || stopButton(page); };
        const auto progressed = [&] {
            if (reference_run && (reference_run->state() == ReferenceRunPage::State::Training
                                  || reference_run->state() == ReferenceRunPage::State::Failed))
                return true;
            const QList<int> now = progressValues(page);
            for (qsizetype i = 0; i < now.size() && i < progress_before.size(); ++i)
                if (now[i] > 0 && now[i] != progress_before[i])
                    return true;
            return false;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(!busy() || progressed(), qPrintable(where + QStringLiteral(": no progress")),
                                  kBackgroundWorkTimeoutMs);
        QStringList failures = newFailures(texts_before, shownTexts(page));
        QVERIFY2(failures.isEmpty(), qPrintable(where + QStringLiteral(": ") + failures.join(QStringLiteral(" | "))));
        if (QAbstractButton *stop = stopButton(page))
            stop->click();
        QTRY_VERIFY2_WITH_TIMEOUT(!busy(), qPrintable(where + QStringLiteral(": does not stop")), kBackgroundWorkTimeoutMs);
        failures = newFailures(texts_before, shownTexts(page));
        QVERIFY2(failures.isEmpty(), qPrintable(where + QStringLiteral(": ") + failures.join(QStringLiteral(" | "))));
        qInfo("%s: %lld ms", qPrintable(where), timer.elapsed());
        measured_machine_ = measured_machine_ || name.startsWith(QStringLiteral("Measure this machine"));
    }

    bool measured_machine_ = false;

    QTemporaryDir cache_;
};

QTEST_MAIN(TestLessonWorkSteps)
#include "test_lesson_work_steps.moc"
