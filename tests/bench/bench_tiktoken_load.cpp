// SPDX-License-Identifier: GPL-3.0-or-later
// .tiktoken load time against the length of its longest token (issue 14 item 5: one 32,000-byte
// token took 39.5 s; its file was 89 KB, the size of this one). Each file holds the 256 bytes, "ab"
// doubled while it fits in the token, and one token of L bytes "abab…" (L not a power of two, so
// BPE stops at several parts). A benchmark, not a test: it prints times measured in this run.
// Usage: bench_tiktoken_load [--keep DIR] [L ...]   (default L: 2000 8000 32000; --keep writes the
// files as DIR/long_L.tiktoken, e.g. to time `llm-explorer-cli tokenize --tokenizer FILE x`)
#include "tokenizer/tokenizer_formats.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

QByteArray longTokenFile(std::size_t length)
{
    std::vector<std::string> tokens;
    for (int b = 0; b < 256; ++b)
        tokens.emplace_back(1, static_cast<char>(b));
    tokens.emplace_back("ab");
    while (tokens.back().size() * 2 <= length)
        tokens.push_back(tokens.back() + tokens.back());
    std::string longest;
    while (longest.size() < length)
        longest += longest.size() + 1 == length ? "a" : "ab";
    tokens.push_back(longest);
    QByteArray out;
    for (std::size_t r = 0; r < tokens.size(); ++r)
        out += QByteArray(tokens[r].data(), static_cast<qsizetype>(tokens[r].size())).toBase64() + " " +
               QByteArray::number(static_cast<qulonglong>(r)) + "\n";
    return out;
}

}  // namespace

int main(int argc, char **argv)
{
    QString keep;
    std::vector<std::size_t> lengths;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--keep") == 0 && i + 1 < argc)
            keep = QString::fromLocal8Bit(argv[++i]);
        else
            lengths.push_back(static_cast<std::size_t>(std::strtoull(argv[i], nullptr, 10)));
    }
    if (lengths.empty())
        lengths = {2000, 8000, 32000};
    QTemporaryDir scratch;
    const QDir dir(keep.isEmpty() ? scratch.path() : keep);
    for (const std::size_t length : lengths) {
        const QByteArray data = longTokenFile(length);
        const QString path = dir.filePath(QString("long_%1.tiktoken").arg(length));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size()) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
            return 1;
        }
        f.close();
        lse::TiktokenInfo info;
        const auto t0 = Clock::now();
        const auto loaded = lse::loadTiktoken(path.toStdString(), {"<|endoftext|>"}, &info);
        const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        if (!loaded.ok()) {
            std::fprintf(stderr, "%s", lse::formatProblems(loaded.problems()).c_str());
            return 1;
        }
        std::printf("longest token %zu bytes (file %lld bytes, %zu ranks, %zu unreachable): load %.3f s\n", length,
                    static_cast<long long>(data.size()), info.ranks, info.unreachableTokens, seconds);
    }
    return 0;
}
