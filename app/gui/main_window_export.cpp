// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's exports: the current page's charts, every page (Export All, with progress and
// Cancel) and the --screenshot image.
#include "main_window.h"

#include "charts/chart_view.h"
#include "common/folder_lock.h"
#include "output/output_file.h"
#include "pages/page.h"
#include "work_progress_dialog.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileDialog>
#include <QStatusBar>

namespace lse::gui {

bool MainWindow::finishPageForExport(Page *page)
{
    selectPage(page->id());  // gives the page the current estimate if it has not seen it
    // Background work the page started (the layout search) changes its contents and layout, so it
    // ends first. The loop keeps the progress dialog's Cancel working meanwhile.
    if (!page->isReady() && !export_cancelled_) {
        QEventLoop loop;
        connect(page, &Page::ready, &loop, &QEventLoop::quit);
        connect(this, &MainWindow::exportCancelRequested, &loop, &QEventLoop::quit);
        if (!page->isReady())
            loop.exec();
    }
    // A page never shown before has layout requests and queued chart replots pending: without
    // them the grab shows old geometry (charts over each other) or the previous data.
    page->ensurePolished();
    for (int pass = 0; pass < 3; ++pass) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
    }
    for (ChartView *chart : page->charts())
        chart->plot()->replot(QCustomPlot::rpImmediateRefresh);
    return !export_cancelled_;
}

void MainWindow::cancelExport()
{
    export_cancelled_ = true;
    emit exportCancelRequested();
}

MainWindow::ExportResult MainWindow::exportAllPages(const QString &folder, QString *error, int *pages_written)
{
    const QString current = currentPage() ? currentPage()->id() : QString();
    export_cancelled_ = false;
    int written = 0;
    const int count = int(page_slots_.size());
    WorkProgressDialog progress(tr("Exporting pages…"), count, this);
    progress.setWindowTitle(tr("Export All Pages"));
    progress.setMinimumDuration(0);
    progress.setAutoClose(false);
    progress.setAutoReset(false);
    connect(&progress, &QProgressDialog::canceled, this, &MainWindow::cancelExport);
    const auto finish = [&](ExportResult result) {
        selectPage(current);
        if (pages_written)
            *pages_written = written;
        return result;
    };
    // One export per folder at a time: two windows exporting into one folder would mix their pages.
    Result<FolderLock> lock = QDir().mkpath(folder)
                                  ? FolderLock::acquire(QFile::encodeName(folder).toStdString(), folder.toStdString(),
                                                        "llm-explorer Export All")
                                  : Result<FolderLock>::failure(folder.toStdString(), "unwritable", "");
    if (!lock) {
        if (error)
            *error = lock.problems().front().message.empty()
                         ? tr("Cannot create the folder %1").arg(QDir::toNativeSeparators(folder))
                         : QString::fromStdString(lock.problems().front().message);
        return finish(ExportResult::Failed);
    }
    for (int index = 0; index < count; ++index) {
        Page *page = pageAt(index);  // export builds every page not shown yet
        progress.setLabelText(tr("Exporting page %1 of %2: %3").arg(index + 1).arg(count).arg(page->title()));
        progress.setValue(index);
        emit exportPageStarted(index, count);
        if (export_cancelled_ || !finishPageForExport(page))
            return finish(ExportResult::Cancelled);
        const QString page_folder = QDir(folder).filePath(page->id());
        if (!QDir().mkpath(page_folder)) {
            if (error)
                *error = tr("Cannot create the folder %1").arg(page_folder);
            return finish(ExportResult::Failed);
        }
        for (ChartView *chart : page->charts()) {
            if (!chart->exportAll(page_folder, error))
                return finish(ExportResult::Failed);
            // A chart (PNG, PDF, SVG, CSV) is the slice: the window repaints between charts, not
            // only between pages (issue 20). A Cancel heard here ends the export after this page,
            // so no page folder is left half written.
            QCoreApplication::processEvents();
        }
        const QString png = QDir(page_folder).filePath(QStringLiteral("page.png"));
        QString why;
        if (!writeImageFile(png, page->grab().toImage(), &why)) {
            if (error)
                *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(png), why);
            return finish(ExportResult::Failed);
        }
        ++written;
    }
    progress.setValue(count);
    return finish(ExportResult::Done);
}

void MainWindow::exportCurrentPage()
{
    Page *page = currentPage();
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Export %1 to folder").arg(page->title()));
    if (folder.isEmpty())
        return;
    export_cancelled_ = false;
    finishPageForExport(page);  // e.g. the search still running: export its result, not a half table
    QString error;
    for (ChartView *chart : page->charts())
        if (!chart->exportAll(folder, &error))
            return showError(tr("Export failed"), error);
    statusBar()->showMessage(tr("Exported %1 to %2").arg(page->title(), folder), 4000);
}

void MainWindow::exportAllWithDialog()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Export all pages to folder"));
    if (folder.isEmpty())
        return;
    QString error;
    int written = 0;
    switch (exportAllPages(folder, &error, &written)) {
    case ExportResult::Done:
        statusBar()->showMessage(tr("Exported every page to %1").arg(folder), 4000);
        break;
    case ExportResult::Cancelled:
        statusBar()->showMessage(tr("Export cancelled; %n page(s) written to %1", nullptr, written).arg(folder), 8000);
        break;
    case ExportResult::Failed:
        showError(tr("Export failed"), error);
        break;
    }
}

QImage MainWindow::renderScreenshot(const QSize &size)
{
    resize(size);
    if (!isVisible())
        show();
    // Let layouts settle, queued replots run and the page's background work end before grabbing.
    export_cancelled_ = false;
    if (Page *page = currentPage())
        finishPageForExport(page);
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    for (Page *page : builtPages())
        for (ChartView *chart : page->charts())
            chart->setData(chart->data());
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    if (inLesson())
        revealLessonTarget();  // and the highlight where the settled layout put the target
    return grab().toImage();
}

}  // namespace lse::gui
