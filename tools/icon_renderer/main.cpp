// SPDX-License-Identifier: GPL-3.0-or-later
// lse-icon-renderer: renders the app's SVG icon to the PNG sizes of the hicolor icon theme, so the
// PNGs are built from the one hand-written SVG and cannot drift from it (no rsvg needed).
//
// Usage: lse-icon-renderer ICON.svg OUTPUT_DIR NAME SIZE...
// writes OUTPUT_DIR/<SIZE>x<SIZE>/apps/NAME.png for every SIZE.

#include <QCoreApplication>
#include <QDir>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

namespace {

int fail(const QString &message)
{
    std::fprintf(stderr, "lse-icon-renderer: %s\n", message.toUtf8().constData());
    return 2;
}

}  // namespace

int main(int argc, char *argv[])
{
    // QPainter on a QImage needs no platform plugin (the icon has no text, so no fonts): a core
    // application is enough, and builds without a display work.
    QCoreApplication app(argc, argv);
    const QStringList arguments = QCoreApplication::arguments();
    if (arguments.size() < 5)
        return fail(QStringLiteral("usage: lse-icon-renderer ICON.svg OUTPUT_DIR NAME SIZE..."));

    QSvgRenderer renderer(arguments[1]);
    if (!renderer.isValid())
        return fail(QStringLiteral("ICON.svg '%1' is not a readable SVG").arg(arguments[1]));
    const QString output_dir = arguments[2];
    const QString name = arguments[3];
    for (qsizetype i = 4; i < arguments.size(); ++i) {
        bool ok = false;
        const int size_px = arguments[i].toInt(&ok);
        if (!ok || size_px < 1 || size_px > 4096)
            return fail(QStringLiteral("SIZE '%1' must be a whole number of pixels from 1 to 4096").arg(arguments[i]));
        QImage image(size_px, size_px, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        renderer.render(&painter, QRectF(0, 0, size_px, size_px));
        painter.end();
        const QString dir = QStringLiteral("%1/%2x%2/apps").arg(output_dir).arg(size_px);
        const QString path = dir + QLatin1Char('/') + name + QStringLiteral(".png");
        if (!QDir().mkpath(dir) || !image.save(path, "PNG"))
            return fail(QStringLiteral("cannot write %1").arg(path));
    }
    return 0;
}
