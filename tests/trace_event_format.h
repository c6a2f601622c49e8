// SPDX-License-Identifier: GPL-3.0-or-later
// A checker of the Trace Event Format (Google's "Trace Event Format" document, the JSON that
// chrome://tracing and Perfetto open), for the traces the reference transformer writes (issue 31).
// No Perfetto is available offline, so the tests check the rules those viewers rely on:
// - the top level is an object with a "traceEvents" array (and displayTimeUnit "ms" or "ns" if set);
// - every event is an object with a string "ph"; only "X" (complete) and "M" (metadata) are written;
// - X: string name and cat, numeric ts and dur >= 0, integer pid and tid, args an object if present;
// - M: name one of process_name, process_sort_index, thread_name, thread_sort_index, integer pid
//   and tid, args {"name": string} or {"sort_index": integer};
// - on one (pid, tid) complete events nest: two events either do not overlap or one contains the
//   other (a partial overlap cannot be drawn as a call stack; Perfetto reports it as an error).
// Times are compared in nanoseconds (ts and dur are microseconds with three decimals).
#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

namespace lse::test {

inline bool isWholeNumber(const QJsonValue &v) { return v.isDouble() && v.toDouble() == std::floor(v.toDouble()); }

// Every rule the document breaks, one line each ("event 12: dur is negative"); empty when it is
// a valid trace.
inline QStringList traceEventFormatProblems(const QByteArray &json)
{
    QStringList problems;
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return {QStringLiteral("not JSON: %1 at offset %2").arg(error.errorString()).arg(error.offset)};
    if (!doc.isObject())
        return {QStringLiteral("the top level is not an object")};
    const QJsonObject top = doc.object();
    if (!top.value(QStringLiteral("traceEvents")).isArray())
        return {QStringLiteral("no traceEvents array")};
    if (top.contains(QStringLiteral("displayTimeUnit"))) {
        const QString unit = top.value(QStringLiteral("displayTimeUnit")).toString();
        if (unit != QStringLiteral("ms") && unit != QStringLiteral("ns"))
            problems << QStringLiteral("displayTimeUnit is neither \"ms\" nor \"ns\"");
    }
    struct Span {
        long long start;
        long long end;
        int index;
    };
    std::map<std::pair<long long, long long>, std::vector<Span>> threads;
    const QJsonArray events = top.value(QStringLiteral("traceEvents")).toArray();
    for (int i = 0; i < events.size(); ++i) {
        const auto bad = [&](const QString &what) { problems << QStringLiteral("event %1: %2").arg(i).arg(what); };
        if (!events[i].isObject()) {
            bad(QStringLiteral("not an object"));
            continue;
        }
        const QJsonObject e = events[i].toObject();
        const QString ph = e.value(QStringLiteral("ph")).toString();
        if (!isWholeNumber(e.value(QStringLiteral("pid"))))
            bad(QStringLiteral("pid is not an integer"));
        if (!isWholeNumber(e.value(QStringLiteral("tid"))))
            bad(QStringLiteral("tid is not an integer"));
        if (!e.value(QStringLiteral("name")).isString())
            bad(QStringLiteral("name is not a string"));
        if (e.contains(QStringLiteral("args")) && !e.value(QStringLiteral("args")).isObject())
            bad(QStringLiteral("args is not an object"));
        const QJsonObject args = e.value(QStringLiteral("args")).toObject();
        if (ph == QStringLiteral("M")) {
            const QString name = e.value(QStringLiteral("name")).toString();
            if (name == QStringLiteral("process_name") || name == QStringLiteral("thread_name")) {
                if (!args.value(QStringLiteral("name")).isString())
                    bad(QStringLiteral("%1 without args.name").arg(name));
            } else if (name == QStringLiteral("process_sort_index") || name == QStringLiteral("thread_sort_index")) {
                if (!isWholeNumber(args.value(QStringLiteral("sort_index"))))
                    bad(QStringLiteral("%1 without an integer args.sort_index").arg(name));
            } else {
                bad(QStringLiteral("unknown metadata name '%1'").arg(name));
            }
        } else if (ph == QStringLiteral("X")) {
            if (!e.value(QStringLiteral("cat")).isString())
                bad(QStringLiteral("cat is not a string"));
            const QJsonValue ts = e.value(QStringLiteral("ts")), dur = e.value(QStringLiteral("dur"));
            if (!ts.isDouble() || !dur.isDouble()) {
                bad(QStringLiteral("ts or dur is not a number"));
                continue;
            }
            if (ts.toDouble() < 0 || dur.toDouble() < 0) {
                bad(QStringLiteral("ts or dur is negative"));
                continue;
            }
            const long long start = std::llround(ts.toDouble() * 1000);
            const long long end = start + std::llround(dur.toDouble() * 1000);
            threads[{e.value(QStringLiteral("pid")).toInteger(), e.value(QStringLiteral("tid")).toInteger()}].push_back(
                {start, end, i});
        } else {
            bad(QStringLiteral("phase '%1' is not one this program writes (X, M)").arg(ph));
        }
    }
    for (auto &[thread, spans] : threads) {
        std::stable_sort(spans.begin(), spans.end(), [](const Span &a, const Span &b) {
            return a.start != b.start ? a.start < b.start : a.end > b.end;
        });
        std::vector<Span> open;
        for (const Span &s : spans) {
            while (!open.empty() && open.back().end <= s.start)
                open.pop_back();
            if (!open.empty() && s.end > open.back().end)
                problems << QStringLiteral("event %1 overlaps event %2 partially on pid %3 tid %4")
                                .arg(s.index)
                                .arg(open.back().index)
                                .arg(thread.first)
                                .arg(thread.second);
            open.push_back(s);
        }
    }
    return problems;
}

}  // namespace lse::test
