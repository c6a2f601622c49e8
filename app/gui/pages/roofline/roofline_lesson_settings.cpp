// SPDX-License-Identifier: GPL-3.0-or-later
// The roofline page's lesson settings: which machines are drawn, the precision, the phase, the
// kernel switches and the batch (docs/lesson-pages.md, "roofline"). Kept apart from
// roofline_page.cpp, which is long enough.
#include "pages/roofline/roofline_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QJsonArray>
#include <QSlider>

namespace lse::gui {

void RooflinePage::bindLessonControls()
{
    intro_->setObjectName(QStringLiteral("roofline-intro"));
    // Item order of precision_box_ / phase_box_ as retranslateUi fills them.
    lesson_controls_.addChoice(QStringLiteral("precision"), precision_box_,
                               {QStringLiteral("scenario"), QStringLiteral("fp32"), QStringLiteral("tf32"),
                                QStringLiteral("bf16"), QStringLiteral("fp16"), QStringLiteral("fp8")});
    lesson_controls_.addChoice(QStringLiteral("phase"), phase_box_,
                               {QStringLiteral("train"), QStringLiteral("prefill"), QStringLiteral("decode")});
    lesson_controls_.addFlag(QStringLiteral("flash_attention"), flash_check_);
    lesson_controls_.addFlag(QStringLiteral("fused_elementwise"), fused_check_);
    // The slider moves in powers of two (2^0 … 2^10 sequences); a lesson names the batch itself.
    lesson_controls_.add(
        {QStringLiteral("batch"), [this] { return QJsonValue(qint64(sliderBatch())); },
         [this](const QJsonValue &value) {
             const double batch = value.toDouble();
             const qint64 largest = qint64(1) << batch_slider_->maximum();
             const bool power_of_two = batch >= 1 && batch <= double(largest) && qint64(batch) == batch
                                       && (qint64(batch) & (qint64(batch) - 1)) == 0;
             if (!value.isDouble() || !power_of_two)
                 return tr("expected a power of two from 1 to %1").arg(largest);
             return QString();
         },
         [this](const QJsonValue &value) {
             int exponent = 0;
             while ((qint64(1) << exponent) < qint64(value.toDouble()))
                 ++exponent;
             batch_slider_->setValue(exponent);
         }});
    // The machines drawn on the accelerator chart: catalog ids and "this-cpu".
    lesson_controls_.add(
        {QStringLiteral("machines"),
         [this] {
             QJsonArray shown;
             for (auto it = machine_checks_.cbegin(); it != machine_checks_.cend(); ++it)
                 if (it.value()->isChecked())
                     shown.append(it.key());
             return QJsonValue(shown);
         },
         [this](const QJsonValue &value) {
             const QString rule = tr("expected an array of %1").arg(machine_checks_.keys().join(QLatin1Char('|')));
             if (!value.isArray())
                 return rule;
             for (const QJsonValue &id : value.toArray())
                 if (!id.isString() || !machine_checks_.contains(id.toString()))
                     return rule;
             return QString();
         },
         [this](const QJsonValue &value) {
             QStringList shown;
             for (const QJsonValue &id : value.toArray())
                 shown << id.toString();
             for (auto it = machine_checks_.cbegin(); it != machine_checks_.cend(); ++it)
                 it.value()->setChecked(shown.contains(it.key()));
         }});
}

QJsonObject RooflinePage::lessonSettings() const { return lesson_controls_.settings(); }

bool RooflinePage::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    return lesson_controls_.apply(settings, error);
}

}  // namespace lse::gui
