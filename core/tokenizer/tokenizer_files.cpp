// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenizer/tokenizer_files.h"

#include <QDir>
#include <QFileInfo>
#include <QStringList>

namespace lse {
namespace {

const QString kVocab = QStringLiteral("vocab.json");
const QString kMerges = QStringLiteral("merges.txt");

Result<Gpt2TokenizerFiles> failure(const std::string &path, const std::string &rule, const std::string &what)
{
    return Result<Gpt2TokenizerFiles>::failure(path, rule, path + ": " + what);
}

Result<Gpt2TokenizerFiles> pairNextTo(const QFileInfo &file, const QString &ownSuffix, const QString &otherSuffix,
                                      bool vocabFirst)
{
    const QString name = file.fileName();
    const QString prefix = name.left(name.size() - ownSuffix.size());
    const QFileInfo other(file.dir().filePath(prefix + otherSuffix));
    if (!other.isFile())
        return failure(file.filePath().toStdString(), "missing_partner",
                       "expected " + other.filePath().toStdString() + " next to it (GPT-2 vocab.json + merges.txt).");
    const std::string a = file.filePath().toStdString(), b = other.filePath().toStdString();
    return vocabFirst ? Gpt2TokenizerFiles{a, b} : Gpt2TokenizerFiles{b, a};
}

}  // namespace

Result<Gpt2TokenizerFiles> locateGpt2TokenizerFiles(const std::string &path)
{
    const QFileInfo info(QString::fromStdString(path));
    if (!info.exists())
        return failure(path, "missing", "no such file or directory.");
    if (info.isFile()) {
        const QString name = info.fileName();
        if (name.endsWith(kVocab))
            return pairNextTo(info, kVocab, kMerges, true);
        if (name.endsWith(kMerges))
            return pairNextTo(info, kMerges, kVocab, false);
        return failure(path, "unsupported_format",
                       "not a GPT-2 tokenizer file (expected a directory with vocab.json + merges.txt, or a file "
                       "named *vocab.json or *merges.txt).");
    }
    const QDir dir(info.filePath());
    if (QFileInfo(dir.filePath(kVocab)).isFile() && QFileInfo(dir.filePath(kMerges)).isFile())
        return Gpt2TokenizerFiles{dir.filePath(kVocab).toStdString(), dir.filePath(kMerges).toStdString()};
    QStringList pairs;
    for (const QString &vocab : dir.entryList({QStringLiteral("*") + kVocab}, QDir::Files, QDir::Name)) {
        const QString prefix = vocab.left(vocab.size() - kVocab.size());
        if (QFileInfo(dir.filePath(prefix + kMerges)).isFile())
            pairs << prefix;
    }
    if (pairs.size() == 1)
        return Gpt2TokenizerFiles{dir.filePath(pairs[0] + kVocab).toStdString(),
                                  dir.filePath(pairs[0] + kMerges).toStdString()};
    if (pairs.isEmpty())
        return failure(path, "missing_files", "the directory holds no vocab.json + merges.txt pair.");
    return failure(path, "ambiguous",
                   "the directory holds several vocab.json + merges.txt pairs (prefixes: " +
                       pairs.join(QStringLiteral(", ")).toStdString() + "); name one of the files instead.");
}

Result<BpeTokenizer> loadGpt2TokenizerFrom(const std::string &path, const std::vector<std::string> &specialTokens)
{
    const Result<Gpt2TokenizerFiles> files = locateGpt2TokenizerFiles(path);
    if (!files)
        return files.problems();
    return BpeTokenizer::loadGpt2(files->vocabPath, files->mergesPath, specialTokens);
}

}  // namespace lse
