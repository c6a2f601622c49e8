// SPDX-License-Identifier: GPL-3.0-or-later
// The Reference run page's trace (issue 31): the steps a run recorded as Chrome-trace JSON, saved
// with "Save trace…" through the GUI's one output path.
#include "pages/reference/reference_run_page.h"

#include "output/output_file.h"
#include "reference/chrome_trace_writer.h"

#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QPushButton>

namespace lse::gui {

QByteArray ReferenceRunPage::traceDocumentOf(const reference::OpTraceLog &log, const reference::TrainConfig &config,
                                             int threads)
{
    const std::string document = reference::chromeTraceDocument(
        {reference::chromeTraceProcessEvents(log, 0, "LLM Systems Explorer: Reference run")},
        {{"producer", "llm-explorer Reference run page"},
         {"model", config.model.name},
         {"batch_size", std::to_string(config.batch_size)},
         {"context", std::to_string(config.model.max_seq_len)},
         {"threads", std::to_string(threads)},
         {"dropped_events", std::to_string(log.dropped())}});
    return QByteArray::fromStdString(document);
}

void ReferenceRunPage::onTraceRecorded(int id, const QByteArray &document, int first_step, int last_step)
{
    if (id != run_id_)
        return;  // an older run's steps
    trace_document_ = document;
    trace_first_step_ = first_step;
    trace_last_step_ = last_step;
    updateButtons();
    retranslateTrace();
    emit traceRecorded();
}

bool ReferenceRunPage::saveTrace(const QString &path, QString *error)
{
    if (trace_document_.isEmpty()) {
        if (error)
            *error = tr("No trace yet: it is recorded once steps %1 to %2 of a run have been taken.")
                         .arg(kTraceSteps > 1 ? 2 : 1)
                         .arg(kTraceSteps + 1);
        return false;
    }
    QString why;
    if (!writeOutputFile(path, trace_document_, &why)) {
        if (error)
            *error = tr("Could not save the trace %1.").arg(QDir::toNativeSeparators(path))
                + (why.isEmpty() ? QString() : QStringLiteral(" ") + why);
        return false;
    }
    return true;
}

void ReferenceRunPage::chooseTraceFile()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save trace"), QStringLiteral("reference-run-trace.json"),
                                                      tr("Chrome trace (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveTrace(path, &error))
        QMessageBox::warning(this, tr("Save trace"), error);
}

void ReferenceRunPage::retranslateTrace()
{
    trace_button_->setText(tr("Save trace…"));
    if (hasTrace())
        trace_button_->setToolTip(tr("Saves steps %1 to %2 of this run as a Chrome trace (JSON): one event per operator "
                                     "call with its class, shape, FLOPs and bytes, inside forward, backward and optimizer "
                                     "ranges. Open it in Perfetto (ui.perfetto.dev) or chrome://tracing.")
                                      .arg(trace_first_step_)
                                      .arg(trace_last_step_));
    else
        trace_button_->setToolTip(tr("Every run records %n step(s) as a Chrome trace, after the first step (cold caches) "
                                     "when the run is longer; this button saves them once they are taken.",
                                     nullptr, kTraceSteps));
}

}  // namespace lse::gui
