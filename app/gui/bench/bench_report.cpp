// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench_report.h"

#include <QJsonArray>
#include <QTextStream>

namespace lse::gui::bench {

namespace {

const char *verdict(double value, double target) { return value < target ? "PASS" : "OVER"; }

SampleSummary summarizeField(const std::vector<StartupSample> &samples, double StartupSample::*field)
{
    std::vector<double> values;
    for (const StartupSample &sample : samples)
        values.push_back(sample.*field);
    return summarize(values);
}

QString triple(const SampleSummary &summary, int precision = 1)
{
    return QStringLiteral("%1  [%2 .. %3]")
        .arg(summary.median, 7, 'f', precision)
        .arg(summary.min, 0, 'f', precision)
        .arg(summary.max, 0, 'f', precision);
}

QJsonObject summaryJson(const SampleSummary &summary)
{
    return {{QStringLiteral("median"), summary.median},
            {QStringLiteral("min"), summary.min},
            {QStringLiteral("max"), summary.max},
            {QStringLiteral("count"), summary.count}};
}

}  // namespace

int heaviestPage(const std::vector<PageRepaintResult> &pages, SampleSummary PageRepaintResult::*figure)
{
    int heaviest = -1;
    for (int i = 0; i < int(pages.size()); ++i)
        if (heaviest < 0 || (pages[size_t(i)].*figure).median > (pages[size_t(heaviest)].*figure).median)
            heaviest = i;
    return heaviest;
}

QString formatText(const BenchmarkResults &results)
{
    QString text;
    QTextStream out(&text);
    QStringList verdicts;
    for (const StartupPlatformResult &platform : results.startup) {
        out << "Start-up on " << platform.platform << " (" << platform.samples.size()
            << " launches; median [min .. max]):\n";
        if (!platform.error.isEmpty())
            out << "  skipped or failed: " << platform.error << "\n";
        if (platform.samples.empty())
            continue;
        const SampleSummary launch = summarizeField(platform.samples, &StartupSample::launch_to_paint_ms);
        const SampleSummary main = summarizeField(platform.samples, &StartupSample::main_to_paint_ms);
        const SampleSummary rss = summarizeField(platform.samples, &StartupSample::idle_rss_mb);
        const SampleSummary peak = summarizeField(platform.samples, &StartupSample::peak_rss_mb);
        out << "  launch -> first paint   ms " << triple(launch) << "   (exec to painted window)\n";
        out << "  main() -> first paint   ms " << triple(main) << "   (as printed by the app)\n";
        out << "  CPU until first paint   ms "
            << triple(summarizeField(platform.samples, &StartupSample::cpu_to_paint_ms), 0)
            << "   (the app's threads, user + system; 10 ms ticks)\n";
        out << "  idle RSS (VmRSS)        MB " << triple(rss) << "\n";
        out << "  peak RSS (VmHWM)        MB " << triple(peak) << "\n";
        verdicts << QStringLiteral("start-up %1: median %2 ms, target < %3 ms: %4")
                        .arg(platform.platform)
                        .arg(launch.median, 0, 'f', 1)
                        .arg(kStartTargetMs)
                        .arg(verdict(launch.median, kStartTargetMs));
        verdicts << QStringLiteral("idle RSS %1: median %2 MB, target < %3 MB: %4")
                        .arg(platform.platform)
                        .arg(rss.median, 0, 'f', 1)
                        .arg(kIdleRssTargetMb)
                        .arg(verdict(rss.median, kIdleRssTargetMb));
    }
    if (!results.pages.empty()) {
        const int heaviest = heaviestPage(results.pages, &PageRepaintResult::edit_to_repaint_ms);
        const int slowest_response = heaviestPage(results.pages, &PageRepaintResult::edit_to_response_ms);
        out << "\nEdit -> repaint on " << results.repaint_platform << ", window " << results.repaint_window_size.width()
            << "x" << results.repaint_window_size.height() << ", editing " << results.repaint_field << " (+1/-1 alternately; "
            << results.pages.front().edit_to_repaint_ms.count << " edits per page):\n"
            << "  to-repaint: the spin box steps -> document recomputes -> page shows the estimate -> queued chart\n"
            << "  replots -> the window paints and flushes (end of the last repaint). to-estimate: the synchronous part.\n"
            << "  cpu: the GUI thread's CPU time over the same span (not inflated by other processes' load).\n"
            << "  response: the same without waiting for background work the page started (the Search page's\n"
            << "  layout search, whose results redraw the page when they arrive): the window's answer to the edit.\n";
        out << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7 %8 %9\n")
                   .arg(QStringLiteral("page"), -34)
                   .arg(QStringLiteral("median ms"), 10)
                   .arg(QStringLiteral("response"), 9)
                   .arg(QStringLiteral("max ms"), 8)
                   .arg(QStringLiteral("cpu ms"), 8)
                   .arg(QStringLiteral("to-estimate"), 12)
                   .arg(QStringLiteral("replots"), 8)
                   .arg(QStringLiteral("repaints"), 9)
                   .arg(QStringLiteral("first show ms"), 14);
        for (int i = 0; i < int(results.pages.size()); ++i) {
            const PageRepaintResult &page = results.pages[size_t(i)];
            QString notes;
            if (i == heaviest)
                notes += QStringLiteral("  <- heaviest");
            if (!page.scenario_stayed_valid)
                notes += QStringLiteral("  (an edit made the scenario invalid)");
            if (page.timed_out)
                notes += QStringLiteral("  (timed out)");
            out << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7 %8 %9%10\n")
                       .arg(page.id, -34)
                       .arg(page.edit_to_repaint_ms.median, 10, 'f', 2)
                       .arg(page.edit_to_response_ms.median, 9, 'f', 2)
                       .arg(page.edit_to_repaint_ms.max, 8, 'f', 2)
                       .arg(page.edit_to_repaint_cpu_ms.median, 8, 'f', 2)
                       .arg(page.edit_to_estimate_shown_ms.median, 12, 'f', 2)
                       .arg(page.chart_replots_per_edit, 8, 'f', 1)
                       .arg(page.repaints_per_edit, 9, 'f', 1)
                       .arg(page.first_show_ms, 14, 'f', 1)
                       .arg(notes);
        }
        const auto repaintVerdict = [&results](const QString &what, int index, SampleSummary PageRepaintResult::*figure) {
            const PageRepaintResult &page = results.pages[size_t(index)];
            return QStringLiteral("%1 (%2): median %3 ms, target < %4 ms: %5")
                .arg(what, page.id)
                .arg((page.*figure).median, 0, 'f', 2)
                .arg(kEditToRepaintTargetMs)
                .arg(verdict((page.*figure).median, kEditToRepaintTargetMs));
        };
        verdicts << repaintVerdict(QStringLiteral("edit->repaint on the heaviest page"), heaviest,
                                   &PageRepaintResult::edit_to_repaint_ms);
        verdicts << repaintVerdict(QStringLiteral("edit->response (background work not waited for) on the slowest page"),
                                   slowest_response, &PageRepaintResult::edit_to_response_ms);
    }
    out << "\nTargets (issue 20):\n";
    for (const QString &line : verdicts)
        out << "  " << line << "\n";
    return text;
}

QJsonObject toJson(const BenchmarkResults &results)
{
    QJsonObject json;
    json[QStringLiteral("targets")] = QJsonObject{{QStringLiteral("start_ms"), kStartTargetMs},
                                                  {QStringLiteral("edit_to_repaint_ms"), kEditToRepaintTargetMs},
                                                  {QStringLiteral("idle_rss_mb"), kIdleRssTargetMb}};
    QJsonArray startup;
    for (const StartupPlatformResult &platform : results.startup) {
        QJsonObject entry{{QStringLiteral("platform"), platform.platform}};
        if (!platform.error.isEmpty())
            entry[QStringLiteral("error")] = platform.error;
        if (!platform.samples.empty()) {
            const SampleSummary launch = summarizeField(platform.samples, &StartupSample::launch_to_paint_ms);
            const SampleSummary rss = summarizeField(platform.samples, &StartupSample::idle_rss_mb);
            entry[QStringLiteral("launch_to_first_paint_ms")] = summaryJson(launch);
            entry[QStringLiteral("main_to_first_paint_ms")] =
                summaryJson(summarizeField(platform.samples, &StartupSample::main_to_paint_ms));
            entry[QStringLiteral("cpu_to_first_paint_ms")] =
                summaryJson(summarizeField(platform.samples, &StartupSample::cpu_to_paint_ms));
            entry[QStringLiteral("idle_rss_mb")] = summaryJson(rss);
            entry[QStringLiteral("peak_rss_mb")] = summaryJson(summarizeField(platform.samples, &StartupSample::peak_rss_mb));
            entry[QStringLiteral("start_verdict")] = QString::fromLatin1(verdict(launch.median, kStartTargetMs));
            entry[QStringLiteral("rss_verdict")] = QString::fromLatin1(verdict(rss.median, kIdleRssTargetMb));
        }
        startup.append(entry);
    }
    json[QStringLiteral("startup")] = startup;
    QJsonArray pages;
    for (const PageRepaintResult &page : results.pages)
        pages.append(QJsonObject{{QStringLiteral("id"), page.id},
                                 {QStringLiteral("edit_to_repaint_ms"), summaryJson(page.edit_to_repaint_ms)},
                                 {QStringLiteral("edit_to_response_ms"), summaryJson(page.edit_to_response_ms)},
                                 {QStringLiteral("edit_to_estimate_shown_ms"), summaryJson(page.edit_to_estimate_shown_ms)},
                                 {QStringLiteral("edit_to_repaint_cpu_ms"), summaryJson(page.edit_to_repaint_cpu_ms)},
                                 {QStringLiteral("chart_replots_per_edit"), page.chart_replots_per_edit},
                                 {QStringLiteral("repaints_per_edit"), page.repaints_per_edit},
                                 {QStringLiteral("charts"), page.charts},
                                 {QStringLiteral("first_show_ms"), page.first_show_ms},
                                 {QStringLiteral("scenario_stayed_valid"), page.scenario_stayed_valid},
                                 {QStringLiteral("timed_out"), page.timed_out}});
    QJsonObject repaint{{QStringLiteral("platform"), results.repaint_platform},
                        {QStringLiteral("field"), results.repaint_field},
                        {QStringLiteral("window"), QStringLiteral("%1x%2")
                                                       .arg(results.repaint_window_size.width())
                                                       .arg(results.repaint_window_size.height())},
                        {QStringLiteral("pages"), pages}};
    if (const int heaviest = heaviestPage(results.pages, &PageRepaintResult::edit_to_repaint_ms); heaviest >= 0) {
        const PageRepaintResult &worst = results.pages[size_t(heaviest)];
        repaint[QStringLiteral("heaviest_page")] = worst.id;
        repaint[QStringLiteral("verdict")] =
            QString::fromLatin1(verdict(worst.edit_to_repaint_ms.median, kEditToRepaintTargetMs));
        const PageRepaintResult &slowest =
            results.pages[size_t(heaviestPage(results.pages, &PageRepaintResult::edit_to_response_ms))];
        repaint[QStringLiteral("slowest_response_page")] = slowest.id;
        repaint[QStringLiteral("response_verdict")] =
            QString::fromLatin1(verdict(slowest.edit_to_response_ms.median, kEditToRepaintTargetMs));
    }
    json[QStringLiteral("edit_to_repaint")] = repaint;
    return json;
}

}  // namespace lse::gui::bench
