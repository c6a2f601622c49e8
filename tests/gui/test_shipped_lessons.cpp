// SPDX-License-Identifier: GPL-3.0-or-later
// Every shipped lesson (resources/lessons) in the main window, offscreen: each step opens its page
// and section, the page accepts its settings, the highlight target is on the page (or the editor
// field exists), the texts have every figure filled in, in English and Chinese; and a handout PDF has
// one page per step. (core's checks of the same lessons are in test_lesson_catalog.)
#include "pdf_pages.h"
#include "editor/scenario_editor.h"
#include "lessons/lesson_bar.h"
#include "lessons/lesson_catalog.h"
#include "lessons/lesson_controller.h"
#include "lessons/lesson_overlay.h"
#include "main_window.h"
#include "pages/page.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace lse;
using namespace lse::gui;

class TestShippedLessons : public QObject {
    Q_OBJECT
private slots:
    void everyStepShowsOnItsPage_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("language");
        for (const Lesson &lesson : builtinLessons())
            for (const char *language : {"en", "zh_CN"})
                QTest::newRow(qPrintable(QString::fromStdString(lesson.id) + "/" + language))
                    << QString::fromStdString(lesson.id) << QString::fromLatin1(language);
    }

    void everyStepShowsOnItsPage()
    {
        QFETCH(QString, id);
        QFETCH(QString, language);
        QVERIFY(MainWindow::installLanguage(language));
        const Lesson *lesson = findBuiltinLesson(id.toStdString());
        QVERIFY(lesson);
        MainWindow window(false);
        window.resize(1280, 720);  // a projector's resolution
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.startLesson(*lesson, 0, &error), qPrintable(error));
        auto *bar = qobject_cast<LessonBar *>(window.lessonBar());
        QVERIFY(bar);
        for (int k = 0; k < int(lesson->steps.size()); ++k) {
            const LessonStep &step = lesson->steps[std::size_t(k)];
            const QString where = QStringLiteral("%1 step %2 (%3)").arg(id).arg(k + 1).arg(QString::fromStdString(step.page));
            QVERIFY2(window.lessonController()->goToStep(k) || k == window.lessonController()->stepIndex(), qPrintable(where));
            QCOMPARE(window.lessonController()->stepIndex(), k);
            QCoreApplication::processEvents();
            QVERIFY2(bar->errorShown().isEmpty(), qPrintable(where + ": " + bar->errorShown()));
            QCOMPARE(window.currentPageAndSection(), QString::fromStdString(step.page));
            // Every figure the texts cite is filled in.
            const QString texts = window.lessonController()->text() + window.lessonController()->question()
                + window.lessonController()->answer();
            QVERIFY2(!texts.contains(QRegularExpression(QStringLiteral("\\{[a-z_.]+\\}"))), qPrintable(where + ": " + texts));
            if (!step.highlight)
                continue;
            const QString target = QString::fromStdString(step.highlight->target);
            if (step.highlight->kind == HighlightKind::Field)
                QVERIFY2(window.lessonEditor()->fieldWidget(target), qPrintable(where + ": no editor field " + target));
            else
                QVERIFY2(window.currentPage(), qPrintable(where));
            // Laid out and replotted first: series rectangles come from the drawn axes.
            for (int pass = 0; pass < 3; ++pass) {
                QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
                QCoreApplication::processEvents();
            }
            window.lessonOverlay()->refresh();
            // On a projector-sized window the target is on the page and scrolled into view, so the
            // outline is drawn.
            QVERIFY2(!window.lessonOverlay()->targetRect().isEmpty(),
                     qPrintable(where + ": highlight target " + QString::fromUtf8(toString(step.highlight->kind).data())
                                + " '" + target + "' is not shown"));
        }
        window.endLesson();
        QVERIFY(MainWindow::installLanguage(QStringLiteral("en")));
    }

    void handoutHasOnePagePerStep()
    {
        QVERIFY(!builtinLessons().empty());
        const Lesson &lesson = builtinLessons().front();
        MainWindow window(false);
        window.resize(1280, 800);
        QTemporaryDir dir;
        const QString pdf = dir.filePath("handout.pdf");
        const QString slides = dir.filePath("slides");
        QString error;
        QVERIFY2(window.exportLessonHandout(lesson, pdf, slides, &error), qPrintable(error));
        QCOMPARE(lse::test::pdfFilePageCount(pdf), int(lesson.steps.size()));
        QCOMPARE(QDir(slides).entryList({QStringLiteral("*.png")}, QDir::Files).size(), qsizetype(lesson.steps.size()));
        // The window is back to the user's document, out of the lesson.
        QVERIFY(!window.inLesson());
    }

    void handoutFromTheCommandLine()
    {
        QTemporaryDir dir;
        const QString pdf = dir.filePath("tokens.pdf");
        const Lesson *lesson = findBuiltinLesson("tokenization");
        QVERIFY(lesson);
        QProcess process;
        process.start(QStringLiteral(LSE_GUI_PATH),
                      {"--lesson", "tokenization", "--handout", pdf, "--lang", "zh_CN", "--size", "1024x768"});
        QVERIFY(process.waitForFinished(240000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QCOMPARE(lse::test::pdfFilePageCount(pdf), int(lesson->steps.size()));

        // Without --lesson: refused, naming the flag, nothing written.
        const QString other = dir.filePath("other.pdf");
        process.start(QStringLiteral(LSE_GUI_PATH), {"--handout", other});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 2);
        QVERIFY(process.readAllStandardError().contains("--handout"));
        QVERIFY(!QFile::exists(other));
    }
};

QTEST_MAIN(TestShippedLessons)
#include "test_shipped_lessons.moc"
