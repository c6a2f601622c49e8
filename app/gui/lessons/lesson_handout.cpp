// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_handout.h"

#include "common/file_writer.h"
#include "lessons/lesson_catalog.h"
#include "lessons/lesson_figures.h"

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QFontInfo>
#include <QGuiApplication>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace lse::gui {
namespace {

// Proportions of the page, as fractions of its height, so the PDF and the PNGs look alike.
constexpr double kMarginFraction = 0.04;
constexpr double kTitleFraction = 0.034;     // the title's pixel size
constexpr double kBodyFraction = 0.027;      // the text's, at most
constexpr double kSmallestBodyFraction = 0.015;  // a long text is set down to this before the image shrinks
constexpr double kLeastImageFraction = 0.5;  // of the content's height, while the text can still be set smaller
constexpr int kPdfDotsPerInch = 150;  // sharp enough for print, small enough for a 15-step lesson
const QColor kOutlineColour(255, 140, 0);  // the lesson overlay's orange

QFont fontOfPixelSize(int pixels, bool bold)
{
    QFont font = QGuiApplication::font();
    // Han characters otherwise fall back to whichever CJK face comes first (often the Japanese
    // one); lesson texts are Simplified Chinese, so name that face after the application's.
    font.setFamilies({QFontInfo(font).family(), QStringLiteral("Noto Sans CJK SC")});
    font.setPixelSize(std::max(pixels, 6));
    font.setBold(bold);
    return font;
}

QRect contentArea(const QRect &area)
{
    const int margin = int(area.height() * kMarginFraction);
    return area.adjusted(margin, margin, -margin, -margin);
}

struct Paragraph {
    QString text;
    bool bold = false;
};

QList<Paragraph> paragraphsOf(const HandoutStep &step)
{
    QList<Paragraph> paragraphs;
    if (!step.text.isEmpty())
        paragraphs.append({step.text, false});
    if (!step.question.isEmpty()) {
        paragraphs.append({LessonHandout::tr("Question: %1").arg(step.question), true});
        paragraphs.append({LessonHandout::tr("Answer: %1").arg(step.answer), false});
    }
    return paragraphs;
}

constexpr int kTextFlags = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;

// The height `paragraphs` take at `width` in body text of `pixels`, a half line between them.
int paragraphsHeight(const QList<Paragraph> &paragraphs, int width, int pixels, QPaintDevice *device)
{
    int height = 0;
    for (const Paragraph &paragraph : paragraphs) {
        const QFontMetrics metrics(fontOfPixelSize(pixels, paragraph.bold), device);
        height += metrics.boundingRect(QRect(0, 0, width, 1 << 20), kTextFlags, paragraph.text).height() + pixels / 2;
    }
    return height;
}

void failed(QString *error, const QString &message)
{
    if (error)
        *error = message;
}

}  // namespace

QString LessonHandout::stepLabel(int number, int total)
{
    return tr("Step %1/%2").arg(number).arg(total);
}

HandoutStep LessonHandout::stepOf(const Lesson &lesson, int index, const QImage &page_image, const Estimate &estimate,
                                  std::string_view language)
{
    const LessonStep &step = lesson.steps.at(std::size_t(index));
    const QLocale locale(language == "zh_CN" ? QLocale::Chinese : QLocale::English,
                         language == "zh_CN" ? QLocale::China : QLocale::UnitedStates);
    auto text = [&](const std::optional<LocalizedText> &localized) {
        return localized ? QString::fromStdString(fillFigures(localizedText(*localized, language), estimate, locale))
                         : QString();
    };
    return HandoutStep{page_image,
                       QString::fromStdString(localizedText(lesson.title, language)),
                       stepLabel(index + 1, int(lesson.steps.size())),
                       text(step.text),
                       text(step.question),
                       text(step.answer),
                       QRect()};
}

QString LessonHandout::pngFileName(const QString &lesson_id, int step_number)
{
    return QStringLiteral("%1-step-%2.png").arg(lesson_id).arg(step_number, 2, 10, QLatin1Char('0'));
}

HandoutPlacement LessonHandout::placement(const QRect &area, const HandoutStep &step, QPaintDevice *device)
{
    HandoutPlacement placed;
    const QRect content = contentArea(area);
    const int gap = int(area.height() * kMarginFraction / 2);

    // The step label on the right; the whole title in the rest of the width, wrapped.
    placed.title_pixels = int(area.height() * kTitleFraction);
    const QFontMetrics label_metrics(fontOfPixelSize(int(placed.title_pixels * 0.8), false), device);
    const int label_width = label_metrics.horizontalAdvance(step.step_label) + 2;
    const int title_width = std::max(1, content.width() - label_width - gap);
    const QFontMetrics title_metrics(fontOfPixelSize(placed.title_pixels, true), device);
    const QRect title_bounds = title_metrics.boundingRect(QRect(0, 0, title_width, 1 << 20), kTextFlags, step.title);
    placed.title = QRect(content.left(), content.top(), title_width, title_bounds.height());
    placed.step_label = QRect(content.right() - label_width + 1, content.top(), label_width, title_metrics.height());
    const int image_top = placed.title.bottom() + 1 + gap;

    // The texts at the largest size that leaves the image half of the page, or at the smallest.
    const QList<Paragraph> paragraphs = paragraphsOf(step);
    int pixels = int(area.height() * kBodyFraction);
    const int smallest = int(area.height() * kSmallestBodyFraction);
    int text_height = paragraphsHeight(paragraphs, content.width(), pixels, device);
    while (pixels > smallest && content.bottom() - image_top - gap - text_height < content.height() * kLeastImageFraction) {
        pixels = std::max(smallest, pixels * 9 / 10);
        text_height = paragraphsHeight(paragraphs, content.width(), pixels, device);
    }
    placed.body_pixels = pixels;

    // The image takes what is left, as large as its aspect allows; the text follows right under it,
    // so a wide image leaves no blank band between them.
    const int room = std::max(0, content.bottom() + 1 - image_top - (text_height > 0 ? gap + text_height : 0));
    if (!step.page_image.isNull() && room > 0) {
        const QSize fitted = step.page_image.size().scaled(QSize(content.width(), room), Qt::KeepAspectRatio);
        placed.image = QRect(content.left() + (content.width() - fitted.width()) / 2, image_top, fitted.width(), fitted.height());
    }
    const int text_top = (placed.image.isNull() ? image_top : placed.image.bottom() + 1 + gap);
    placed.text = QRect(content.left(), text_top, content.width(), std::max(0, content.bottom() + 1 - text_top));
    return placed;
}

QRect LessonHandout::textArea(const QRect &area, const HandoutStep &step)
{
    QImage device(1, 1, QImage::Format_ARGB32_Premultiplied);
    return placement(area, step, &device).text;
}

void LessonHandout::paintStep(QPainter &painter, const QRect &area, const HandoutStep &step)
{
    painter.save();
    painter.fillRect(area, Qt::white);
    painter.setPen(Qt::black);
    const HandoutPlacement placed = placement(area, step, painter.device());

    painter.setFont(fontOfPixelSize(placed.title_pixels, true));
    painter.drawText(placed.title, kTextFlags, step.title);
    painter.setFont(fontOfPixelSize(int(placed.title_pixels * 0.8), false));
    painter.drawText(placed.step_label, Qt::AlignRight | Qt::AlignVCenter | Qt::TextSingleLine, step.step_label);

    if (!placed.image.isNull()) {
        painter.setRenderHint(QPainter::SmoothPixmapTransform);
        painter.drawImage(placed.image, step.page_image);
        painter.setPen(QPen(Qt::gray, 1));
        painter.drawRect(placed.image.adjusted(0, 0, -1, -1));
        if (!step.outline.isNull()) {
            // The outlined part of the image, scaled as the image is.
            const double scale = double(placed.image.width()) / step.page_image.width();
            const QRectF outline(placed.image.left() + step.outline.left() * scale, placed.image.top() + step.outline.top() * scale,
                                 step.outline.width() * scale, step.outline.height() * scale);
            painter.setPen(QPen(kOutlineColour, std::max(2.0, area.height() * 0.004)));
            painter.drawRoundedRect(outline.adjusted(-3, -3, 3, 3), 4, 4);
        }
        painter.setPen(Qt::black);
    }

    // The text, then the question and its answer, each a wrapped paragraph under the one before.
    QRect text_area = placed.text;
    for (const Paragraph &paragraph : paragraphsOf(step)) {
        if (text_area.height() <= 0)
            break;
        painter.setFont(fontOfPixelSize(placed.body_pixels, paragraph.bold));
        const QRect used = painter.boundingRect(text_area, kTextFlags, paragraph.text);
        painter.drawText(text_area, kTextFlags, paragraph.text);
        text_area.setTop(used.bottom() + 1 + placed.body_pixels / 2);
    }
    painter.restore();
}

QImage LessonHandout::renderStep(const HandoutStep &step, QSize size)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    paintStep(painter, image.rect(), step);
    return image;
}

bool LessonHandout::writePdf(const QList<HandoutStep> &steps, const QString &path, const HandoutProgress &progress,
                             QString *error, int *pages_drawn)
{
    if (pages_drawn)
        *pages_drawn = 0;
    if (steps.isEmpty()) {
        failed(error, tr("Cannot write \"%1\": the lesson has no steps.").arg(path));
        return false;
    }
    // The PDF is built in memory and written whole, so the file at `path` is never half written.
    QByteArray pdf;
    bool cancelled = false;
    {
        QBuffer buffer(&pdf);
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter writer(&buffer);
        writer.setResolution(kPdfDotsPerInch);
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Landscape, QMarginsF()));
        writer.setTitle(steps.first().title);
        writer.setCreator(QStringLiteral("LLM Systems Explorer"));
        QPainter painter(&writer);
        const QRect page(QPoint(0, 0), QSize(writer.width(), writer.height()));
        for (int k = 0; k < steps.size(); ++k) {
            if (k > 0)
                writer.newPage();
            paintStep(painter, page, steps[k]);
            if (pages_drawn)
                *pages_drawn = k + 1;
            if (progress && !progress(k + 1, int(steps.size()))) {
                cancelled = true;
                break;
            }
        }
        painter.end();
    }
    if (cancelled) {
        failed(error, tr("Writing \"%1\" was cancelled; nothing was written.").arg(path));
        return false;
    }
    Result<bool> written = writeFileReplacing(QDir::toNativeSeparators(path).toStdString(),
                                              std::string_view(pdf.constData(), std::size_t(pdf.size())));
    if (!written) {
        failed(error, tr("Cannot write \"%1\": %2")
                          .arg(path, QString::fromStdString(formatProblems(written.problems())).trimmed()));
        return false;
    }
    return true;
}

bool LessonHandout::writePngs(const QList<HandoutStep> &steps, const QString &folder, const QString &lesson_id,
                              const HandoutProgress &progress, QString *error, QSize slide_size)
{
    if (steps.isEmpty()) {
        failed(error, tr("Cannot write slides to \"%1\": the lesson has no steps.").arg(folder));
        return false;
    }
    // The id becomes part of each file name; it must not lead out of the folder.
    if (lesson_id.isEmpty() || lesson_id.contains(QLatin1Char('/')) || lesson_id.contains(QLatin1Char('\\')) ||
        lesson_id.startsWith(QLatin1Char('.'))) {
        failed(error, tr("Cannot write slides named after the lesson id \"%1\": it must be a plain file name.")
                          .arg(lesson_id));
        return false;
    }
    if (!QFileInfo(folder).isDir()) {
        failed(error, tr("Cannot write slides to \"%1\": the folder does not exist.").arg(folder));
        return false;
    }
    std::vector<std::pair<std::string, QByteArray>> encoded;
    for (int k = 0; k < steps.size(); ++k) {
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        renderStep(steps[k], slide_size).save(&buffer, "PNG");
        encoded.emplace_back(QDir(folder).filePath(pngFileName(lesson_id, k + 1)).toStdString(), std::move(png));
        if (progress && !progress(k + 1, int(steps.size()))) {
            failed(error, tr("Writing slides to \"%1\" was cancelled; nothing was written.").arg(folder));
            return false;
        }
    }
    // All slides or none: a lesson's slides belong together.
    std::vector<std::pair<std::string, std::string_view>> files;
    for (const auto &[file_path, bytes] : encoded)
        files.emplace_back(file_path, std::string_view(bytes.constData(), std::size_t(bytes.size())));
    Result<bool> written = writeFilesTogether(files);
    if (!written) {
        failed(error, tr("Cannot write slides to \"%1\": %2")
                          .arg(folder, QString::fromStdString(formatProblems(written.problems())).trimmed()));
        return false;
    }
    return true;
}

}  // namespace lse::gui
