// SPDX-License-Identifier: GPL-3.0-or-later
// The page count of a PDF the app wrote, for the handout tests.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QRegularExpression>
#include <QString>

namespace lse::test {

// Page objects of a PDF: "/Type /Page" but not "/Type /Pages" (the page tree).
inline int pdfPageCount(const QByteArray &pdf)
{
    static const QRegularExpression page(QStringLiteral("/Type\\s*/Page(?![s])"));
    return int(QString::fromLatin1(pdf).count(page));
}

// The page count of the PDF at `path`; -1 when it cannot be read.
inline int pdfFilePageCount(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? pdfPageCount(file.readAll()) : -1;
}

}  // namespace lse::test
