// SPDX-License-Identifier: GPL-3.0-or-later
#include "monkey/monkey_invariants.h"

#include "document/scenario_document.h"
#include "main_window.h"
#include "pages/page.h"
#include "stale_banner.h"

#include "cost/estimate.h"
#include "scenario/scenario_json.h"

#include <QUndoStack>

namespace lse::monkey {

namespace {

// The key figures a page's headline shows: if these agree the page was given this estimate.
QString compareKeyFigures(const Estimate &shown, const Estimate &expected, const QString &who)
{
    if (shown.params.total != expected.params.total)
        return QStringLiteral("%1 total parameters %2, core says %3")
            .arg(who)
            .arg(shown.params.total)
            .arg(expected.params.total);
    if (shown.flops.total_train != expected.flops.total_train)
        return QStringLiteral("%1 training FLOPs %2, core says %3")
            .arg(who)
            .arg(shown.flops.total_train, 0, 'g', 17)
            .arg(expected.flops.total_train, 0, 'g', 17);
    if (shown.memory.total != expected.memory.total)
        return QStringLiteral("%1 memory per GPU %2 B, core says %3 B").arg(who).arg(shown.memory.total).arg(expected.memory.total);
    return {};
}

}  // namespace

QString checkStaleBanner(const gui::ScenarioDocument &document, const gui::StaleBanner &banner)
{
    const int problems = int(document.problems().size());
    if (document.isValid()) {
        if (!document.hasEstimate())
            return QStringLiteral("valid document without an estimate");
        if (scenarioToJson(document.estimatedScenario()) != scenarioToJson(document.scenario()))
            return QStringLiteral("valid document whose estimate is of another scenario");
        if (banner.isStale() || banner.isVisible())
            return QStringLiteral("stale banner shown (%1 problems) for a valid document").arg(banner.problemCount());
        return {};
    }
    if (!banner.isStale() || !banner.isVisible())
        return QStringLiteral("invalid document (%1 problems, first: %2) without the stale banner")
            .arg(problems)
            .arg(QString::fromStdString(document.problems().front().field));
    if (banner.problemCount() != problems)
        return QStringLiteral("stale banner counts %1 problems, the document has %2").arg(banner.problemCount()).arg(problems);
    if (banner.text().isEmpty())
        return QStringLiteral("stale banner without text");
    return {};
}

QString checkShownEstimate(const gui::ScenarioDocument &document, const gui::MainWindow::ShownEstimate *shown,
                           const QString &page_id)
{
    if (!document.hasEstimate())
        return {};  // nothing was ever valid: the pages show nothing to compare
    const Result<Estimate> expected = estimate(document.estimatedScenario());
    if (!expected.ok())
        return QStringLiteral("core rejects the document's last valid scenario: %1")
            .arg(QString::fromStdString(expected.problems().front().message));
    if (QString difference = compareKeyFigures(document.estimate(), expected.value(), QStringLiteral("the document's estimate"));
        !difference.isEmpty())
        return difference;
    if (!shown)
        return QStringLiteral("page %1 shows no scenario").arg(page_id);
    if (scenarioToJson(shown->scenario) != scenarioToJson(document.estimatedScenario()))
        return QStringLiteral("page %1 shows another scenario than the document's last valid one").arg(page_id);
    return compareKeyFigures(shown->estimate, expected.value(), QStringLiteral("page %1").arg(page_id));
}

QString checkPagesShowDocument(const gui::MainWindow &window)
{
    const auto *banner = window.findChild<gui::StaleBanner *>();
    if (!banner)
        return QStringLiteral("no stale banner in the window");
    if (QString problem = checkStaleBanner(*window.document(), *banner); !problem.isEmpty())
        return problem;
    const gui::Page *page = window.currentPage();
    if (!page)
        return QStringLiteral("no current page");
    return checkShownEstimate(*window.document(), window.shownEstimate(page), page->id());
}

QString checkUndoRedoRoundTrip(gui::MainWindow &window)
{
    gui::ScenarioDocument *document = window.document();
    QUndoStack *stack = document->undoStack();
    const QByteArray before = scenarioToJson(document->scenario());
    if (stack->canUndo()) {
        const QString step = stack->undoText();
        stack->undo();
        stack->redo();
        if (scenarioToJson(document->scenario()) != before)
            return QStringLiteral("undo then redo of '%1' changed the scenario").arg(step);
    } else if (stack->canRedo()) {
        const QString step = stack->redoText();
        stack->redo();
        stack->undo();
        if (scenarioToJson(document->scenario()) != before)
            return QStringLiteral("redo then undo of '%1' changed the scenario").arg(step);
    }
    return {};
}

}  // namespace lse::monkey
