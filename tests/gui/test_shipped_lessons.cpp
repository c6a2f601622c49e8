// SPDX-License-Identifier: GPL-3.0-or-later
// Every shipped lesson (resources/lessons) in the main window, offscreen, as a classroom projector
// shows it (presentation mode at 1024x768): each step opens its page and section, the page accepts
// its settings, the highlight target is on the page (or the editor field exists) and shown whole,
// and so is the region an animated step plays in; the texts have every figure filled in and are not
// cut, before and after Reveal, in English and Chinese; and a handout PDF has one page per step.
// (core's checks of the same lessons are in test_lesson_catalog.)
#include "pdf_pages.h"
#include "platform_warning_filter.h"
#include "editor/scenario_editor.h"
#include "test_shard.h"
#include "lessons/lesson_bar.h"
#include "lessons/lesson_catalog.h"
#include "lessons/lesson_controller.h"
#include "lessons/lesson_overlay.h"
#include "lessons/lesson_targets.h"
#include "lessons/lesson_view_fit.h"
#include "main_window.h"
#include "pages/page.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QHeaderView>
#include <QTableView>
#include <QFile>
#include <QLabel>
#include <QScrollBar>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

using namespace lse;
using namespace lse::gui;

namespace {

// `rect` (in `widget`'s coordinates) less what the widget's ancestors up to its window clip away:
// the part of it a scroll area or the window's edge leaves visible.
QRect visiblePart(const QWidget *widget, QRect rect)
{
    for (const QWidget *w = widget; w; w = w->parentWidget()) {
        rect = rect.intersected(w->rect());
        if (w->isWindow())
            break;
        rect.translate(w->pos());
    }
    return rect;
}

// Why `rect` of `widget` is not shown whole, or empty when it is.
QString cutOff(const QWidget *widget, const QRect &rect, const QString &what)
{
    if (!widget->isVisible())
        return what + QStringLiteral(" is hidden");
    const QRect shown = visiblePart(widget, rect);
    if (shown.size() != rect.size())
        return QStringLiteral("%1 is cut: %2x%3 of %4x%5 shown (its height %6..%7)")
            .arg(what)
            .arg(shown.width())
            .arg(shown.height())
            .arg(rect.width())
            .arg(rect.height())
            .arg(widget->minimumHeight())
            .arg(widget->maximumHeight());
    return {};
}

// A word-wrapped label lower than its text needs (a one-line box around a wrapped line), or a table
// whose columns scroll sideways, within `widget` (itself included).
QString clippedContent(const QWidget *widget, const QString &what)
{
    QList<const QLabel *> labels = widget->findChildren<const QLabel *>();
    if (const auto *label = qobject_cast<const QLabel *>(widget))
        labels << label;
    for (const QLabel *label : labels)
        if (label->isVisible() && label->wordWrap() && !label->text().isEmpty()
            && label->height() < label->heightForWidth(label->width()))
            return QStringLiteral("%1: a label is %2 px high for text that needs %3 px: %4")
                .arg(what)
                .arg(label->height())
                .arg(label->heightForWidth(label->width()))
                .arg(label->text().left(80));
    // A table's columns fit its width, set smaller if need be; a table too wide even at the smallest
    // size a projector allows (LessonViewFit::kSmallestTableScale) scrolls sideways.
    if (const auto *view = qobject_cast<const QAbstractItemView *>(widget); view && view->horizontalScrollBar()->maximum() > 0
        && view->font().pointSizeF() > QApplication::font().pointSizeF() * (LessonViewFit::kSmallestTableScale + 0.02)) {
        const auto *table = qobject_cast<const QTableView *>(view);
        return QStringLiteral("%1: its columns run out of view (%2 px of them, %3 px shown) at %4 of the text size")
            .arg(what)
            .arg(table ? table->horizontalHeader()->length() : -1)
            .arg(view->viewport()->width())
            .arg(view->font().pointSizeF() / QApplication::font().pointSizeF(), 0, 'f', 2);
    }
    return {};
}

// The lesson bar's texts, each shown whole.
QString barCut(const QWidget *bar)
{
    for (const QLabel *label : bar->findChildren<const QLabel *>()) {
        if (!label->isVisible() || label->text().isEmpty())
            continue;
        if (const QString cut = cutOff(label, label->rect(), QStringLiteral("lesson bar text")); !cut.isEmpty())
            return cut + QStringLiteral(": ") + label->text().left(80);
        if (const QString clipped = clippedContent(label, QStringLiteral("lesson bar")); !clipped.isEmpty())
            return clipped;
    }
    return {};
}

void settle()
{
    // Laid out and replotted (series rectangles come from the drawn axes), and fitted again to the
    // view the new layout leaves (a lesson step reacts to its own layout a pass later).
    for (int pass = 0; pass < 6; ++pass) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
    }
}

}  // namespace

class TestShippedLessons : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { lse::test::installPlatformWarningFilter(); }

    void everyStepShowsOnItsPage_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("language");
        int row = 0;
        for (const Lesson &lesson : builtinLessons())
            for (const char *language : {"en", "zh_CN"})
                if (lse::test::rowInThisShard(row++))  // split across CTest entries (test_shard.h)
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
        window.setPresentation(true);
        // Presentation mode enlarges the application's font: back to normal for the next row, also
        // when this one fails.
        const auto normal = qScopeGuard([&window] { window.setPresentation(false); });
        window.resize(1024, 768);  // a classroom projector
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.startLesson(*lesson, 0, &error), qPrintable(error));
        auto *bar = qobject_cast<LessonBar *>(window.lessonBar());
        QVERIFY(bar);
        QStringList failures;
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
            settle();
            if (qEnvironmentVariableIsSet("LSE_SHIPPED_GRAB"))  // LSE_SHIPPED_GRAB=folder: each step's window, to look at
                window.grab().save(QStringLiteral("%1/%2-%3-%4.png").arg(qEnvironmentVariable("LSE_SHIPPED_GRAB"), id, language).arg(k + 1));
            Page *page = window.currentPage();
            QVERIFY2(page, qPrintable(where));
            // The step's text is read whole, and so is the answer once revealed.
            if (const QString cut = barCut(bar); !cut.isEmpty())
                failures << where + QStringLiteral(": ") + cut;
            if (step.question) {
                window.lessonController()->reveal();
                settle();
                if (const QString cut = barCut(bar); !cut.isEmpty())
                    failures << where + QStringLiteral(" after Reveal: ") + cut;
            }
            // The region an animated step plays in is shown whole beside its target.
            if (window.lessonController()->stepAnimates()) {
                const QList<QWidget *> animated = page->lessonAnimationWidgets();
                if (animated.isEmpty())
                    failures << where + QStringLiteral(": the page names no region its animation plays in");
                for (const QWidget *widget : animated)
                    if (const QString cut = cutOff(widget, widget->rect(), QStringLiteral("the animated ") + widget->objectName());
                        !cut.isEmpty())
                        failures << where + QStringLiteral(": ") + cut;
            }
            if (!step.highlight)
                continue;
            const QString target = QString::fromStdString(step.highlight->target);
            const QString what = QStringLiteral("target ") + QString::fromUtf8(toString(step.highlight->kind).data()) + " '" + target + "'";
            window.lessonOverlay()->refresh();
            // The outline is drawn,
            QVERIFY2(!window.lessonOverlay()->targetRect().isEmpty(), qPrintable(where + ": " + what + " is not shown"));
            // around the whole target, scrolled or shrunk into view, its texts not cut.
            if (step.highlight->kind == HighlightKind::Field) {
                QWidget *field = window.lessonEditor()->fieldWidget(target);
                QVERIFY2(field, qPrintable(where + ": no editor field " + target));
                if (const QString cut = cutOff(field, field->rect(), what); !cut.isEmpty())
                    failures << where + QStringLiteral(": ") + cut;
                continue;
            }
            QWidget *widget = lessonTargetWidget(page, step.highlight->kind, target);
            QVERIFY2(widget, qPrintable(where + ": " + what));
            const QRect in_page = page->lessonTargetRect(step.highlight->kind, target);
            const QRect in_widget(widget->mapFrom(page, in_page.topLeft()), in_page.size());
            if (const QString cut = cutOff(widget, in_widget, what); !cut.isEmpty())
                failures << where + QStringLiteral(": ") + cut;
            if (step.highlight->kind == HighlightKind::Region)
                if (const QString clipped = clippedContent(widget, what); !clipped.isEmpty())
                    failures << where + QStringLiteral(": ") + clipped;
        }
        window.endLesson();
        QVERIFY(MainWindow::installLanguage(QStringLiteral("en")));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
    }

    void handoutHasOnePagePerStep()
    {
        if (!lse::test::isFirstShard())
            QSKIP("runs in shard 0");
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
        if (!lse::test::isFirstShard())
            QSKIP("runs in shard 0");
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
