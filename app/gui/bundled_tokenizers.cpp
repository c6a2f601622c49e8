// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundled_tokenizers.h"

#include "output/output_file.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

namespace lse::gui {

namespace {

// The cached copy is trusted only when it equals the resource: a truncated or edited file from an
// earlier run is replaced rather than loaded.
bool sameBytes(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.size() == bytes.size() && file.open(QIODevice::ReadOnly) && file.readAll() == bytes;
}

}  // namespace

QString bundledGpt2ResourceDir() { return QStringLiteral(":/tokenizers/gpt2"); }

QString bundledGpt2Dir(const QString &cacheRoot, QString *error)
{
    const QString root = cacheRoot.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::CacheLocation) : cacheRoot;
    const QString dir = root + QStringLiteral("/tokenizers/gpt2");
    auto fail = [&](const QString &why) {
        if (error)
            *error = why;
        return QString();
    };
    if (root.isEmpty() || !QDir().mkpath(dir))
        return fail(QStringLiteral("cannot create the folder %1").arg(dir));
    for (const QString &name : {QStringLiteral("vocab.json"), QStringLiteral("merges.txt")}) {
        QFile resource(bundledGpt2ResourceDir() + QLatin1Char('/') + name);
        if (!resource.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("the application has no bundled %1").arg(resource.fileName()));
        const QByteArray bytes = resource.readAll();
        const QString target = dir + QLatin1Char('/') + name;
        if (sameBytes(target, bytes))
            continue;
        // The one writer: a crash mid-write never leaves a half file under the final name, and a
        // full disk is noticed (QSaveFile on Qt 6.4 could commit a short file). The copy is this
        // program's own cache, rewritten when it differs from the resource.
        QString why;
        if (!writeOutputFile(target, bytes, &why, InputReplacement::AllowedForOwnFile))
            return fail(why);
    }
    return dir;
}

}  // namespace lse::gui
