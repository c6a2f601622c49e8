// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/operator_text.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace lse::gui {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("lse::gui", text); }

}  // namespace

QString operatorShapeText(const std::string &shape)
{
    // The words core/roofline/step_operators.cpp and roofline.cpp put into shapes.
    static const QRegularExpression words(QStringLiteral("\\b(elements|parameters|tiles|scores)\\b"));
    const QString text = QString::fromStdString(shape);
    QString out;
    qsizetype from = 0;
    for (auto it = words.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        out += text.mid(from, match.capturedStart() - from);
        const QString word = match.captured(1);
        out += word == QLatin1String("elements")     ? tr("elements")
               : word == QLatin1String("parameters") ? tr("parameters")
               : word == QLatin1String("tiles")      ? tr("tiles")
                                                     : tr("scores");
        from = match.capturedEnd();
    }
    return out + text.mid(from);
}

QString operatorPassText(const std::string &pass)
{
    if (pass == "forward")
        return tr("forward");
    if (pass == "backward")
        return tr("backward");
    if (pass == "recompute")
        return tr("recompute");
    if (pass == "optimizer")
        return tr("optimizer");
    return QString::fromStdString(pass);
}

}  // namespace lse::gui
