// SPDX-License-Identifier: GPL-3.0-or-later
// Tokenizer subcommands: tokenize, train-bpe, prepare-data, bench-tokenizer.

#include "commands.h"
#include "file_arguments.h"
#include "output.h"
#include "replacing_file.h"

#include "common/file_bytes.h"
#include "common/folder_lock.h"
#include "common/interrupt_cleanup.h"
#include "common/memory_limit.h"
#include "common/prefaulted_allocator.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/bpe_trainer.h"
#include "tokenizer/tokenizer_files.h"
#include "tokenizer/tokenizer_formats.h"
#include "tokenizer/unicode.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtEndian>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <optional>
#include <cstdio>
#include <thread>
#include <vector>
#include <unistd.h>

namespace lse::cli {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

Problem problem(const std::string &field, const std::string &rule, const std::string &message)
{
    return Problem{field, rule, message};
}

std::vector<std::string> toStd(const QStringList &list)
{
    std::vector<std::string> out;
    for (const QString &s : list)
        out.push_back(s.toStdString());
    return out;
}

// Parses the arguments of `command`; returns an exit code when done (help or syntax error).
std::optional<int> parseArguments(QCommandLineParser &parser, const QString &command, const QString &synopsis,
                                  const QString &description, const QList<QCommandLineOption> &options,
                                  const QStringList &arguments)
{
    parser.setApplicationDescription(description);
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{"h", "help"}, QStringLiteral("Show this help."));
    parser.addOption(help);
    parser.addOptions(options);
    if (!parser.parse(QStringList{command} + arguments))
        return reportProblems({problem("arguments", "syntax", parser.errorText().toStdString())});
    if (parser.isSet(help)) {
        printOut(QStringLiteral("Usage: llm-explorer-cli %1 %2\n").arg(command, synopsis) +
                 parser.helpText().section('\n', 1));
        return kExitOk;
    }
    return std::nullopt;
}

// A positive whole number option, or a problem.
std::optional<std::int64_t> countOption(const QCommandLineParser &parser, const QString &name, std::int64_t fallback,
                                        std::int64_t minimum, Problems &problems)
{
    if (!parser.isSet(name))
        return fallback;
    const QString text = parser.value(name);
    const std::optional<std::int64_t> value = parseCount(text);
    if (!value || *value < minimum || *value > 1'000'000'000) {
        problems.push_back(problem("--" + name.toStdString(), "integer",
                                   QStringLiteral("--%1 '%2' is not a whole number >= %3").arg(name, text).arg(minimum)
                                       .toStdString()));
        return std::nullopt;
    }
    return value;
}

// The shared rule of core/common/file_bytes.h for each input, checked before the tokenizer loads:
// FileKind::Data for inputs that are streamed or mapped (no size cap), FileKind::Text for those read
// whole into memory (tokenize --file, bench-tokenizer --input: at most maxFileBytes(Text)).
void checkReadableFiles(const QStringList &files, const char *flag, Problems &problems, FileKind kind = FileKind::Data)
{
    for (const QString &file : files) {
        if (!QFileInfo::exists(file)) {
            problems.push_back(problem(flag, "missing", std::string(flag) + " " + file.toStdString() + ": no such file."));
        } else if (std::optional<Problem> unusable = regularFileProblem(QFile::encodeName(file).toStdString(), kind)) {
            unusable->field = flag;
            unusable->message = std::string(flag) + " " + unusable->message;
            problems.push_back(*unusable);
        }
    }
}

std::vector<std::string> specialsOf(const QCommandLineParser &parser, Problems &problems)
{
    std::vector<std::string> out;
    for (const QString &s : parser.values(QStringLiteral("special"))) {
        if (s.isEmpty())
            problems.push_back(problem("--special", "empty", "--special takes a non-empty token."));
        else if (std::find(out.begin(), out.end(), s.toStdString()) == out.end())
            out.push_back(s.toStdString());
    }
    return out;
}

QCommandLineOption specialOption()
{
    return QCommandLineOption(QStringLiteral("special"),
                              QStringLiteral("Special token (repeatable): split out first and encoded as one id."),
                              QStringLiteral("TOK"));
}

QCommandLineOption tokenizerOption()
{
    return QCommandLineOption(QStringLiteral("tokenizer"),
                              QStringLiteral("Tokenizer: a directory with vocab.json + merges.txt (or one PREFIXvocab.json + "
                                             "PREFIXmerges.txt pair), one of those files, a Hugging Face "
                                             "tokenizer.json (or a directory with one) or a .tiktoken file."),
                              QStringLiteral("DIR|FILE"));
}

std::optional<BpeTokenizer> loadTokenizer(const QCommandLineParser &parser, const std::vector<std::string> &specials,
                                          Problems &problems)
{
    if (!parser.isSet(QStringLiteral("tokenizer"))) {
        problems.push_back(problem("--tokenizer", "required", "--tokenizer DIR|FILE is required."));
        return std::nullopt;
    }
    // GPT-2 vocab.json + merges.txt (also PREFIXvocab.json + PREFIXmerges.txt) load here with exactly
    // the --special tokens; tokenizer.json and .tiktoken files go through the format loader.
    const QString path = parser.value(QStringLiteral("tokenizer"));
    const QFileInfo info(path);
    const bool gpt2File = info.isFile() && (info.fileName().endsWith(QLatin1String("vocab.json")) ||
                                            info.fileName().endsWith(QLatin1String("merges.txt")));
    const bool gpt2Dir = info.isDir() && !QDir(path).exists(QStringLiteral("tokenizer.json")) &&
                         locateGpt2TokenizerFiles(path.toStdString()).ok();
    Result<BpeTokenizer> loaded = gpt2File || gpt2Dir || !info.exists()
                                      ? loadGpt2TokenizerFrom(path.toStdString(), specials)
                                      : lse::loadTokenizer(path.toStdString(), specials);
    if (!loaded) {
        const Problems named = namedAfterFlag(loaded.problems(), "--tokenizer", path);
        problems.insert(problems.end(), named.begin(), named.end());
        return std::nullopt;
    }
    return std::move(loaded.value());
}

// The files --tokenizer reads: the path itself (a folder stands for its files) and, for one of a
// GPT-2 pair, its partner.
std::vector<InputFile> tokenizerInputs(const QCommandLineParser &parser)
{
    if (!parser.isSet(QStringLiteral("tokenizer")))
        return {};
    // The files the loader reads are what the output must not be; a folder as such is none (its
    // other files, such as an ids.bin written earlier, are not inputs). Files the loader finds by
    // itself (a tokenizer.json) are registered when read (common/input_files.h).
    const QString path = parser.value(QStringLiteral("tokenizer"));
    std::vector<InputFile> inputs{{"--tokenizer", path}};
    if (const Result<Gpt2TokenizerFiles> pair = locateGpt2TokenizerFiles(path.toStdString()); pair.ok())
        for (const std::string &file : {pair->vocabPath, pair->mergesPath})
            inputs.push_back({"--tokenizer", QString::fromStdString(file)});
    return inputs;
}

// A text input held whole (tokenize --file, bench-tokenizer --input): read under FileKind::Text's cap
// with every read error reported, problems named after `flag`.
std::optional<QByteArray> readTextInput(const QString &path, const std::string &flag, Problems &problems)
{
    Result<QByteArray> bytes = readFileBytes(QFile::encodeName(path).toStdString(), FileKind::Text);
    if (!bytes) {
        const Problems named = namedAfterFlag(bytes.problems(), flag, path);
        problems.insert(problems.end(), named.begin(), named.end());
        return std::nullopt;
    }
    return std::move(bytes.value());
}

QString hexBytes(std::string_view bytes)
{
    QString out;
    for (const char c : bytes) {
        if (!out.isEmpty())
            out += QLatin1Char(' ');
        out += QStringLiteral("%1").arg(static_cast<unsigned>(static_cast<unsigned char>(c)), 2, 16, QLatin1Char('0'));
    }
    return out;
}

// The token's bytes made visible: ␣ for a space, \n \t \r \\ and \xNN for control characters, \u{XXXX}
// for other whitespace, and bytes that are not complete UTF-8 characters as hex in angle brackets.
QString printable(std::string_view bytes)
{
    QString out;
    std::string invalid;
    const auto flushInvalid = [&] {
        if (!invalid.empty())
            out += QLatin1Char('<') + hexBytes(invalid) + QLatin1Char('>');
        invalid.clear();
    };
    for (std::size_t i = 0; i < bytes.size();) {
        const Utf8Char c = decodeUtf8At(bytes, i);
        if (c.codepoint == kInvalidCodepoint) {
            invalid.push_back(bytes[i]);
            i += 1;
            continue;
        }
        flushInvalid();
        i += c.length;
        const std::uint32_t cp = c.codepoint;
        switch (cp) {
        case ' ': out += QChar(0x2423); continue;
        case '\n': out += QStringLiteral("\\n"); continue;
        case '\t': out += QStringLiteral("\\t"); continue;
        case '\r': out += QStringLiteral("\\r"); continue;
        case '\\': out += QStringLiteral("\\\\"); continue;
        default: break;
        }
        if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0))
            out += QStringLiteral("\\x%1").arg(cp, 2, 16, QLatin1Char('0'));
        else if (unicodeClass(cp) == CharClass::Space || cp == 0x200b || cp == 0xfeff || cp == 0xad)
            out += QStringLiteral("\\u{%1}").arg(cp, 4, 16, QLatin1Char('0'));
        else
            out += QString::fromUcs4(reinterpret_cast<const char32_t *>(&cp), 1);
    }
    flushInvalid();
    return out;
}

}  // namespace

// --- tokenize -------------------------------------------------------------------------------------

int runTokenize(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("TEXT"), QStringLiteral("Text to tokenize (or use --file)."));
    const QCommandLineOption file(QStringLiteral("file"), QStringLiteral("Tokenize this file (bytes as they are; read whole, at most 256 MiB)."),
                                  QStringLiteral("F"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON object."));
    if (const auto done = parseArguments(
            parser, QStringLiteral("tokenize"), QStringLiteral("--tokenizer DIR|FILE [--special TOK]... [--json] (TEXT | --file F)"),
            QStringLiteral("Split text into tokens and print each token's index, id, byte span [start,end) and "
                           "bytes (whitespace and control characters escaped, partial UTF-8 as <hex>)."),
            {tokenizerOption(), specialOption(), file, json}, arguments))
        return *done;

    Problems problems;
    const std::vector<std::string> specials = specialsOf(parser, problems);
    const QStringList positional = parser.positionalArguments();
    if (parser.isSet(file) && !positional.isEmpty())
        problems.push_back(problem("arguments", "conflict", "give either TEXT or --file F, not both."));
    else if (!parser.isSet(file) && positional.size() != 1)
        problems.push_back(problem("arguments", positional.isEmpty() ? "required" : "unexpected",
                                   positional.isEmpty() ? "give the TEXT to tokenize or --file F."
                                                        : "give the TEXT as one argument (quote it)."));
    if (parser.isSet(file))
        checkReadableFiles({parser.value(file)}, "--file", problems, FileKind::Text);
    if (!problems.empty())
        return reportProblems(problems);

    std::optional<BpeTokenizer> tokenizer = loadTokenizer(parser, specials, problems);
    if (!tokenizer)
        return reportProblems(problems);

    QByteArray text;
    if (parser.isSet(file)) {
        std::optional<QByteArray> read = readTextInput(parser.value(file), "--file", problems);
        if (!read)
            return reportProblems(problems);
        text = std::move(*read);
    } else {
        // The argument's bytes, as --file keeps a file's: invalid UTF-8 stays what it was, not U+FFFD.
        text = rawArgumentBytes(positional.front());
    }
    const std::string_view view(text.constData(), static_cast<std::size_t>(text.size()));
    // The tokens are printed batch by batch as the encoder hands them over: held whole, the listing
    // of a 256 MiB file (up to one token per byte, each a line of text or a JSON object) would not
    // fit in memory.
    std::size_t count = 0;
    const bool asJson = parser.isSet(json);
    const auto printTokens = [&](const EncodedToken *tokens, std::size_t n) {
        if (asJson) {
            QJsonArray array;
            for (const EncodedToken *t = tokens; t != tokens + n; ++t) {
                const std::string_view bytes = view.substr(t->begin, t->end - t->begin);
                QJsonObject o;
                o["id"] = static_cast<qint64>(t->id);
                o["start"] = static_cast<qint64>(t->begin);
                o["end"] = static_cast<qint64>(t->end);
                o["bytes_hex"] = hexBytes(bytes).remove(QLatin1Char(' '));
                o["text"] = QString::fromStdString(repairUtf8(bytes));
                o["display"] = printable(bytes);
                // Allowed special tokens are always split out, so equal bytes mean the special token.
                o["special"] = std::find(specials.begin(), specials.end(), bytes) != specials.end();
                array.append(o);
            }
            // QJsonDocument's layout of the array without its brackets, one level deeper, the
            // batches joined by commas.
            const QStringList lines = QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented)).split(QLatin1Char('\n'));
            QString body = count == 0 ? QString() : QStringLiteral(",\n");
            for (qsizetype l = 1; l + 2 < lines.size(); ++l)
                body += QStringLiteral("    ") + lines[l] + (l + 3 < lines.size() ? QStringLiteral("\n") : QString());
            printOut(body);
        } else {
            QString out;
            for (std::size_t i = 0; i < n; ++i) {
                const EncodedToken &t = tokens[i];
                out += QStringLiteral("%1\t%2\t[%3,%4)\t%5\n")
                           .arg(count + i)
                           .arg(t.id)
                           .arg(t.begin)
                           .arg(t.end)
                           .arg(printable(view.substr(t.begin, t.end - t.begin)));
            }
            printOut(out);
        }
        count += n;
    };
    // JSON: the fields known before encoding, the tokens, then the totals (QJsonDocument's layout,
    // written in three parts).
    if (asJson) {
        QJsonObject head;
        head["tokenizer"] = parser.value(QStringLiteral("tokenizer"));
        head["vocab_size"] = static_cast<qint64>(tokenizer->vocabSize());
        head["bytes"] = static_cast<qint64>(view.size());
        QString opening = QString::fromUtf8(QJsonDocument(head).toJson(QJsonDocument::Indented));
        opening.chop(QStringLiteral("\n}\n").size());
        printOut(opening + QStringLiteral(",\n    \"tokens\": [\n"));
    }
    tokenizer->encodeWithOffsets(view, specials, printTokens);
    const double bytesPerToken = count == 0 ? 0.0 : static_cast<double>(view.size()) / static_cast<double>(count);
    if (asJson) {
        QJsonObject totals;
        totals["count"] = static_cast<qint64>(count);
        totals["bytes_per_token"] = bytesPerToken;
        const QString closing = QString::fromUtf8(QJsonDocument(totals).toJson(QJsonDocument::Indented)).mid(2);
        printOut((count == 0 ? QString() : QStringLiteral("\n")) + QStringLiteral("    ],\n") + closing);
        return kExitOk;
    }
    printOut(QStringLiteral("# %1 tokens, %2 bytes, %3 bytes/token\n")
                 .arg(count)
                 .arg(view.size())
                 .arg(bytesPerToken, 0, 'f', 3));
    return kExitOk;
}

// --- train-bpe ------------------------------------------------------------------------------------

// Removes the --out folders a failed train-bpe created (the folder and the parents mkpath made),
// with our own files in them: vocab.json/merges.txt and FileWriter's temporaries. A folder that
// existed before, or holds anything else, stays.
class OutDirGuard {
public:
    explicit OutDirGuard(const QString &dir) : dir_(QDir::cleanPath(QFileInfo(dir).absoluteFilePath()))
    {
        for (QString path = dir_; !QFileInfo::exists(path);) {
            created_.push_back(path);
            const QString parent = QFileInfo(path).path();
            if (parent == path)
                break;
            path = parent;
        }
    }
    OutDirGuard(const OutDirGuard &) = delete;
    OutDirGuard &operator=(const OutDirGuard &) = delete;
    ~OutDirGuard()
    {
        if (kept_ || created_.empty())
            return;
        QDir dir(dir_);
        for (const QString &name : dir.entryList(QDir::Files | QDir::Hidden | QDir::System))
            if (name == QLatin1String("vocab.json") || name == QLatin1String("merges.txt") ||
                name.startsWith(QLatin1String("vocab.json.")) || name.startsWith(QLatin1String("merges.txt.")))
                dir.remove(name);
        // Innermost first; rmdir refuses a folder that is not empty.
        for (const QString &path : created_)
            if (!QDir().rmdir(path))
                break;
    }
    void keep() { kept_ = true; }

private:
    QString dir_;
    std::vector<QString> created_;  // innermost first
    bool kept_ = false;
};

int runTrainBpe(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption input(QStringLiteral("input"), QStringLiteral("Training text file (repeatable; further "
                                                                          "positional arguments are inputs too)."),
                                   QStringLiteral("F"));
    const QCommandLineOption vocabSize(QStringLiteral("vocab-size"),
                                       QStringLiteral("Vocabulary size including special tokens and the 256 bytes."),
                                       QStringLiteral("N"));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Directory for vocab.json + merges.txt (created)."),
                                 QStringLiteral("DIR"));
    const QCommandLineOption threads(QStringLiteral("threads"),
                                     QStringLiteral("Threads for pre-tokenization (default: all cores)."),
                                     QStringLiteral("N"));
    if (const auto done = parseArguments(
            parser, QStringLiteral("train-bpe"),
            QStringLiteral("--input F... --vocab-size N [--special TOK]... --out DIR [--threads N]"),
            QStringLiteral("Train a byte-level BPE (CS336 semantics: special tokens first, then the 256 bytes, then "
                           "one token per merge; ties go to the lexicographically greater pair) and write GPT-2 "
                           "vocab.json + merges.txt. Progress goes to stderr, the summary to stdout."),
            {input, vocabSize, specialOption(), out, threads}, arguments))
        return *done;

    Problems problems;
    const std::vector<std::string> specials = specialsOf(parser, problems);
    const QStringList inputs = parser.values(input) + parser.positionalArguments();
    if (inputs.isEmpty())
        problems.push_back(problem("--input", "required", "--input F is required (one or more training files)."));
    checkReadableFiles(inputs, "--input", problems);
    std::optional<std::int64_t> size;
    if (!parser.isSet(vocabSize))
        problems.push_back(problem("--vocab-size", "required", "--vocab-size N is required."));
    else if ((size = countOption(parser, QStringLiteral("vocab-size"), 0, 1, problems)) &&
             *size <= 256 + static_cast<std::int64_t>(specials.size()))
        problems.push_back(problem("--vocab-size", "too_small",
                                   "--vocab-size " + std::to_string(*size) + " must exceed 256 bytes + " +
                                       std::to_string(specials.size()) + " special token(s) = " +
                                       std::to_string(256 + specials.size()) + " to leave room for merges."));
    const std::optional<std::int64_t> threadCount = countOption(parser, QStringLiteral("threads"), 0, 1, problems);
    if (threadCount && parser.isSet(threads))
        if (const std::optional<Problem> tooMany = threadsFlagProblem(parser.value(threads), *threadCount))
            problems.push_back(*tooMany);
    if (!parser.isSet(out))
        problems.push_back(problem("--out", "required", "--out DIR is required."));
    else if (QFileInfo(parser.value(out)).exists() && !QFileInfo(parser.value(out)).isDir())
        problems.push_back(problem("--out", "not_a_directory",
                                   parser.value(out).toStdString() + ": exists and is not a directory."));
    else {
        std::vector<InputFile> sources;
        for (const QString &f : inputs)
            sources.push_back({"--input", f});
        for (const QString &name : {QStringLiteral("vocab.json"), QStringLiteral("merges.txt")})
            if (std::optional<Problem> same = outputIsAnInput("--out", QDir(parser.value(out)).filePath(name), sources))
                problems.push_back(*same);
    }
    if (!problems.empty())
        return reportProblems(problems);
    const QString outDir = parser.value(out);
    // Created before training so that an unwritable --out fails at once, not after the merges;
    // the guard removes what this run created when it ends without writing both files.
    OutDirGuard outGuard(outDir);
    if (!QDir().mkpath(outDir))
        return reportProblems({problem("--out", "unwritable", outDir.toStdString() + ": cannot create the directory.")});
    // vocab.json and merges.txt belong together: a second run into the same folder would leave one
    // file of each run (common/folder_lock.h). Released before the guard cleans up.
    Result<FolderLock> outLock = FolderLock::acquire(QFile::encodeName(outDir).toStdString(), "--out",
                                                     "llm-explorer-cli train-bpe");
    if (!outLock)
        return reportProblems(outLock.problems());

    // Ctrl-C (or SIGTERM) during training cancels the pre-tokenizer (between pieces of a file) or
    // the merge loop so that the guard above can clean up; a second one ends the process at once, removing the temporaries (common/interrupt_cleanup.h),
    // e.g. while the pre-tokenizer, which cannot be cancelled, still runs. Installed before the first
    // progress line, so that a script that waits for it can interrupt.
    std::optional<InterruptRequest> interrupts;
    interrupts.emplace();
    // The sizes the files state, when every one states one: a /proc file states 0 bytes and holds
    // text, so its size is known only once read (the summary prints the bytes read).
    qint64 totalBytes = 0;
    bool sizesKnown = true;
    for (const QString &f : inputs) {
        totalBytes += QFileInfo(f).size();
        sizesKnown = sizesKnown && QFileInfo(f).size() > 0;
    }
    printError(QStringLiteral("train-bpe: pre-tokenizing %1 file(s)%2\n")
                   .arg(inputs.size())
                   .arg(sizesKnown ? QStringLiteral(", ") + formatBytes(double(totalBytes)) : QString()));

    BpeTrainOptions options;
    options.vocabSize = static_cast<std::size_t>(*size);
    options.specialTokens = specials;
    options.threads = static_cast<unsigned>(*threadCount);
    const bool tty = isatty(fileno(stderr)) != 0;
    Clock::time_point lastReport = Clock::now() - std::chrono::seconds(1);
    int lastPercent = -1;
    options.progress = [&](std::size_t done, std::size_t wanted) {
        const int percent = wanted == 0 ? 100 : static_cast<int>(100 * done / wanted);
        const bool last = done >= wanted;
        if (percent == lastPercent || (!last && Clock::now() - lastReport < std::chrono::milliseconds(tty ? 100 : 1000)))
            return;
        lastPercent = percent;
        lastReport = Clock::now();
        const QString line = QStringLiteral("train-bpe: merges %1% (%2/%3)").arg(percent, 3).arg(done).arg(wanted);
        printError(tty ? QStringLiteral("\r") + line + (last ? QStringLiteral("\n") : QString()) : line + QStringLiteral("\n"));
    };

    const Clock::time_point start = Clock::now();
    Result<BpeTrainResult> trained = Result<BpeTrainResult>::failure("training", "cancelled", "Interrupted.");
    options.cancel = InterruptRequest::flag();
    if (!InterruptRequest::requested())
        trained = trainBpeFiles(toStd(inputs), options);
    options.cancel = nullptr;
    const bool interrupted = InterruptRequest::requested();
    interrupts.reset();
    const double seconds = secondsSince(start);
    if (interrupted) {
        printError(QStringLiteral("\ntrain-bpe: interrupted; nothing written to %1\n").arg(outDir));
        return 128 + SIGINT;
    }
    if (!trained) {
        Problems named = trained.problems();
        for (const QString &f : inputs)
            named = namedAfterFlag(std::move(named), "--input", f);
        return reportProblems(named);
    }
    const Result<BpeTokenizer> tokenizer = BpeTokenizer::fromTraining(*trained);
    if (!tokenizer)
        return reportProblems(tokenizer.problems());
    const QString vocabPath = QDir(outDir).filePath(QStringLiteral("vocab.json"));
    const QString mergesPath = QDir(outDir).filePath(QStringLiteral("merges.txt"));
    const Result<bool> saved = tokenizer->saveGpt2(vocabPath.toStdString(), mergesPath.toStdString());
    if (!saved)
        return reportProblems(
            namedAfterFlag(namedAfterFlag(saved.problems(), "--out", vocabPath), "--out", mergesPath));
    outGuard.keep();

    const std::size_t merges = trained->merges.size();
    QString summary;
    summary += QStringLiteral("vocab size        %1 (%2 special, 256 bytes, %3 merges)\n")
                   .arg(trained->vocab.size())
                   .arg(trained->specialCount)
                   .arg(merges);
    if (merges + 256 + trained->specialCount < options.vocabSize)
        summary += QStringLiteral("note              the corpus ran out of pairs before --vocab-size %1\n").arg(options.vocabSize);
    // The bytes read, not the sizes the files state (a /proc file states 0 bytes).
    summary += QStringLiteral("input             %1 file(s), %2\n").arg(inputs.size()).arg(formatBytes(double(trained->inputBytes)));
    summary += QStringLiteral("pre-tokenize      %1\n").arg(formatSeconds(trained->pretokenizeSeconds));
    summary += QStringLiteral("merge loop        %1 (%2 per merge)\n")
                   .arg(formatSeconds(trained->mergeSeconds))
                   .arg(formatSeconds(merges == 0 ? 0.0 : trained->mergeSeconds / double(merges)));
    summary += QStringLiteral("total             %1\n").arg(formatSeconds(seconds));
    summary += QStringLiteral("wrote             %1\n                  %2\n").arg(vocabPath, mergesPath);
    printOut(summary);
    return kExitOk;
}

// --- prepare-data ---------------------------------------------------------------------------------

int runPrepareData(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption input(QStringLiteral("input"),
                                   QStringLiteral("Text file, one document (repeatable; further positional arguments "
                                                  "are inputs too)."),
                                   QStringLiteral("F"));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Output file of raw little-endian token ids."),
                                 QStringLiteral("FILE"));
    const QCommandLineOption dtype(QStringLiteral("dtype"), QStringLiteral("uint16 (default) or uint32."),
                                   QStringLiteral("uint16|uint32"), QStringLiteral("uint16"));
    const QCommandLineOption threads(QStringLiteral("threads"),
                                     QStringLiteral("Threads for encoding a file of 8 MB or more (default: all cores); "
                                                    "the ids are the same for any count."),
                                     QStringLiteral("N"));
    if (const auto done = parseArguments(
            parser, QStringLiteral("prepare-data"),
            QStringLiteral("--tokenizer DIR --input F... --out ids.bin [--dtype uint16|uint32] [--special TOK]... [--threads N]"),
            QStringLiteral("Stream text files through the tokenizer into a flat file of little-endian token ids "
                           "(the reference transformer's training data). Special tokens in the text are encoded as "
                           "one id; the first --special token is also put between the input files."),
            {tokenizerOption(), input, out, dtype, specialOption(), threads}, arguments))
        return *done;

    Problems problems;
    const std::vector<std::string> specials = specialsOf(parser, problems);
    const QStringList inputs = parser.values(input) + parser.positionalArguments();
    if (inputs.isEmpty())
        problems.push_back(problem("--input", "required", "--input F is required (one or more text files)."));
    checkReadableFiles(inputs, "--input", problems);
    if (!parser.isSet(out)) {
        problems.push_back(problem("--out", "required", "--out FILE is required."));
    } else {
        std::vector<InputFile> sources = tokenizerInputs(parser);
        for (const QString &f : inputs)
            sources.push_back({"--input", f});
        if (std::optional<Problem> same = outputIsAnInput("--out", parser.value(out), sources))
            problems.push_back(*same);
        else if (std::optional<Problem> target = outputFlagProblem("--out", parser.value(out)))
            problems.push_back(*target);
    }
    const QString type = parser.value(dtype);
    if (type != QLatin1String("uint16") && type != QLatin1String("uint32"))
        problems.push_back(problem("--dtype", "choice", "--dtype '" + type.toStdString() + "' must be uint16 or uint32."));
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    const std::optional<std::int64_t> threadCount = countOption(parser, QStringLiteral("threads"), hardware, 1, problems);
    if (threadCount && parser.isSet(threads))
        if (const std::optional<Problem> tooMany = threadsFlagProblem(parser.value(threads), *threadCount))
            problems.push_back(*tooMany);
    if (!problems.empty())
        return reportProblems(problems);

    const Clock::time_point start = Clock::now();
    std::optional<BpeTokenizer> tokenizer = loadTokenizer(parser, specials, problems);
    if (!tokenizer)
        return reportProblems(problems);
    const double loadSeconds = secondsSince(start);
    const bool wide = type == QLatin1String("uint32");
    if (!wide && tokenizer->vocabSize() > 65536)
        return reportProblems({problem("--dtype", "too_small",
                                       "--dtype uint16 holds ids up to 65,535, but the vocabulary of " +
                                           parser.value(QStringLiteral("tokenizer")).toStdString() + " has " +
                                           std::to_string(tokenizer->vocabSize()) +
                                           " tokens (more than 65,536); use --dtype uint32.")});

    ReplacingFile file(parser.value(out));
    if (!file.open())
        return reportProblems({writerProblem("--out", file)});
    std::vector<char, PrefaultedAllocator<char>> buffer;
    buffer.reserve(1 << 21);
    bool writeFailed = false;
    std::uint64_t tokens = 0;
    const auto flushBuffer = [&] {
        if (!buffer.empty() && !file.write(buffer.data(), static_cast<qint64>(buffer.size())))
            writeFailed = true;
        buffer.clear();
    };
    const BpeTokenizer::IdSink sink = [&](const std::uint32_t *ids, std::size_t count) {
        const std::size_t width = wide ? 4 : 2;
        const std::size_t old = buffer.size();
        buffer.resize(old + count * width);
        char *p = buffer.data() + old;
        if (wide) {
            for (std::size_t i = 0; i < count; ++i, p += 4)
                qToLittleEndian<quint32>(ids[i], p);
        } else {
            for (std::size_t i = 0; i < count; ++i, p += 2)
                qToLittleEndian<quint16>(static_cast<quint16>(ids[i]), p);
        }
        tokens += count;
        if (buffer.size() >= (1u << 20))
            flushBuffer();
    };
    std::uint32_t separator = 0;
    if (!specials.empty())
        separator = tokenizer->encode(specials.front(), specials).front();

    const Clock::time_point encodeStart = Clock::now();
    std::uint64_t bytesIn = 0;
    for (qsizetype i = 0; i < inputs.size(); ++i) {
        if (i > 0 && !specials.empty())
            sink(&separator, 1);
        const Result<FileEncoding> done =
            tokenizer->encodeFile(inputs[i].toStdString(), specials, sink, std::size_t(1) << 20, static_cast<unsigned>(*threadCount));
        if (!done) {
            file.cancel();
            return reportProblems(namedAfterFlag(done.problems(), "--input", inputs[i]));
        }
        // The bytes read, not the size the file states: /proc/cpuinfo states 0 and holds text.
        bytesIn += static_cast<std::uint64_t>(done->bytes);
        if (writeFailed)
            break;
    }
    flushBuffer();
    if (writeFailed || !file.commit()) {
        file.cancel();
        return reportProblems({writerProblem("--out", file)});
    }
    const double encodeSeconds = secondsSince(encodeStart);
    const double totalSeconds = secondsSince(start);
    const double mb = double(bytesIn) / 1e6;
    QString summary;
    summary += QStringLiteral("tokens written    %1 (%2, %3)\n").arg(tokens).arg(type, formatBytes(double(tokens * (wide ? 4 : 2))));
    summary += QStringLiteral("bytes in          %1 from %2 file(s), %3 bytes/token\n")
                   .arg(bytesIn)
                   .arg(inputs.size())
                   .arg(tokens == 0 ? 0.0 : double(bytesIn) / double(tokens), 0, 'f', 3);
    summary += QStringLiteral("load tokenizer    %1\n").arg(formatSeconds(loadSeconds));
    summary += QStringLiteral("encode            %1, %2 MB/s (up to %3 thread(s))\n")
                   .arg(formatSeconds(encodeSeconds))
                   .arg(encodeSeconds > 0 ? mb / encodeSeconds : 0.0, 0, 'f', 1)
                   .arg(*threadCount);
    summary += QStringLiteral("whole run         %1, %2 MB/s\n")
                   .arg(formatSeconds(totalSeconds))
                   .arg(totalSeconds > 0 ? mb / totalSeconds : 0.0, 0, 'f', 1);
    summary += QStringLiteral("wrote             %1\n").arg(parser.value(out));
    printOut(summary);
    return kExitOk;
}

// --- bench-tokenizer ------------------------------------------------------------------------------

namespace {

bool asciiNonSpace(char c)
{
    const auto b = static_cast<unsigned char>(c);
    return b > 0x20 && b < 0x7f;
}

// Cut points that split text into `parts` pieces whose encodings concatenate to the encoding of the
// whole: just before a '\n' that follows a printable ASCII character (a pre-token always ends there
// and the next one starts there), and never inside an occurrence of a special token.
std::vector<std::size_t> safeCuts(std::string_view text, std::size_t parts, const std::vector<std::string> &specials)
{
    std::vector<std::size_t> cuts{0};
    std::size_t maxSpecial = 0;
    for (const auto &s : specials)
        maxSpecial = std::max(maxSpecial, s.size());
    const auto insideSpecial = [&](std::size_t p) {
        const std::size_t from = p >= maxSpecial ? p - maxSpecial : 0;
        for (const auto &s : specials)
            for (std::size_t at = text.find(s, from); at != std::string_view::npos && at < p; at = text.find(s, at + 1))
                if (at + s.size() > p)
                    return true;
        return false;
    };
    for (std::size_t k = 1; k < parts; ++k) {
        std::size_t p = std::max(cuts.back() + 1, text.size() * k / parts);
        for (; p < text.size(); ++p)
            if (text[p] == '\n' && asciiNonSpace(text[p - 1]) && !insideSpecial(p))
                break;
        if (p >= text.size())
            break;
        cuts.push_back(p);
    }
    cuts.push_back(text.size());
    return cuts;
}

}  // namespace

int runBenchTokenizer(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption input(QStringLiteral("input"), QStringLiteral("Text file to encode (read into memory, at most 256 MiB)."),
                                   QStringLiteral("F"));
    const QCommandLineOption threads(QStringLiteral("threads"),
                                     QStringLiteral("Threads for the parallel run (default: all cores)."),
                                     QStringLiteral("N"));
    const QCommandLineOption repeat(QStringLiteral("repeat"), QStringLiteral("Runs of each kind; the best is reported (default 3)."),
                                    QStringLiteral("N"));
    if (const auto done = parseArguments(
            parser, QStringLiteral("bench-tokenizer"),
            QStringLiteral("--tokenizer DIR --input F [--threads N] [--repeat N] [--special TOK]..."),
            QStringLiteral("Measure encode throughput on one thread and on N threads (the input split at safe "
                           "boundaries, one tokenizer copy per thread, each run with a cold pre-token cache), "
                           "alternated round by round with N copies that each encode the whole input at once (what "
                           "this machine lets N threads do now, the control for the split's scaling); count the "
                           "pre-tokens each merged; run again with warm caches (each copy has encoded its text "
                           "once: a long prepare-data run's steady state), and check that the ids are the same."),
            {tokenizerOption(), input, threads, repeat, specialOption()}, arguments))
        return *done;

    Problems problems;
    const std::vector<std::string> specials = specialsOf(parser, problems);
    if (!parser.isSet(input))
        problems.push_back(problem("--input", "required", "--input F is required."));
    else
        checkReadableFiles({parser.value(input)}, "--input", problems, FileKind::Text);
    if (!parser.positionalArguments().isEmpty())
        problems.push_back(problem("arguments", "unexpected",
                                   "unexpected argument '" + parser.positionalArguments().front().toStdString() + "'."));
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    const std::optional<std::int64_t> threadCount = countOption(parser, QStringLiteral("threads"), hardware, 1, problems);
    if (threadCount && parser.isSet(threads))
        if (const std::optional<Problem> tooMany = threadsFlagProblem(parser.value(threads), *threadCount))
            problems.push_back(*tooMany);
    const std::optional<std::int64_t> repeats = countOption(parser, QStringLiteral("repeat"), 3, 1, problems);
    if (!problems.empty())
        return reportProblems(problems);
    const Clock::time_point loadStart = Clock::now();
    std::optional<BpeTokenizer> tokenizer = loadTokenizer(parser, specials, problems);
    if (!tokenizer)
        return reportProblems(problems);
    const double loadSeconds = secondsSince(loadStart);

    const std::optional<QByteArray> data = readTextInput(parser.value(input), "--input", problems);
    if (!data)
        return reportProblems(problems);
    const std::string_view text(data->constData(), static_cast<std::size_t>(data->size()));
    const double mb = double(text.size()) / 1e6;
    // The ids are held: the one-thread run's and the split run's (compared), and those of each of
    // the N independent copies: at most one 4-byte id per input byte each (a token is at least one
    // byte), beside the text. Checked against what this process may still use (ulimit -v, the
    // cgroup limit, physical memory) before anything is encoded.
    const MemoryAvailable memory = memoryAvailableToThisProcess();
    const double runsHeld = 2.0 + double(*threadCount);
    const double neededBytes = runsHeld * 4.0 * (double(text.size()) + 16.0 * double(*threadCount));
    if (memory.limit != MemoryLimitKind::Unknown && neededBytes > memory.bytes)
        return reportProblems({problem("--input", "memory",
                                       "--input " + parser.value(input).toStdString() + ": the ids of the runs may need up to " +
                                           formatMemoryBytes(neededBytes) + " (4 bytes per input byte, " +
                                           std::to_string(static_cast<int>(runsHeld)) + " times) but " + memory.what +
                                           "; give a smaller sample or fewer --threads.")});

    // Output vectors are sized and touched before the clock starts and reused across repeats (as
    // prepare-data reuses its id batch): the measure is encoding, not the page faults of a fresh
    // 12 MB result array. Each repeat starts from a fresh tokenizer copy, so a cold cache.
    const auto warmOutput = [](std::vector<std::uint32_t> &ids, std::size_t bytes) {
        ids.assign(bytes / 2 + 16, 0);
        ids.clear();
    };
    std::vector<std::uint32_t> single;
    warmOutput(single, text.size());
    const std::vector<std::size_t> cuts = safeCuts(text, static_cast<std::size_t>(*threadCount), specials);
    const std::size_t parts = cuts.size() - 1;
    std::vector<std::vector<std::uint32_t>> pieces(parts);
    for (std::size_t i = 0; i < parts; ++i)
        warmOutput(pieces[i], cuts[i + 1] - cuts[i]);
    // The control: N copies on N threads that each encode the whole input. Nothing is split, so no
    // pre-token is merged twice for the split's sake: their throughput over one thread's is what
    // this machine lets N threads do with this work at the time (cores that share caches or a
    // busy host give less than N x), against which the split's scaling is read.
    std::vector<std::vector<std::uint32_t>> independentOut(static_cast<std::size_t>(*threadCount));
    for (auto &ids : independentOut)
        warmOutput(ids, text.size());
    double bestIndependent = 1e300;
    // The three kinds of run alternate round by round, so that a busy spell on this shared
    // machine slows each kind rather than only the ones that happened to fall in it.
    double bestSingle = 1e300, bestParallel = 1e300;
    std::size_t mergedSingle = 0, mergedParallel = 0;
    for (std::int64_t r = 0; r < *repeats; ++r) {
        BpeTokenizer copy = *tokenizer;
        single.clear();
        Clock::time_point t0 = Clock::now();
        copy.encodeInto(text, specials, single);
        bestSingle = std::min(bestSingle, secondsSince(t0));
        mergedSingle = copy.piecesMerged();

        std::vector<BpeTokenizer> copies(parts, *tokenizer);
        for (auto &p : pieces)
            p.clear();
        t0 = Clock::now();
        std::vector<std::thread> workers;
        for (std::size_t i = 0; i < parts; ++i)
            workers.emplace_back([&, i] {
                copies[i].encodeInto(text.substr(cuts[i], cuts[i + 1] - cuts[i]), specials, pieces[i]);
            });
        for (auto &w : workers)
            w.join();
        bestParallel = std::min(bestParallel, secondsSince(t0));
        mergedParallel = 0;
        for (const BpeTokenizer &c : copies)
            mergedParallel += c.piecesMerged();

        std::vector<BpeTokenizer> independent(independentOut.size(), *tokenizer);
        for (auto &ids : independentOut)
            ids.clear();
        t0 = Clock::now();
        workers.clear();
        for (std::size_t i = 0; i < independent.size(); ++i)
            workers.emplace_back([&, i] { independent[i].encodeInto(text, specials, independentOut[i]); });
        for (auto &w : workers)
            w.join();
        bestIndependent = std::min(bestIndependent, secondsSince(t0));
    }
    // Warm: the same runs with copies that have encoded their text once (untimed), so the pre-token
    // caches hold every pre-token: what the threads do once a long run's caches have filled.
    double bestSingleWarm = 1e300, bestParallelWarm = 1e300;
    {
        BpeTokenizer warm = *tokenizer;
        std::vector<std::uint32_t> scratch;
        warmOutput(scratch, text.size());
        warm.encodeInto(text, specials, scratch);
        std::vector<BpeTokenizer> copies(parts, *tokenizer);
        std::vector<std::vector<std::uint32_t>> warmPieces(parts);
        for (std::size_t i = 0; i < parts; ++i) {
            warmOutput(warmPieces[i], cuts[i + 1] - cuts[i]);
            copies[i].encodeInto(text.substr(cuts[i], cuts[i + 1] - cuts[i]), specials, warmPieces[i]);
        }
        for (std::int64_t r = 0; r < *repeats; ++r) {
            scratch.clear();
            Clock::time_point t0 = Clock::now();
            warm.encodeInto(text, specials, scratch);
            bestSingleWarm = std::min(bestSingleWarm, secondsSince(t0));
            for (auto &p : warmPieces)
                p.clear();
            t0 = Clock::now();
            std::vector<std::thread> workers;
            for (std::size_t i = 0; i < parts; ++i)
                workers.emplace_back([&, i] {
                    copies[i].encodeInto(text.substr(cuts[i], cuts[i + 1] - cuts[i]), specials, warmPieces[i]);
                });
            for (auto &w : workers)
                w.join();
            bestParallelWarm = std::min(bestParallelWarm, secondsSince(t0));
        }
    }
    // Compared piece by piece, not joined into a third copy of the ids.
    bool identical = true;
    std::size_t at = 0;
    for (const auto &p : pieces) {
        identical = identical && at + p.size() <= single.size() && std::equal(p.begin(), p.end(), single.begin() + std::ptrdiff_t(at));
        at += p.size();
    }
    identical = identical && at == single.size();

    const double singleRate = bestSingle > 0 ? mb / bestSingle : 0;
    const double parallelRate = bestParallel > 0 ? mb / bestParallel : 0;
    QString report;
    report += QStringLiteral("input             %1 (%2), %3 tokens, %4 bytes/token\n")
                  .arg(parser.value(input), formatBytes(double(text.size())))
                  .arg(single.size())
                  .arg(single.empty() ? 0.0 : double(text.size()) / double(single.size()), 0, 'f', 3);
    report += QStringLiteral("tokenizer         %1 (%2 tokens), loaded in %3\n")
                  .arg(parser.value(QStringLiteral("tokenizer")))
                  .arg(tokenizer->vocabSize())
                  .arg(formatSeconds(loadSeconds));
    report += QStringLiteral("1 thread          %1 MB/s (best of %2: %3)\n")
                  .arg(singleRate, 0, 'f', 1)
                  .arg(*repeats)
                  .arg(formatSeconds(bestSingle));
    report += QStringLiteral("%1 thread(s)%2%3 MB/s (best of %4: %5; %6 piece(s))\n")
                  .arg(*threadCount)
                  .arg(QString(std::max<qsizetype>(1, 7 - QString::number(*threadCount).size()), QLatin1Char(' ')))
                  .arg(parallelRate, 0, 'f', 1)
                  .arg(*repeats)
                  .arg(formatSeconds(bestParallel))
                  .arg(parts);
    report += QStringLiteral("scaling           %1x\n").arg(singleRate > 0 ? parallelRate / singleRate : 0.0, 0, 'f', 2);
    const double independentRate = bestIndependent > 0 ? double(*threadCount) * mb / bestIndependent : 0;
    report += QStringLiteral("independent       %1x one thread's rate: %2 copies encoding the whole input at once, what this "
                             "machine allows %2 thread(s) now\n")
                  .arg(singleRate > 0 ? independentRate / singleRate : 0.0, 0, 'f', 2)
                  .arg(*threadCount);
    // What a cold cache costs and why N threads do not reach N x: each copy merges the pre-tokens it
    // has not seen, so words common to several parts are merged once per part.
    report += QStringLiteral("merged (cold)     %1 pre-token(s) or part(s) on 1 thread, %2 on %3 (%4%5%)\n")
                  .arg(mergedSingle)
                  .arg(mergedParallel)
                  .arg(*threadCount)
                  .arg(mergedParallel >= mergedSingle ? QStringLiteral("+") : QString())
                  .arg(mergedSingle > 0 ? 100.0 * (double(mergedParallel) - double(mergedSingle)) / double(mergedSingle) : 0.0, 0, 'f', 0);
    const double singleWarmRate = bestSingleWarm > 0 ? mb / bestSingleWarm : 0;
    const double parallelWarmRate = bestParallelWarm > 0 ? mb / bestParallelWarm : 0;
    report += QStringLiteral("warm caches       %1 MB/s on 1 thread, %2 MB/s on %3\n")
                  .arg(singleWarmRate, 0, 'f', 1)
                  .arg(parallelWarmRate, 0, 'f', 1)
                  .arg(*threadCount);
    report += QStringLiteral("scaling (warm)    %1x\n").arg(singleWarmRate > 0 ? parallelWarmRate / singleWarmRate : 0.0, 0, 'f', 2);
    report += QStringLiteral("ids identical     %1\n").arg(identical ? QStringLiteral("yes") : QStringLiteral("NO"));
    printOut(report);
    return identical ? kExitOk : kExitFailure;
}

}  // namespace lse::cli
