// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 18, the handout: a PDF with one page per step and one PNG per step for slides, written whole
// or not at all; Chinese text is drawn; a cancel stops after the page being drawn.

#include "pdf_pages.h"
#include "cost/estimate.h"
#include "lessons/lesson_catalog.h"
#include "lessons/lesson_figures.h"
#include "lessons/lesson_handout.h"
#include "main_window.h"
#include "scenario/scenario_json.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QGuiApplication>
#include <QScopeGuard>
#include <QTest>

#include <unistd.h>

using namespace lse::gui;

namespace {

QImage fakePage(QColor color)
{
    QImage image(1024, 768, QImage::Format_RGB32);
    image.fill(color);
    QPainter painter(&image);
    painter.fillRect(100, 100, 300, 200, Qt::darkBlue);
    return image;
}

QList<HandoutStep> steps(int count, const QString &text = QStringLiteral("Six N D is the FLOP count."))
{
    QList<HandoutStep> list;
    for (int k = 0; k < count; ++k)
        list.append(HandoutStep{fakePage(QColor(200, 220, 240)), QStringLiteral("Resource accounting"),
                                LessonHandout::stepLabel(k + 1, count), text, QStringLiteral("How many days?"),
                                QStringLiteral("119 days"), QRect()});
    return list;
}

QByteArray contents(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Pixels in `area` that are not the white background.
int inkPixels(const QImage &image, const QRect &area)
{
    int ink = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x)
            if (image.pixelColor(x, y) != QColor(Qt::white))
                ++ink;
    return ink;
}

bool runningAsRoot() { return ::geteuid() == 0; }

}  // namespace

class TestLessonHandout : public QObject {
    Q_OBJECT
private slots:
    void pdfHasOnePagePerStep()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("handout.pdf"));
        QList<int> reported;
        QString error;
        int drawn = 0;
        QVERIFY2(LessonHandout::writePdf(
                     steps(4), path,
                     [&](int done, int total) {
                         reported.append(done);
                         return total == 4;
                     },
                     &error, &drawn),
                 qPrintable(error));
        QCOMPARE(drawn, 4);
        QCOMPARE(reported, (QList<int>{1, 2, 3, 4}));
        const QByteArray pdf = contents(path);
        QVERIFY(pdf.startsWith("%PDF"));
        QCOMPARE(lse::test::pdfPageCount(pdf), 4);
        // Landscape: the media box is wider than tall.
        const QRegularExpressionMatch box =
            QRegularExpression(QStringLiteral("/MediaBox \\[\\s*0 0 ([0-9.]+) ([0-9.]+)"))
                .match(QString::fromLatin1(pdf));
        QVERIFY(box.hasMatch());
        QVERIFY(box.captured(1).toDouble() > box.captured(2).toDouble());

        QVERIFY(LessonHandout::writePdf(steps(2), path, {}, &error));
        QCOMPARE(lse::test::pdfPageCount(contents(path)), 2);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("handout.pdf")});
    }

    // The handout states the engine's number, not the lesson's text, in the chosen language.
    void stepOfFillsFiguresInTheLanguage()
    {
        lse::Lesson lesson;
        lesson.id = "demo";
        lesson.title = {"Resource accounting", "资源核算"};
        lse::LessonStep step;
        step.page = "time";
        step.text = {"The run takes {time.days}.", "训练需要 {time.days}。"};
        step.question = lse::LocalizedText{"How long?", ""};
        step.answer = lse::LocalizedText{"{time.days}", ""};
        lesson.steps = {step, step};
        const lse::Result<lse::Estimate> engine = lse::estimate(lse::defaultScenario());
        QVERIFY(engine.ok());
        const QLocale english_locale(QLocale::English, QLocale::UnitedStates);
        const QString days = QString::fromStdString(lse::fillFigures("{time.days}", *engine, english_locale));
        QVERIFY(!days.contains(QLatin1Char('{')));

        const HandoutStep english = LessonHandout::stepOf(lesson, 1, fakePage(Qt::white), *engine, "en");
        QCOMPARE(english.title, QStringLiteral("Resource accounting"));
        QCOMPARE(english.step_label, QStringLiteral("Step 2/2"));
        QCOMPARE(english.text, QStringLiteral("The run takes %1.").arg(days));
        QCOMPARE(english.question, QStringLiteral("How long?"));
        QCOMPARE(english.answer, days);
        QCOMPARE(english.page_image.size(), QSize(1024, 768));

        const HandoutStep chinese = LessonHandout::stepOf(lesson, 0, {}, *engine, "zh_CN");
        QCOMPARE(chinese.title, QStringLiteral("资源核算"));
        QVERIFY2(chinese.text.startsWith(QStringLiteral("训练需要 ")) && !chinese.text.contains(QLatin1Char('{')),
                 qPrintable(chinese.text));
        QCOMPARE(chinese.question, QStringLiteral("How long?"));  // not translated: English
    }

    void chineseTextIsDrawn()
    {
        HandoutStep step = steps(1).first();
        step.question.clear();
        step.text = QStringLiteral("训练一个七百亿参数的模型需要多少天？分词器把中文切成更多的词元。");
        const QSize size(1600, 900);
        const QRect text_area = LessonHandout::textArea(QRect(QPoint(0, 0), size), step);
        QVERIFY(!text_area.isEmpty());
        const int chinese_ink = inkPixels(LessonHandout::renderStep(step, size), text_area);
        QVERIFY2(chinese_ink > 500, qPrintable(QString::number(chinese_ink)));
        // Without a text nothing is drawn under the image.
        step.text.clear();
        const QRect empty_area = LessonHandout::textArea(QRect(QPoint(0, 0), size), step);
        QCOMPARE(inkPixels(LessonHandout::renderStep(step, size), empty_area.adjusted(0, 2, 0, 0)), 0);
        step.text = QStringLiteral("训练一个七百亿参数的模型需要多少天？分词器把中文切成更多的词元。");

        // In the PDF too: the glyphs make it larger than the same page without text.
        QTemporaryDir dir;
        QString error;
        HandoutStep empty = step;
        empty.text.clear();
        QVERIFY(LessonHandout::writePdf({empty}, dir.filePath(QStringLiteral("empty.pdf")), {}, &error));
        QVERIFY(LessonHandout::writePdf({step}, dir.filePath(QStringLiteral("zh.pdf")), {}, &error));
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("zh.pdf"))).size() >
                QFileInfo(dir.filePath(QStringLiteral("empty.pdf"))).size() + 1000);
    }

    // Issue 28, item 16: the whole title, however long (it was cut with "…"); the page image as
    // large as the texts leave room for, the texts right under it (no blank half page).
    void fullTitleAndALargeImage()
    {
        HandoutStep step = steps(1).first();
        step.title = QStringLiteral("Resource accounting: FLOPs, time, money and memory of a 70B run on 1024 GPUs, step by step");
        const QRect area(QPoint(0, 0), QSize(1600, 900));
        QImage device(1, 1, QImage::Format_ARGB32_Premultiplied);
        const HandoutPlacement placed = LessonHandout::placement(area, step, &device);
        QFont title_font = QGuiApplication::font();
        title_font.setPixelSize(placed.title_pixels);
        title_font.setBold(true);
        const QFontMetrics metrics(title_font, &device);
        QVERIFY2(metrics.horizontalAdvance(step.title) > placed.title.width(), "the test's title must need two lines");
        QVERIFY2(placed.title.height() >= 2 * metrics.height() - 2, qPrintable(QString::number(placed.title.height())));
        QVERIFY(!placed.title.intersects(placed.step_label));
        QVERIFY(placed.image.top() > placed.title.bottom());
        // A 4:3 page image fills the height the texts leave: over half of the page.
        QVERIFY2(placed.image.height() > area.height() / 2, qPrintable(QString::number(placed.image.height())));
        QVERIFY(placed.text.top() > placed.image.bottom());
        QVERIFY(placed.text.top() - placed.image.bottom() < area.height() / 20);
        // A long text is set smaller before the image gets less than half of the page.
        step.text = step.text.repeated(200);
        const HandoutPlacement long_text = LessonHandout::placement(area, step, &device);
        QVERIFY(long_text.body_pixels < placed.body_pixels);
    }

    // Issue 28, item 16, from the main window: a field step's image is the form around the field,
    // outlined, not the whole window at thumbnail size (zh_CN too); a region step's is its target,
    // undimmed (the overlay dims the rest of the page on the screen).
    void handoutImagesAreTheTargets_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }

    void handoutImagesAreTheTargets()
    {
        QFETCH(QString, language);
        QVERIFY(MainWindow::installLanguage(language));
        const auto english = qScopeGuard([] { MainWindow::installLanguage(QStringLiteral("en")); });
        const lse::Lesson *lesson = lse::findBuiltinLesson("resource-accounting");
        QVERIFY(lesson);
        QVERIFY(lesson->steps[1].highlight->kind == lse::HighlightKind::Field);  // training.flops_model
        QVERIFY(lesson->steps[6].highlight->target == "cost-card");
        MainWindow window(false);
        window.resize(1280, 800);
        const std::optional<HandoutStep> field = window.renderLessonHandoutStep(*lesson, 1, false);
        QVERIFY(field);
        QVERIFY(!field->outline.isNull());
        QVERIFY2(field->page_image.width() < window.width() / 2 && field->page_image.height() < window.height() / 2,
                 qPrintable(QStringLiteral("%1x%2").arg(field->page_image.width()).arg(field->page_image.height())));
        QVERIFY(QRect(QPoint(0, 0), field->page_image.size()).contains(field->outline));

        const std::optional<HandoutStep> card = window.renderLessonHandoutStep(*lesson, 6, true);
        QVERIFY(card);
        QVERIFY(card->page_image.width() < window.width() / 2);
        // Undimmed: the card's light background is drawn as it is, not under the overlay's grey.
        int lightest = 0;
        for (int y = 0; y < card->page_image.height(); y += 3)
            for (int x = 0; x < card->page_image.width(); x += 3)
                lightest = std::max(lightest, card->page_image.pixelColor(x, y).lightness());
        QVERIFY2(lightest > 230, qPrintable(QString::number(lightest)));
        window.endLesson();
    }

    void imageKeepsItsAspect()
    {
        HandoutStep step = steps(1).first();
        step.page_image = QImage(400, 400, QImage::Format_RGB32);
        step.page_image.fill(Qt::red);
        const QImage slide = LessonHandout::renderStep(step, QSize(1600, 900));
        // A square image stays square: count the red run across and down through its centre.
        int left = -1, right = -1, top = -1, bottom = -1;
        const int centre_y = 400;
        for (int x = 0; x < slide.width(); ++x)
            if (slide.pixelColor(x, centre_y) == QColor(Qt::red)) {
                left = left < 0 ? x : left;
                right = x;
            }
        QVERIFY(left >= 0);
        const int centre_x = (left + right) / 2;
        for (int y = 0; y < slide.height(); ++y)
            if (slide.pixelColor(centre_x, y) == QColor(Qt::red)) {
                top = top < 0 ? y : top;
                bottom = y;
            }
        QVERIFY(qAbs((right - left) - (bottom - top)) <= 3);
    }

    void pngsOnePerStep()
    {
        QTemporaryDir dir;
        QString error;
        QVERIFY2(LessonHandout::writePngs(steps(3), dir.path(), QStringLiteral("gpus"), {}, &error, QSize(800, 450)),
                 qPrintable(error));
        QStringList files = QDir(dir.path()).entryList(QDir::Files, QDir::Name);
        QCOMPARE(files, (QStringList{QStringLiteral("gpus-step-01.png"), QStringLiteral("gpus-step-02.png"),
                                     QStringLiteral("gpus-step-03.png")}));
        const QImage slide(dir.filePath(files.first()));
        QCOMPARE(slide.size(), QSize(800, 450));
    }

    void unwritableFolderIsRefusedAndNothingIsLeft()
    {
        if (runningAsRoot())
            QSKIP("root writes into read-only folders");
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("locked"));
        QVERIFY(QDir().mkpath(folder));
        const QString existing_pdf = QDir(folder).filePath(QStringLiteral("handout.pdf"));
        QFile old(existing_pdf);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("old handout");
        old.close();
        QVERIFY(QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::ExeOwner));

        QString error;
        QVERIFY(!LessonHandout::writePdf(steps(2), existing_pdf, {}, &error));
        QVERIFY2(error.contains(existing_pdf), qPrintable(error));
        QVERIFY(!LessonHandout::writePngs(steps(2), folder, QStringLiteral("gpus"), {}, &error));
        QVERIFY2(error.contains(folder), qPrintable(error));
        QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("handout.pdf")});
        QCOMPARE(contents(existing_pdf), QByteArray("old handout"));
        QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);

        const QString missing = dir.filePath(QStringLiteral("missing"));
        QVERIFY(!LessonHandout::writePngs(steps(2), missing, QStringLiteral("gpus"), {}, &error));
        QVERIFY2(error.contains(missing), qPrintable(error));
        QVERIFY(!QFileInfo::exists(missing));
    }

    // Root ignores permissions, so this one blocks the final names with folders: the renames fail.
    void blockedTargetsAreRefusedAndNothingIsLeft()
    {
        QTemporaryDir dir;
        const QString blocked_pdf = dir.filePath(QStringLiteral("handout.pdf"));
        QVERIFY(QDir().mkpath(blocked_pdf));
        const QString blocked_slide = dir.filePath(LessonHandout::pngFileName(QStringLiteral("gpus"), 2));
        QVERIFY(QDir().mkpath(blocked_slide));
        const QStringList before = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);

        QString error;
        QVERIFY(!LessonHandout::writePdf(steps(2), blocked_pdf, {}, &error));
        QVERIFY2(error.contains(blocked_pdf), qPrintable(error));
        QVERIFY(!LessonHandout::writePngs(steps(3), dir.path(), QStringLiteral("gpus"), {}, &error));
        QVERIFY2(error.contains(dir.path()), qPrintable(error));
        // Neither step 1's slide nor any temporary file stays behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), before);

        // An id that would lead out of the folder is refused before anything is drawn.
        QVERIFY(!LessonHandout::writePngs(steps(2), dir.path(), QStringLiteral("../gpus"), {}, &error));
        QVERIFY2(error.contains(QStringLiteral("../gpus")), qPrintable(error));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), before);

        const QString under_a_file = QDir(blocked_pdf).filePath(QStringLiteral("x")) + QStringLiteral("/out.pdf");
        QVERIFY(!LessonHandout::writePdf(steps(1), under_a_file, {}, &error));
        QVERIFY2(error.contains(under_a_file), qPrintable(error));
    }

    void cancelStopsAfterTheCurrentPage()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("handout.pdf"));
        QFile old(path);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("old handout");
        old.close();
        int calls = 0;
        int drawn = 0;
        QString error;
        const auto cancel_at_two = [&](int done, int) {
            ++calls;
            return done < 2;
        };
        QVERIFY(!LessonHandout::writePdf(steps(4), path, cancel_at_two, &error, &drawn));
        QCOMPARE(calls, 2);
        QCOMPARE(drawn, 2);
        QVERIFY2(error.contains(path), qPrintable(error));
        QCOMPARE(contents(path), QByteArray("old handout"));

        calls = 0;
        QVERIFY(!LessonHandout::writePngs(steps(4), dir.path(), QStringLiteral("gpus"), cancel_at_two, &error));
        QCOMPARE(calls, 2);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("handout.pdf")});
    }
};

QTEST_MAIN(TestLessonHandout)
#include "test_lesson_handout.moc"
