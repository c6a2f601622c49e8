// SPDX-License-Identifier: GPL-3.0-or-later
// core/traces/trace_loader: Kineto Chrome-trace JSON read plain and gzip-compressed, from memory
// and from files, streamed in pieces (events that cross a piece boundary), the legacy top-level
// array, top-level metadata (rank, device, record_shapes), times rebased; and every bad input
// refused with a problem naming the event and field: truncated gzip, not JSON, a negative dur,
// nesting past the limit, a JSON file that is not a trace, too many or too large events, cancel.
#include "trace_test_events.h"

#include "traces/trace_loader.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <iterator>

using namespace lse::test;
using lse::Problems;
using lse::Result;
using lse::formatProblems;
namespace traces = lse::traces;

namespace {

std::string gzipped(const std::string &text)
{
    z_stream zs{};
    if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        qFatal("deflateInit2 failed");
    std::string out(deflateBound(&zs, static_cast<uLong>(text.size())) + 64, '\0');
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(text.data()));
    zs.avail_in = static_cast<uInt>(text.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
        qFatal("deflate failed");
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

std::string gunzipped(const std::string &path)
{
    gzFile file = gzopen(path.c_str(), "rb");
    std::string text;
    char buffer[65536];
    int got = 0;
    while ((got = gzread(file, buffer, sizeof buffer)) > 0)
        text.append(buffer, static_cast<std::size_t>(got));
    gzclose(file);
    return text;
}

std::string readAll(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// The problems of a refused trace; fails the test when it was accepted.
Problems refused(const std::string &bytes, const traces::TraceLoadOptions &options = {})
{
    Result<traces::TraceRank> rank = traces::parseTrace(bytes, "t.json", options);
    if (rank.ok())
        qFatal("accepted a bad trace: %s", bytes.substr(0, 200).c_str());
    return rank.problems();
}

#define QVERIFY_PROBLEM(problems, field_, rule_)                                                                     \
    do {                                                                                                             \
        const Problems p_ = (problems);                                                                              \
        QVERIFY2(!p_.empty() && p_.front().field == (field_) && p_.front().rule == (rule_),                          \
                 qPrintable(QString::fromStdString(formatProblems(p_))));                                            \
    } while (false)

std::string smallTrace()
{
    return traceJson({stepEvent(7, 0, 100), launchEvent(5, 1),
                      cpuOpEvent("aten::mm", 2, 10, 100, "[[4,8],[8,16]]", R"(["float","float"])"),
                      kernelEvent("ampere_sgemm_32x32_sliced1x4_tn", 20, 5, 1)},
                     R"("deviceProperties":[{"id":0,"name":"NVIDIA H100 80GB HBM3"}],)"
                     R"("distributedInfo":{"backend":"nccl","rank":3,"world_size":8},"record_shapes":1)");
}

}  // namespace

class TestTraceLoader : public QObject {
    Q_OBJECT
private slots:
    void readsEventsAndMetadata()
    {
        const traces::TraceRank rank = parsedTrace(smallTrace());
        QCOMPARE(rank.rank, 3);
        QCOMPARE(rank.world_size, 8);
        QCOMPARE(rank.device_name, std::string("NVIDIA H100 80GB HBM3"));
        QVERIFY(rank.record_shapes);
        QCOMPARE(rank.counts.events, std::int64_t{4});
        QCOMPARE(rank.counts.kernels, std::int64_t{1});
        QCOMPARE(rank.counts.runtime_calls, std::int64_t{1});
        QCOMPARE(rank.steps.size(), std::size_t{1});
        QCOMPARE(rank.steps[0].number, std::int64_t{7});
        // Times from the earliest event (the step at 0), so absolute 16-digit timestamps lose nothing.
        QCOMPARE(rank.origin_us, kTraceBaseUs);
        QCOMPARE(rank.kernels[0].start_us, 20.0);
        QCOMPARE(rank.kernels[0].duration_us, 5.0);
        QCOMPARE(rank.kernels[0].launch_start_us, 5.0);
        QCOMPARE(rank.kernels[0].stream, 7);
        QCOMPARE(rank.cpu_ops.size(), std::size_t{1});
        QCOMPARE(rank.text(rank.cpu_ops[0].shape), std::string("[[4,8],[8,16]]"));
        QCOMPARE(rank.kernels[0].flops, 2.0 * 4 * 16 * 8);
    }

    // The legacy Chrome format: a bare array of events, no metadata.
    void readsTopLevelArray()
    {
        const std::string json = "[" + kernelEvent("ncclDevKernel_AllGather_RING_LL(int)", 0, 4, 1).toStdString() + "," +
                                 kernelEvent("flash_bwd_dq_dk_dv_loop_kernel<int>", 4, 4, 2).toStdString() + "]";
        const traces::TraceRank rank = parsedTrace(json);
        QCOMPARE(rank.kernels.size(), std::size_t{2});
        QCOMPARE(rank.kernels[0].kernel_class, traces::KernelClass::Communication);
        QCOMPARE(rank.kernels[1].kernel_class, traces::KernelClass::Attention);
        QCOMPARE(rank.rank, -1);
    }

    // Braces, brackets and escaped quotes inside strings are not structure.
    void stringsAreNotStructure()
    {
        // Normal string literals, not raw ones: moc (Qt 6.4) counts the braces inside raw strings.
        const std::string json = traceJson({kernelEvent("void k<{lambda()#1}>(\\\"]}[{\\\\\\\")", 0, 1, 1)},
                                           "\"traceName\":\"a \\\"}]\\\" name\"");
        const traces::TraceRank rank = parsedTrace(json);
        QCOMPARE(rank.kernels.size(), std::size_t{1});
        QCOMPARE(rank.text(rank.kernels[0].name), std::string("void k<{lambda()#1}>(\"]}[{\\\")"));
    }

    // 30 000 events (several MiB): events cross the reader's 1 MiB pieces; gzip gives the same.
    void streamsAcrossPieces()
    {
        QStringList events;
        for (int i = 0; i < 30000; ++i)
            events << kernelEvent(QStringLiteral("void at::native::vectorized_elementwise_kernel<4, %1>(int)").arg(i),
                                  i * 2.0, 1.0, i);
        const std::string json = traceJson(events);
        QVERIFY(json.size() > std::size_t{3} << 20);
        const traces::TraceRank plain = parsedTrace(json);
        QCOMPARE(plain.kernels.size(), std::size_t{30000});
        QCOMPARE(plain.kernels.back().start_us, 59998.0);
        Result<traces::TraceRank> compressed = traces::parseTrace(gzipped(json), "t.json.gz");
        QVERIFY2(compressed.ok(), formatProblems(compressed.problems()).c_str());
        QCOMPARE(compressed->kernels.size(), std::size_t{30000});
        QCOMPARE(compressed->text(compressed->kernels[29999].name), plain.text(plain.kernels[29999].name));
        // Two gzip members one after the other are one gzip file.
        const std::string half = traceJson({kernelEvent("a_gemm", 0, 1, 1)});
        Result<traces::TraceRank> members = traces::parseTrace(gzipped(half.substr(0, 40)) + gzipped(half.substr(40)), "m.gz");
        QVERIFY2(members.ok(), formatProblems(members.problems()).c_str());
        QCOMPARE(members->kernels.size(), std::size_t{1});
    }

    // The real file gzip-compressed and the same text plain read the same.
    void realTraceGzipAndPlain()
    {
        const std::string path = traceDataPath("alexnet_a100.json.gz");
        Result<traces::TraceRank> gz = traces::loadTrace(path);
        QVERIFY2(gz.ok(), formatProblems(gz.problems()).c_str());
        QTemporaryDir dir;
        const std::string plain_path = QDir(dir.path()).filePath("alexnet.json").toStdString();
        {
            std::ofstream out(plain_path, std::ios::binary);
            out << gunzipped(path);
        }
        Result<traces::TraceRank> plain = traces::loadTrace(plain_path);
        QVERIFY2(plain.ok(), formatProblems(plain.problems()).c_str());
        QCOMPARE(plain->kernels.size(), gz->kernels.size());
        QCOMPARE(plain->counts.events, gz->counts.events);
        QCOMPARE(gz->counts.kernels, std::int64_t{79});
        QCOMPARE(gz->counts.memcpys, std::int64_t{16});
        QCOMPARE(gz->counts.memsets, std::int64_t{3});
        QCOMPARE(gz->counts.flows, std::int64_t{500});
        QCOMPARE(gz->device_name, std::string("NVIDIA A100-PG509-200"));
    }

    // Two files, two ranks, in order; a CPU-only trace has no GPU activity.
    void multiRankAndCpuOnly()
    {
        Result<std::vector<traces::TraceRank>> ranks =
            traces::loadTraces({traceDataPath("sampled_rank-0.json.gz"), traceDataPath("sampled_rank-1.json.gz")});
        QVERIFY2(ranks.ok(), formatProblems(ranks.problems()).c_str());
        QCOMPARE(ranks->size(), std::size_t{2});
        QCOMPARE((*ranks)[0].rank, 0);
        QCOMPARE((*ranks)[1].rank, 1);
        QCOMPARE((*ranks)[0].world_size, 128);
        QVERIFY((*ranks)[0].record_shapes);
        Result<traces::TraceRank> cpu = traces::loadTrace(traceDataPath("cpu_only_rank-34.json.gz"));
        QVERIFY2(cpu.ok(), formatProblems(cpu.problems()).c_str());
        QVERIFY(!cpu->hasGpu());
        QCOMPARE(cpu->rank, 34);
        QCOMPARE(cpu->counts.cpu_ops, std::int64_t{14});  // 4 cpu_op + 10 gloo:all_reduce annotations
        QCOMPARE(cpu->steps.size(), std::size_t{1});        // ProfilerStep#551, a user_annotation
    }

    void refusesTruncatedGzip()
    {
        const std::string gz = readAll(traceDataPath("alexnet_a100.json.gz"));
        QVERIFY_PROBLEM(refused(gz.substr(0, gz.size() / 2)), "t.json", "gzip");
        std::string damaged = gz;
        damaged[damaged.size() / 2] = static_cast<char>(damaged[damaged.size() / 2] ^ 0x55);
        damaged[damaged.size() / 2 + 1] = static_cast<char>(damaged[damaged.size() / 2 + 1] ^ 0x55);
        const Problems problems = refused(damaged);
        QVERIFY(!problems.empty());
        QVERIFY(problems.front().rule == "gzip" || problems.front().field.rfind("traceEvents", 0) == 0);
    }

    void refusesWhatIsNotATrace()
    {
        QVERIFY_PROBLEM(refused("hello world"), "t.json", "json");
        QVERIFY_PROBLEM(refused(""), "t.json", "empty");
        QVERIFY_PROBLEM(refused(std::string("\0\1\2\3", 4)), "t.json", "json");
        // A JSON object that is some other file: the project's own scenario format.
        QVERIFY_PROBLEM(refused(R"({"format":"llm-explorer-scenario","version":1,"model":{"layers":2}})"), "traceEvents",
                        "missing");
        QVERIFY_PROBLEM(refused(R"({"traceEvents":{"ph":"X"}})"), "traceEvents", "type");
        QVERIFY_PROBLEM(refused(smallTrace().substr(0, 300)), "t.json", "truncated");
        QVERIFY_PROBLEM(refused(smallTrace() + " {}"), "t.json", "json");
        QVERIFY_PROBLEM(refused(R"({"traceEvents":[{}]]})"), "t.json", "json");
    }

    // Each bad field named with its event's index.
    void namesTheEventAndField()
    {
        QVERIFY_PROBLEM(refused(traceJson({stepEvent(1, 0, 10), kernelEvent("k", 0, -5, 1)})), "traceEvents[1].dur", "range");
        QVERIFY_PROBLEM(refused(traceJson({R"({"ph":"X","cat":"kernel","name":"k","ts":"soon","dur":1})"})),
                        "traceEvents[0].ts", "type");
        QVERIFY_PROBLEM(refused(traceJson({R"({"ph":"X","cat":"kernel","name":"k","ts":1})"})), "traceEvents[0].dur", "range");
        QVERIFY_PROBLEM(refused(traceJson({R"({"ph":"X","cat":"kernel","name":"k","ts":1,"dur":1,"args":{"correlation":-3}})"})),
                        "traceEvents[0].args.correlation", "range");
        QVERIFY_PROBLEM(refused(traceJson({R"({"ph":"X","cat":"cpu_op","name":"aten::mm","ts":1,"dur":1,"args":{"Input Dims":7}})"})),
                        "traceEvents[0].args.Input Dims", "type");
        QVERIFY_PROBLEM(refused(traceJson({R"({"ph":"X","cat":"kernel","ts":1,"dur":1,"args":[]})"})), "traceEvents[0].args", "type");
        QVERIFY_PROBLEM(refused(traceJson({R"({"ph":7})"})), "traceEvents[0].ph", "type");
        QVERIFY_PROBLEM(refused(traceJson({R"("not an event")"})), "traceEvents[0]", "type");
        QVERIFY_PROBLEM(refused(traceJson({R"({"ph":"X",})"})), "traceEvents[0]", "json");
        QVERIFY_PROBLEM(refused(traceJson({}, R"("distributedInfo":{"rank":-1})")), "distributedInfo.rank", "range");
        // Events of categories the importer does not read are not checked.
        const traces::TraceRank rank = parsedTrace(traceJson({R"({"ph":"X","cat":"python_function","ts":"x"})",
                                                              R"({"ph":"M","name":"process_name"})"}));
        QCOMPARE(rank.counts.ignored, std::int64_t{2});
    }

    void boundsDepthCountAndSize()
    {
        // Written with escapes, not as a raw string: moc counts the braces of raw strings.
        std::string deep = "{\"traceEvents\":[{\"ph\":\"X\",\"args\":";
        for (int i = 0; i < 100000; ++i)
            deep += '[';
        QVERIFY_PROBLEM(refused(deep), "traceEvents[0]", "depth");
        traces::TraceLoadOptions options;
        options.max_events = 2;
        QVERIFY_PROBLEM(refused(traceJson({stepEvent(1, 0, 1), stepEvent(2, 1, 1), stepEvent(3, 2, 1)}), options),
                        "traceEvents", "too_many");
        options = {};
        options.max_event_bytes = 100;
        QVERIFY_PROBLEM(refused(traceJson({kernelEvent(QString(200, 'x'), 0, 1, 1)}), options), "traceEvents[0]",
                        "too_large");
        options = {};
        options.max_text_bytes = 1000;
        QVERIFY_PROBLEM(refused(gzipped(traceJson({kernelEvent(QString(5000, 'x'), 0, 1, 1)})), options), "t.json",
                        "too_large");
    }

    void refusesBadFiles()
    {
        Result<traces::TraceRank> missing = traces::loadTrace("/nonexistent/trace.json");
        QVERIFY(!missing.ok());
        QCOMPARE(missing.problems().front().rule, std::string("unreadable"));
        Result<traces::TraceRank> folder = traces::loadTrace(LSE_TEST_DATA_DIR);
        QVERIFY(!folder.ok());
        QCOMPARE(folder.problems().front().rule, std::string("not_a_file"));
        traces::TraceLoadOptions options;
        options.max_file_bytes = 1000;
        Result<traces::TraceRank> large = traces::loadTrace(traceDataPath("sampled_rank-0.json.gz"), options);
        QVERIFY(!large.ok());
        QCOMPARE(large.problems().front().rule, std::string("too_large"));
        // One bad file among several: its problems, named after it.
        Result<std::vector<traces::TraceRank>> ranks =
            traces::loadTraces({traceDataPath("sampled_rank-0.json.gz"), "/nonexistent/rank-1.json"});
        QVERIFY(!ranks.ok());
        QCOMPARE(ranks.problems().front().field, std::string("/nonexistent/rank-1.json"));
    }

    void progressAndCancel()
    {
        std::vector<std::int64_t> seen;
        Result<traces::TraceRank> rank = traces::loadTrace(traceDataPath("nccl_data_a100.json.gz"), {},
                                                           [&](std::int64_t done, std::int64_t total) {
                                                               seen.push_back(done);
                                                               return done <= total;
                                                           });
        QVERIFY(rank.ok());
        QVERIFY(seen.size() >= 2);
        QCOMPARE(seen.back(), std::int64_t{749757});
        Result<traces::TraceRank> cancelled =
            traces::loadTrace(traceDataPath("nccl_data_a100.json.gz"), {}, [](std::int64_t done, std::int64_t) {
                return done == 0;
            });
        QVERIFY(!cancelled.ok());
        QCOMPARE(cancelled.problems().front().rule, std::string("cancelled"));
    }
};

QTEST_GUILESS_MAIN(TestTraceLoader)
#include "test_trace_loader.moc"
