// SPDX-License-Identifier: GPL-3.0-or-later
#include "output/stale_temporary_prompt.h"

#include <QApplication>
#include <QDir>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>

#include <cstdio>

namespace lse::gui {

namespace {

StaleTemporaryPrompt *g_instance = nullptr;

}  // namespace

StaleTemporaryPrompt::StaleTemporaryPrompt(bool interactive) : QObject(qApp), interactive_(interactive) {}

StaleTemporaryPrompt *StaleTemporaryPrompt::instance() { return g_instance; }

void StaleTemporaryPrompt::install(bool interactive)
{
    if (g_instance)
        return;
    g_instance = new StaleTemporaryPrompt(interactive);
    // Writers may run on worker threads (a checkpoint, the distributed run's files): the report
    // reaches the window's thread through the event loop.
    setStaleTemporaryReporter([](const StaleTemporary &stale) {
        QMetaObject::invokeMethod(g_instance, [stale] { g_instance->report(stale); }, Qt::QueuedConnection);
    });
}

void StaleTemporaryPrompt::report(const StaleTemporary &stale)
{
    if (!interactive_) {
        std::fprintf(stderr, "llm-explorer: note: '%s' (%lld bytes) was left by an interrupted run and is not used; "
                             "remove it with: rm '%s'\n",
                     stale.path.c_str(), static_cast<long long>(stale.bytes), stale.path.c_str());
        return;
    }
    pending_.push_back(stale);
    // Several files found by one export come in one dialog.
    if (!ask_queued_) {
        ask_queued_ = true;
        QTimer::singleShot(0, this, &StaleTemporaryPrompt::ask);
    }
}

QStringList StaleTemporaryPrompt::removeFiles(const std::vector<StaleTemporary> &files)
{
    QStringList problems;
    for (const StaleTemporary &stale : files) {
        std::string why;
        if (!removeStaleTemporary(stale.path, &why))
            problems << QString::fromStdString(why);
    }
    return problems;
}

void StaleTemporaryPrompt::ask()
{
    ask_queued_ = false;
    if (pending_.empty())
        return;
    const std::vector<StaleTemporary> files = std::exchange(pending_, {});
    QStringList lines;
    for (const StaleTemporary &stale : files)
        lines << tr("%1 (%2)").arg(QDir::toNativeSeparators(QString::fromStdString(stale.path)),
                                   QLocale().formattedDataSize(stale.bytes));
    emit asked(lines);
    QMessageBox box(QApplication::activeWindow());
    box.setIcon(QMessageBox::Question);
    box.setWindowTitle(tr("Files left by an interrupted run"));
    box.setText(tr("%n unfinished file(s) from an interrupted save or export are lying beside the file being "
                   "written. They are not used by anything. Remove them?",
                   nullptr, int(files.size())));
    box.setInformativeText(lines.join(QLatin1Char('\n')));
    QPushButton *remove = box.addButton(tr("Remove"), QMessageBox::AcceptRole);
    box.addButton(tr("Keep"), QMessageBox::RejectRole);
    box.setDefaultButton(remove);
    box.exec();
    if (box.clickedButton() != remove)
        return;
    const QStringList problems = removeFiles(files);
    if (!problems.isEmpty())
        QMessageBox::warning(QApplication::activeWindow(), tr("Some files were not removed"), problems.join(QLatin1Char('\n')));
}

}  // namespace lse::gui
