// SPDX-License-Identifier: GPL-3.0-or-later
// Hand-written Kineto trace events for the trace importer's tests: each helper writes one event as
// the PyTorch profiler does (ph "X", ts/dur in µs, args), so a test states its trace in a few lines.
#pragma once

#include "traces/trace_loader.h"

#include <QString>
#include <QStringList>
#include <QTest>

#include <string>

namespace lse::test {

inline constexpr double kTraceBaseUs = 1'700'000'000'000'000.0;  // absolute µs, as real traces have

inline QString absoluteTs(double ts_us) { return QString::number(kTraceBaseUs + ts_us, 'f', 3); }

inline QString kernelEvent(const QString &name, double ts, double dur, long correlation, int stream = 7,
                           const QString &cat = QStringLiteral("kernel"))
{
    return QStringLiteral(R"({"ph":"X","cat":"%1","name":"%2","pid":0,"tid":%3,"ts":%4,"dur":%5,)"
                          R"("args":{"device":0,"stream":%3,"correlation":%6,"External id":%6}})")
        .arg(cat, name)
        .arg(stream)
        .arg(absoluteTs(ts))
        .arg(dur)
        .arg(correlation);
}

inline QString launchEvent(double ts, long correlation, int tid = 100, double dur = 1)
{
    return QStringLiteral(R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":%1,"ts":%2,)"
                          R"("dur":%3,"args":{"correlation":%4,"External id":%4}})")
        .arg(tid)
        .arg(absoluteTs(ts))
        .arg(dur)
        .arg(correlation);
}

// dims and types as the profiler's JSON text: "[[32,128],[128,64]]", "[\"float\",\"float\"]".
inline QString cpuOpEvent(const QString &name, double ts, double dur, int tid = 100, const QString &dims = {},
                          const QString &types = {}, const QString &cat = QStringLiteral("cpu_op"))
{
    QString args = QStringLiteral(R"("External id":1)");
    if (!dims.isEmpty())
        args += QStringLiteral(R"(,"Input Dims":%1,"Input type":%2)").arg(dims, types);
    return QStringLiteral(R"({"ph":"X","cat":"%1","name":"%2","pid":1,"tid":%3,"ts":%4,"dur":%5,"args":{%6}})")
        .arg(cat, name)
        .arg(tid)
        .arg(absoluteTs(ts))
        .arg(dur)
        .arg(args);
}

inline QString stepEvent(long number, double ts, double dur)
{
    return cpuOpEvent(QStringLiteral("ProfilerStep#%1").arg(number), ts, dur, 100, {}, {},
                      QStringLiteral("user_annotation"));
}

inline std::string traceJson(const QStringList &events, const QString &top = {})
{
    return QStringLiteral(R"({"schemaVersion":1,%1"traceEvents":[%2]})")
        .arg(top.isEmpty() ? QString() : top + QStringLiteral(","), events.join(QStringLiteral(",\n")))
        .toStdString();
}

inline traces::TraceRank parsedTrace(const std::string &json)
{
    Result<traces::TraceRank> rank = traces::parseTrace(json, "test.json");
    if (!rank)
        qFatal("hand-written trace refused: %s", formatProblems(rank.problems()).c_str());
    return std::move(rank.value());
}

inline std::string traceDataPath(const char *name)
{
    return std::string(LSE_TEST_DATA_DIR "/traces/hta/") + name;
}

}  // namespace lse::test
