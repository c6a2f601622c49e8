// SPDX-License-Identifier: GPL-3.0-or-later
#include "output/output_file.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFile>

namespace lse::gui {

namespace {

std::string nativePath(const QString &path) { return QFile::encodeName(path).toStdString(); }

}  // namespace

bool writeOutputFile(const QString &path, const QByteArray &bytes, QString *error, InputReplacement replacement)
{
    const Result<bool> written =
        writeFileReplacing(nativePath(path), std::string_view(bytes.constData(), std::size_t(bytes.size())), replacement);
    if (written)
        return true;
    if (error)
        *error = QString::fromStdString(written.problems().front().message);
    return false;
}

QByteArray encodeImage(const QImage &image, const char *format)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    if (image.isNull() || !buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, format))
        return {};
    return bytes;
}

bool writeImageFile(const QString &path, const QImage &image, QString *error, const char *format)
{
    const QByteArray bytes = encodeImage(image, format);
    if (bytes.isEmpty()) {
        if (error)
            *error = QCoreApplication::translate("lse::gui::OutputFile", "Could not encode the image for %1.")
                         .arg(QDir::toNativeSeparators(path));
        return false;
    }
    return writeOutputFile(path, bytes, error);
}

QString outputPathProblemText(const QString &path)
{
    const std::optional<Problem> problem = outputPathProblem(nativePath(path));
    return problem ? QString::fromStdString(problem->message) : QString();
}

}  // namespace lse::gui
