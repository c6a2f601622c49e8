// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/tokenizer/tokenizer_merge_files.h"

#include "common/file_bytes.h"
#include "tokenizer/byte_unicode.h"
#include "tokenizer/rank_merges.h"
#include "tokenizer/tokenizer_formats.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace lse::gui {

// merges.txt in the GPT-2 alphabet → byte-string pairs (for tooltips; the tokenizer loads its own).
std::vector<std::pair<std::string, std::string>> readMerges(const QString &path)
{
    std::vector<std::pair<std::string, std::string>> merges;
    if (regularFileProblem(path.toStdString(), FileKind::Tokenizer))
        return merges;  // a device or FIFO would be read line by line forever
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return merges;
    bool first = true;
    while (!file.atEnd()) {
        QByteArray line = file.readLine();
        while (line.endsWith('\n') || line.endsWith('\r'))
            line.chop(1);
        if (first && line.startsWith("#version")) {
            first = false;
            continue;
        }
        first = false;
        const qsizetype space = line.indexOf(' ');
        if (space <= 0)
            continue;
        const auto left = alphabetToBytes(std::string_view(line.constData(), static_cast<std::size_t>(space)));
        const auto right = alphabetToBytes(std::string_view(line.constData() + space + 1,
                                                            static_cast<std::size_t>(line.size() - space - 1)));
        if (left && right)
            merges.emplace_back(*left, *right);
    }
    return merges;
}

// model.merges of a Hugging Face tokenizer.json ("a b" strings or ["a", "b"] pairs) as byte pairs.
std::vector<std::pair<std::string, std::string>> readJsonMerges(const QString &path)
{
    std::vector<std::pair<std::string, std::string>> merges;
    const Result<QByteArray> bytes = readFileBytes(path.toStdString(), FileKind::Tokenizer);
    if (!bytes)
        return merges;
    const QJsonArray list = QJsonDocument::fromJson(*bytes).object().value(QLatin1String("model")).toObject()
                                .value(QLatin1String("merges")).toArray();
    merges.reserve(static_cast<std::size_t>(list.size()));
    for (const QJsonValue &entry : list) {
        std::string left, right;
        if (entry.isArray()) {
            left = entry.toArray().at(0).toString().toStdString();
            right = entry.toArray().at(1).toString().toStdString();
        } else {
            const std::string both = entry.toString().toStdString();
            const std::size_t space = both.find(' ');
            if (space == std::string::npos)
                return {};
            left = both.substr(0, space);
            right = both.substr(space + 1);
        }
        const auto l = alphabetToBytes(left);
        const auto r = alphabetToBytes(right);
        if (!l || !r)
            return {};
        merges.emplace_back(*l, *r);
    }
    return merges;
}

// GPT-2 files under other names in a folder (the course's gpt2_vocab.json + gpt2_merges.txt), which
// loadTokenizer() does not look for.
std::optional<std::pair<QString, QString>> gpt2FilesIn(const QString &folder)
{
    const QDir dir(folder);
    if (dir.exists(QStringLiteral("gpt2_vocab.json")) && dir.exists(QStringLiteral("gpt2_merges.txt")))
        return std::pair{dir.filePath(QStringLiteral("gpt2_vocab.json")), dir.filePath(QStringLiteral("gpt2_merges.txt"))};
    const QStringList vocabs = dir.entryList({QStringLiteral("*vocab.json")}, QDir::Files, QDir::Name);
    const QStringList merges = dir.entryList({QStringLiteral("*merges.txt")}, QDir::Files, QDir::Name);
    if (vocabs.size() == 1 && merges.size() == 1)
        return std::pair{dir.filePath(vocabs.front()), dir.filePath(merges.front())};
    return std::nullopt;
}

// The merges behind a loaded tokenizer, for the "formed by merge k" tooltip. The tokenizer keeps
// them as ids only, so they are read again from whichever file loadTokenizer() used; a list whose
// length differs from the tokenizer's merge count came from another file and is not used.
std::vector<std::pair<std::string, std::string>> tooltipMerges(const QString &path, const BpeTokenizer &tokenizer)
{
    const QFileInfo info(path);
    const QDir dir = info.isDir() ? QDir(path) : info.dir();
    std::vector<QString> json, gpt2, ranks;
    if (info.isDir()) {
        json.push_back(dir.filePath(QStringLiteral("tokenizer.json")));
        gpt2.push_back(dir.filePath(QStringLiteral("merges.txt")));
        for (const QString &name : dir.entryList({QStringLiteral("*.tiktoken")}, QDir::Files, QDir::Name))
            ranks.push_back(dir.filePath(name));
    } else if (info.fileName() == QLatin1String("vocab.json") || info.fileName() == QLatin1String("merges.txt")) {
        gpt2.push_back(dir.filePath(QStringLiteral("merges.txt")));
    } else if (info.fileName().endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
        json.push_back(path);
    } else {
        ranks.push_back(path);
    }
    const std::size_t wanted = tokenizer.mergeCount();
    for (const QString &file : json)
        if (QFileInfo::exists(file))
            if (auto merges = readJsonMerges(file); merges.size() == wanted)
                return merges;
    for (const QString &file : gpt2)
        if (QFileInfo::exists(file))
            if (auto merges = readMerges(file); merges.size() == wanted)
                return merges;
    if (!ranks.empty()) {
        // tiktoken ids are ranks, with the special tokens appended after them.
        std::vector<std::string> tokens;
        const std::size_t count = tokenizer.vocabSize() - std::min(tokenizer.vocabSize(), tokenizer.specialTokens().size());
        tokens.reserve(count);
        for (std::size_t id = 0; id < count; ++id)
            tokens.emplace_back(tokenizer.tokenBytes(static_cast<std::uint32_t>(id)));
        if (auto merges = mergesFromRanks(tokens); merges.size() == wanted)
            return merges;
    }
    return {};
}

}  // namespace lse::gui
