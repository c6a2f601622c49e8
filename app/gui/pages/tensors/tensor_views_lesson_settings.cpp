// SPDX-License-Identifier: GPL-3.0-or-later
// The tensor views tab's lesson settings: the starting tensor, the operations applied to it and the
// step shown (docs/lesson-pages.md, "tensors/views"). Every value is checked before anything
// changes, then applied as a user would: setStart, addOp per operation, selectStep.
#include "pages/tensors/tensor_views_section.h"
#include "pages/lesson_controls.h"
#include "pages/lesson_settings_reader.h"
#include "tensors/tensor_op.h"

#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

#include <cmath>

namespace lse::gui {

namespace {

const QStringList kKeys = {QStringLiteral("shape"),       QStringLiteral("strides"),
                           QStringLiteral("offset"),      QStringLiteral("element_bytes"),
                           QStringLiteral("operations"),  QStringLiteral("selected_step")};

bool isInteger(const QJsonValue &value)
{
    return value.isDouble() && std::floor(value.toDouble()) == value.toDouble();
}

}  // namespace

void TensorViewsSection::nameLessonRegions()
{
    intro_->setObjectName(QStringLiteral("views-intro"));
}

QJsonObject TensorViewsSection::lessonSettings() const
{
    QJsonArray operations;
    for (const tensors::TensorOp &op : ops_)
        operations.append(QString::fromStdString(op.text()));
    return {{QStringLiteral("shape"), shape_edit_->text()},
            {QStringLiteral("strides"), strides_edit_->text()},
            {QStringLiteral("offset"), offset_spin_->value()},
            {QStringLiteral("element_bytes"), dtype_spin_->value()},
            {QStringLiteral("operations"), operations},
            {QStringLiteral("selected_step"), selected_step_}};
}

bool TensorViewsSection::applyLessonSettings(const QJsonObject &settings, QString *error)
{
    auto fail = [&](const QString &key, const QString &rule) {
        if (error)
            *error = tr("%1: %2, got %3").arg(key, rule, lessonValueText(settings.value(key)));
        return false;
    };
    for (auto it = settings.begin(); it != settings.end(); ++it)
        if (!kKeys.contains(it.key())) {
            if (error)
                *error = tr("%1: unknown setting (expected %2)").arg(it.key(), kKeys.join(QStringLiteral(", ")));
            return false;
        }
    const QJsonValue shape = settings.value(QStringLiteral("shape"));
    const QJsonValue strides = settings.value(QStringLiteral("strides"));
    const QJsonValue offset = settings.value(QStringLiteral("offset"));
    const QJsonValue bytes = settings.value(QStringLiteral("element_bytes"));
    const QJsonValue operations = settings.value(QStringLiteral("operations"));
    const QJsonValue step = settings.value(QStringLiteral("selected_step"));
    if (!shape.isUndefined() && !shape.isString())
        return fail(QStringLiteral("shape"), tr("expected sizes separated by commas, e.g. \"2,3,4\""));
    if (!strides.isUndefined() && !strides.isString())
        return fail(QStringLiteral("strides"), tr("expected strides separated by commas, or \"\" for contiguous"));
    if (!offset.isUndefined() && (!isInteger(offset) || offset.toDouble() < offset_spin_->minimum()
                                  || offset.toDouble() > offset_spin_->maximum()))
        return fail(QStringLiteral("offset"), tr("expected an integer from %1 to %2")
                                                  .arg(offset_spin_->minimum())
                                                  .arg(offset_spin_->maximum()));
    if (!bytes.isUndefined() && (!isInteger(bytes) || bytes.toDouble() < dtype_spin_->minimum()
                                 || bytes.toDouble() > dtype_spin_->maximum()))
        return fail(QStringLiteral("element_bytes"), tr("expected an integer from %1 to %2")
                                                         .arg(dtype_spin_->minimum())
                                                         .arg(dtype_spin_->maximum()));
    const QString shape_text = shape.isUndefined() ? shape_edit_->text() : shape.toString();
    const QString strides_text = strides.isUndefined() ? strides_edit_->text() : strides.toString();
    const int start_offset = offset.isUndefined() ? offset_spin_->value() : offset.toInt();
    if (const QString problem = startProblem(shape_text, strides_text, start_offset); !problem.isEmpty())
        return fail(shape.isUndefined() ? (strides.isUndefined() ? QStringLiteral("offset") : QStringLiteral("strides"))
                                        : QStringLiteral("shape"),
                    problem);
    int op_count = int(ops_.size());
    if (!operations.isUndefined()) {
        if (!operations.isArray())
            return fail(QStringLiteral("operations"),
                        tr("expected an array of operations such as \"transpose(0, 1)\""));
        for (const QJsonValue &op : operations.toArray()) {
            if (!op.isString())
                return fail(QStringLiteral("operations"), tr("expected an array of strings"));
            const Result<tensors::TensorOp> parsed = tensors::parseTensorOp(op.toString().toStdString());
            if (!parsed)
                return fail(QStringLiteral("operations"), QString::fromStdString(parsed.problems().front().message));
        }
        op_count = int(operations.toArray().size());
    }
    if (!step.isUndefined() && (!isInteger(step) || step.toDouble() < 0 || step.toDouble() > op_count))
        return fail(QStringLiteral("selected_step"), tr("expected an integer from 0 (the start) to %1").arg(op_count));

    // Everything is valid: change the tab as a user would.
    if (!bytes.isUndefined())
        dtype_spin_->setValue(bytes.toInt());
    if (!shape.isUndefined() || !strides.isUndefined() || !offset.isUndefined())
        setStart(shape_text, strides_text, start_offset);
    if (!operations.isUndefined()) {
        clearOps();
        for (const QJsonValue &op : operations.toArray())
            addOp(op.toString());
    }
    if (!step.isUndefined())
        selectStep(step.toInt());
    return true;
}

}  // namespace lse::gui
