// SPDX-License-Identifier: GPL-3.0-or-later
// Load and analysis time of a large synthetic Kineto trace (core/traces): N steps of a transformer-
// like pattern (per layer: a launch, a cpu_op with shapes, a GEMM and an element-wise kernel, flows),
// written plain and gzip-compressed to a temporary folder, then loadTrace and analyseRank timed, with
// the peak resident memory. A benchmark, not a test: it prints what this run measured.
// Usage: bench_trace_load [EVENTS]   (default 2 000 000 events, about 500 MB of JSON)
#include "traces/trace_analysis.h"
#include "traces/trace_loader.h"

#include <QDir>
#include <QTemporaryDir>

#include <sys/resource.h>
#include <zlib.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double peakResidentMegabytes()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

// Writes the trace in pieces to a plain file and a gzip file; returns the plain size in bytes.
long long writeTrace(const std::string &plain_path, const std::string &gz_path, long long events)
{
    std::FILE *plain = std::fopen(plain_path.c_str(), "wb");
    gzFile gz = gzopen(gz_path.c_str(), "wb6");
    long long bytes = 0;
    const auto put = [&](const std::string &text) {
        std::fwrite(text.data(), 1, text.size(), plain);
        gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
        bytes += static_cast<long long>(text.size());
    };
    put(R"({"schemaVersion":1,"distributedInfo":{"rank":0,"world_size":8},"record_shapes":1,"traceEvents":[)");
    const long long base = 1700000000000000LL;
    long long written = 0;
    long long t = 0;
    long long correlation = 0;
    char line[2048];
    for (long long step = 0; written < events; ++step) {
        const long long step_start = t;
        std::string events_of_step;
        for (int layer = 0; layer < 200 && written < events; ++layer, written += 5, t += 40) {
            ++correlation;
            std::snprintf(line, sizeof line,
                          R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":%lld,"dur":10,)"
                          R"("args":{"External id":%lld,"Input Dims":[[4096,4096],[4096,4096]],"Input type":["c10::BFloat16","c10::BFloat16"]}},)"
                          R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%lld,"dur":3,"args":{"correlation":%lld}},)"
                          R"({"ph":"s","id":%lld,"pid":1,"tid":1,"ts":%lld,"cat":"ac2g","name":"ac2g"},)"
                          R"({"ph":"X","cat":"kernel","name":"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64","pid":0,"tid":7,"ts":%lld,"dur":25,)"
                          R"("args":{"device":0,"stream":7,"correlation":%lld,"grid":[132,1,1],"block":[384,1,1]}},)"
                          R"x({"ph":"X","cat":"kernel","name":"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>>(int)","pid":0,"tid":7,"ts":%lld,"dur":5,"args":{"device":0,"stream":7,"correlation":0}},)x",
                          base + t, correlation, base + t + 2, correlation, correlation, base + t + 2, base + t + 20,
                          correlation, base + t + 46);
            events_of_step += line;
        }
        std::snprintf(line, sizeof line,
                      R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#%lld","pid":1,"tid":1,"ts":%lld,"dur":%lld},)",
                      step, base + step_start, t - step_start);
        put(line);
        put(events_of_step);
    }
    put(R"({"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"python"}}]})");
    std::fclose(plain);
    gzclose(gz);
    return bytes;
}

}  // namespace

int main(int argc, char **argv)
{
    const long long events = argc > 1 ? std::atoll(argv[1]) : 2'000'000;
    QTemporaryDir dir;
    const std::string plain = QDir(dir.path()).filePath("trace.json").toStdString();
    const std::string gz = QDir(dir.path()).filePath("trace.json.gz").toStdString();
    const Clock::time_point write_start = Clock::now();
    const long long bytes = writeTrace(plain, gz, events);
    std::printf("synthetic trace: %lld events, %.1f MB of JSON (written in %.1f s)\n", events, double(bytes) / 1e6,
                secondsSince(write_start));
    for (const std::string &path : {plain, gz}) {
        const Clock::time_point start = Clock::now();
        lse::Result<lse::traces::TraceRank> rank = lse::traces::loadTrace(path);
        const double load = secondsSince(start);
        if (!rank) {
            std::printf("%s: %s\n", path.c_str(), lse::formatProblems(rank.problems()).c_str());
            return 1;
        }
        const Clock::time_point analyse_start = Clock::now();
        const lse::traces::TraceRankAnalysis analysis = lse::traces::analyseRank(rank.value());
        std::printf("%-8s load %.2f s (%.0f MB/s of JSON), analyse %.2f s: %zu kernels, %zu steps, matmul %.3g FLOPs, "
                    "peak RSS %.0f MB\n",
                    path.size() > 3 && path.substr(path.size() - 3) == ".gz" ? "gzip" : "plain", load,
                    double(bytes) / 1e6 / load, secondsSince(analyse_start), rank->kernels.size(),
                    analysis.steps.size(), analysis.matmul_flops, peakResidentMegabytes());
    }
    return 0;
}
