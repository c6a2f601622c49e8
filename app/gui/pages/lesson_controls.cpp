// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/lesson_controls.h"

#include "pages/lesson_settings_reader.h"

#include <QAbstractButton>
#include <QAbstractSlider>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QSpinBox>
#include <QTabWidget>

#include <cmath>

namespace lse::gui {

namespace {

// JSON numbers are doubles; an integer setting must be a whole number in range.
QString checkInteger(const QJsonValue &value, int minimum, int maximum)
{
    const double number = value.toDouble(std::nan(""));
    if (!value.isDouble() || std::floor(number) != number || number < minimum || number > maximum)
        return LessonControls::tr("expected an integer from %1 to %2").arg(minimum).arg(maximum);
    return {};
}

QStringList comboDataNames(const QComboBox *box, const QMap<QString, QString> &renames)
{
    QStringList names;
    for (int i = 0; i < box->count(); ++i) {
        const QString data = box->itemData(i).toString();
        names << renames.value(data, data);
    }
    return names;
}

}  // namespace

void LessonControls::addChoice(const QString &key, QComboBox *box, const QStringList &values)
{
    add({key,
         [box, values] { return QJsonValue(values.value(box->currentIndex())); },
         [box, values](const QJsonValue &value) {
             const int index = int(values.indexOf(value.toString()));
             if (!value.isString() || index < 0 || index >= box->count())
                 return tr("expected %1").arg(values.mid(0, box->count()).join(QLatin1Char('|')));
             return QString();
         },
         [box, values](const QJsonValue &value) { box->setCurrentIndex(int(values.indexOf(value.toString()))); }});
}

void LessonControls::addChoiceByData(const QString &key, QComboBox *box, const QMap<QString, QString> &renames)
{
    add({key,
         [box, renames] { return QJsonValue(comboDataNames(box, renames).value(box->currentIndex())); },
         [box, renames](const QJsonValue &value) {
             const QStringList names = comboDataNames(box, renames);
             if (!value.isString() || !names.contains(value.toString()))
                 return tr("expected one of %1").arg(names.join(QLatin1Char('|')));
             return QString();
         },
         [box, renames](const QJsonValue &value) {
             box->setCurrentIndex(int(comboDataNames(box, renames).indexOf(value.toString())));
         }});
}

void LessonControls::addInt(const QString &key, QSpinBox *spin)
{
    add({key, [spin] { return QJsonValue(spin->value()); },
         [spin](const QJsonValue &value) { return checkInteger(value, spin->minimum(), spin->maximum()); },
         [spin](const QJsonValue &value) { spin->setValue(value.toInt()); }});
}

void LessonControls::addInt(const QString &key, QAbstractSlider *slider)
{
    add({key, [slider] { return QJsonValue(slider->value()); },
         [slider](const QJsonValue &value) { return checkInteger(value, slider->minimum(), slider->maximum()); },
         [slider](const QJsonValue &value) { slider->setValue(value.toInt()); }});
}

void LessonControls::addNumber(const QString &key, QDoubleSpinBox *spin)
{
    add({key, [spin] { return QJsonValue(spin->value()); },
         [spin](const QJsonValue &value) {
             const double number = value.toDouble();
             if (!value.isDouble() || !std::isfinite(number) || number < spin->minimum() || number > spin->maximum())
                 return tr("expected a number from %1 to %2").arg(spin->minimum()).arg(spin->maximum());
             return QString();
         },
         [spin](const QJsonValue &value) { spin->setValue(value.toDouble()); }});
}

void LessonControls::addFlag(const QString &key, QAbstractButton *button)
{
    add({key, [button] { return QJsonValue(button->isChecked()); },
         [](const QJsonValue &value) { return value.isBool() ? QString() : tr("expected true or false"); },
         [button](const QJsonValue &value) { button->setChecked(value.toBool()); }});
}

void LessonControls::addText(const QString &key, QLineEdit *edit)
{
    add({key, [edit] { return QJsonValue(edit->text()); },
         [edit](const QJsonValue &value) {
             if (!value.isString())
                 return tr("expected a string");
             if (value.toString().size() > edit->maxLength())
                 return tr("expected at most %n character(s)", nullptr, edit->maxLength());
             return QString();
         },
         [edit](const QJsonValue &value) {
             // For pages that follow textChanged (the atlas filter, the formats value); a page that
             // waits for editingFinished binds its text with add() and its own setter instead.
             edit->setText(value.toString());
         }});
}

void LessonControls::addTab(const QString &key, QTabWidget *tabs, const QStringList &values)
{
    add({key, [tabs, values] { return QJsonValue(values.value(tabs->currentIndex())); },
         [tabs, values](const QJsonValue &value) {
             const int index = int(values.indexOf(value.toString()));
             if (!value.isString() || index < 0 || index >= tabs->count())
                 return tr("expected %1").arg(values.join(QLatin1Char('|')));
             return QString();
         },
         [tabs, values](const QJsonValue &value) { tabs->setCurrentIndex(int(values.indexOf(value.toString()))); }});
}

void LessonControls::add(Binding binding)
{
    bindings_.append(std::move(binding));
}

QStringList LessonControls::keys() const
{
    QStringList names;
    for (const Binding &binding : bindings_)
        names << binding.key;
    return names;
}

QJsonObject LessonControls::settings() const
{
    QJsonObject settings;
    for (const Binding &binding : bindings_)
        settings.insert(binding.key, binding.read());
    return settings;
}

bool LessonControls::apply(const QJsonObject &settings, QString *error) const
{
    auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    // Check everything before touching a control: a refused step must leave the page as it was.
    for (auto it = settings.begin(); it != settings.end(); ++it) {
        const auto binding = std::find_if(bindings_.begin(), bindings_.end(),
                                          [&](const Binding &b) { return b.key == it.key(); });
        if (binding == bindings_.end()) {
            const QStringList known = keys();
            return fail(known.isEmpty()
                            ? tr("%1: this page has no settings a lesson can set").arg(it.key())
                            : tr("%1: unknown setting (expected %2)").arg(it.key(), known.join(QStringLiteral(", "))));
        }
        if (const QString rule = binding->check(it.value()); !rule.isEmpty())
            return fail(tr("%1: %2, got %3").arg(it.key(), rule, lessonValueText(it.value())));
    }
    // Bindings are applied in declaration order (not the object's alphabetical order), so a page
    // can declare a key that others depend on first.
    for (const Binding &binding : bindings_)
        if (settings.contains(binding.key) && binding.read() != settings.value(binding.key))
            binding.write(settings.value(binding.key));
    return true;
}

}  // namespace lse::gui
