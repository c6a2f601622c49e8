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
constexpr double kHeaderFraction = 0.07;
constexpr double kImageFraction = 0.58;
constexpr int kPdfDotsPerInch = 150;  // sharp enough for print, small enough for a 15-step lesson

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

QRect headerArea(const QRect &area)
{
    const QRect content = contentArea(area);
    return QRect(content.left(), content.top(), content.width(), int(area.height() * kHeaderFraction));
}

QRect imageArea(const QRect &area)
{
    const QRect header = headerArea(area);
    return QRect(header.left(), header.bottom() + 1, header.width(), int(area.height() * kImageFraction));
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
                       text(step.answer)};
}

QString LessonHandout::pngFileName(const QString &lesson_id, int step_number)
{
    return QStringLiteral("%1-step-%2.png").arg(lesson_id).arg(step_number, 2, 10, QLatin1Char('0'));
}

QRect LessonHandout::textArea(const QRect &area)
{
    const QRect content = contentArea(area);
    const QRect image = imageArea(area);
    const int gap = int(area.height() * kMarginFraction / 2);
    return QRect(content.left(), image.bottom() + 1 + gap, content.width(), content.bottom() - image.bottom() - gap);
}

void LessonHandout::paintStep(QPainter &painter, const QRect &area, const HandoutStep &step)
{
    painter.save();
    painter.fillRect(area, Qt::white);
    painter.setPen(Qt::black);

    const QRect header = headerArea(area);
    painter.setFont(fontOfPixelSize(int(header.height() * 0.5), true));
    painter.drawText(header, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                     painter.fontMetrics().elidedText(step.title, Qt::ElideRight, int(header.width() * 0.8)));
    painter.setFont(fontOfPixelSize(int(header.height() * 0.4), false));
    painter.drawText(header, Qt::AlignRight | Qt::AlignVCenter | Qt::TextSingleLine, step.step_label);

    const QRect image_area = imageArea(area);
    if (!step.page_image.isNull()) {
        const QSize fitted = step.page_image.size().scaled(image_area.size(), Qt::KeepAspectRatio);
        const QRect target(image_area.left() + (image_area.width() - fitted.width()) / 2, image_area.top(),
                           fitted.width(), fitted.height());
        painter.setRenderHint(QPainter::SmoothPixmapTransform);
        painter.drawImage(target, step.page_image);
        painter.setPen(QPen(Qt::gray, 1));
        painter.drawRect(target.adjusted(0, 0, -1, -1));
        painter.setPen(Qt::black);
    }

    // Text, then the question and its answer, each a wrapped paragraph under the one before.
    QRect text_area = textArea(area);
    const int body_pixels = int(area.height() * 0.022);
    auto paragraph = [&](const QString &text, bool bold) {
        if (text.isEmpty() || text_area.height() <= 0)
            return;
        painter.setFont(fontOfPixelSize(body_pixels, bold));
        const int flags = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
        const QRect used = painter.boundingRect(text_area, flags, text);
        painter.drawText(text_area, flags, text);
        text_area.setTop(used.bottom() + 1 + body_pixels / 2);
    };
    paragraph(step.text, false);
    if (!step.question.isEmpty()) {
        paragraph(tr("Question: %1").arg(step.question), true);
        paragraph(tr("Answer: %1").arg(step.answer), false);
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
