// SPDX-License-Identifier: GPL-3.0-or-later
// The handout of a lesson (issue 18): a PDF with one A4 landscape page per step and PNG slides, one
// per step. It is given the rendered pages and the texts, so it needs no main window; whoever has
// the pages (the lesson controller) renders each step first.
#pragma once

#include "cost/estimate.h"
#include "lessons/lesson.h"

#include <QCoreApplication>
#include <QImage>
#include <QList>
#include <QRect>
#include <QSize>
#include <QString>

#include <functional>
#include <string_view>

class QPainter;
class QPaintDevice;

namespace lse::gui {

struct HandoutStep {
    QImage page_image;   // the step's target as the page shows it, undimmed (the page for a step without one)
    QString title;       // the lesson's title
    QString step_label;  // "Step 3/12" (LessonHandout::stepLabel)
    QString text;        // the step's explanation, figures filled in
    QString question;    // empty when the step asks none
    QString answer;
    // A rectangle of page_image to outline (an editor field in the form around it); null for none.
    QRect outline;
};

// Where paintStep puts each part of a step's page.
struct HandoutPlacement {
    QRect title;  // the lesson's whole title, wrapped
    QRect step_label;
    QRect image;  // the page image, as large as the texts leave room for, its aspect kept
    QRect text;   // the step's text, question and answer, right under the image
    int title_pixels = 0;
    int body_pixels = 0;
};

// Called after each page is drawn with how many are done; returning false cancels the export
// after that page, and nothing is written.
using HandoutProgress = std::function<bool(int done, int total)>;

class LessonHandout {
    Q_DECLARE_TR_FUNCTIONS(lse::gui::LessonHandout)
public:
    // "Step n/N", translated.
    static QString stepLabel(int number, int total);

    // Step `index` of `lesson` as the handout shows it: the texts in `language` ("en", "zh_CN"; Chinese
    // falls back to English), every "{figure}" filled from `estimate` (the engine at that step),
    // with `page_image` (the step's page, rendered by whoever owns the pages).
    static HandoutStep stepOf(const Lesson &lesson, int index, const QImage &page_image, const Estimate &estimate,
                              std::string_view language);

    // One A4 landscape page per step, written to `path` only when complete (through a temporary
    // file that replaces it), so a cancelled or failed export leaves any existing file untouched.
    // false with *error naming the path (or saying it was cancelled) on failure; *pages_drawn
    // counts the pages drawn, also when cancelled.
    static bool writePdf(const QList<HandoutStep> &steps, const QString &path, const HandoutProgress &progress,
                         QString *error, int *pages_drawn = nullptr);

    // One PNG of `slide_size` per step, "<lesson_id>-step-NN.png" (NN from 01) in `folder`, all
    // written or none (files already there stay as they were on failure or cancel).
    static bool writePngs(const QList<HandoutStep> &steps, const QString &folder, const QString &lesson_id,
                          const HandoutProgress &progress, QString *error, QSize slide_size = QSize(1600, 900));
    static QString pngFileName(const QString &lesson_id, int step_number);

    // The layout both share: the full title (wrapped, never cut) and the step label on top, the
    // page image as large as the texts under it leave room for (aspect kept), then the text, the
    // question and its answer, all in the application font; a long text is set smaller before the
    // image gets less than half of the page. `device` measures the text (the PDF's resolution).
    static HandoutPlacement placement(const QRect &area, const HandoutStep &step, QPaintDevice *device);
    static void paintStep(QPainter &painter, const QRect &area, const HandoutStep &step);
    static QImage renderStep(const HandoutStep &step, QSize size);
    // Where paintStep puts the texts below the image, for tests that look for drawn glyphs.
    static QRect textArea(const QRect &area, const HandoutStep &step);
};

}  // namespace lse::gui
