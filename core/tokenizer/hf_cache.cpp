// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenizer/hf_cache.h"

#include "common/file_bytes.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <tuple>

namespace lse {
namespace {

QString env(const char *name) { return qEnvironmentVariable(name); }

// A regular file, following links (a dangling link does not count).
bool isFile(const QDir &dir, const QString &name)
{
    const QFileInfo info(dir.filePath(name));
    return info.exists() && info.isFile();
}

}  // namespace

std::string hfHubCacheDir()
{
    QString hub = env("HF_HUB_CACHE");
    if (hub.isEmpty())
        hub = env("HUGGINGFACE_HUB_CACHE");  // older name
    if (hub.isEmpty()) {
        QString home = env("HF_HOME");
        if (home.isEmpty()) {
            const QString xdg = env("XDG_CACHE_HOME");
            home = (xdg.isEmpty() ? QDir::homePath() + "/.cache" : xdg) + "/huggingface";
        }
        hub = home + "/hub";
    }
    return QDir::cleanPath(hub).toStdString();
}

std::vector<HfCachedTokenizer> discoverHfTokenizers(const std::string &hubDir)
{
    std::vector<HfCachedTokenizer> out;
    const QDir hub(QString::fromStdString(hubDir.empty() ? hfHubCacheDir() : hubDir));
    if (!hub.exists())
        return out;
    for (const QString &repo : hub.entryList({"models--*"}, QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QString id = repo.mid(static_cast<qsizetype>(sizeof("models--") - 1));
        if (id.isEmpty())
            continue;
        const qsizetype sep = id.indexOf("--");
        const QString name = sep < 0 ? id : id.left(sep) + "/" + id.mid(sep + 2);
        const QDir repoDir(hub.filePath(repo));
        // The cache's pointer to the main revision: a small regular file; anything else there (a
        // FIFO would block QFile's open, a device never ends) is ignored like a missing one.
        QString mainRevision;
        if (const Result<QByteArray> ref = readFileBytes(QFile::encodeName(repoDir.filePath("refs/main")).toStdString(), FileKind::Config))
            mainRevision = QString::fromUtf8(*ref).trimmed();
        const QDir snapshots(repoDir.filePath("snapshots"));
        for (const QString &rev : snapshots.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            const QDir snap(snapshots.filePath(rev));
            QString format;
            if (isFile(snap, "tokenizer.json"))
                format = "tokenizer.json";
            else if (isFile(snap, "vocab.json") && isFile(snap, "merges.txt"))
                format = "vocab.json+merges.txt";
            else {
                const QStringList tk = snap.entryList({"*.tiktoken"}, QDir::Files, QDir::Name);
                if (tk.size() == 1)
                    format = "tiktoken";
            }
            if (format.isEmpty())
                continue;
            out.push_back({name.toStdString(), rev.toStdString(), QDir::cleanPath(snap.absolutePath()).toStdString(),
                           format.toStdString(), !mainRevision.isEmpty() && rev == mainRevision});
        }
    }
    std::sort(out.begin(), out.end(), [](const HfCachedTokenizer &a, const HfCachedTokenizer &b) {
        return std::make_tuple(a.name, !a.isMain, a.revision) < std::make_tuple(b.name, !b.isMain, b.revision);
    });
    return out;
}

}  // namespace lse
