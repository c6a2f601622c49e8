// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>

class QAbstractButton;
class QAbstractSlider;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;
class QTabWidget;

namespace lse::gui {

// The controls of one page (or section) that a lesson step sets, each under a stable snake_case
// key (docs/lesson-pages.md). settings() reads them; apply() validates every key of a settings
// object first and only then sets the controls as a user would (their signals fire, so the page
// recomputes through its normal path). Keeping this in one place means every page refuses bad
// settings the same way: "key: rule, got value", nothing changed. Pages whose settings are not one
// control per key (a step number that depends on the other keys, a search that must not restart)
// read them with LessonSettingsReader instead; both write values with lessonValueText().
class LessonControls {
    Q_DECLARE_TR_FUNCTIONS(LessonControls)
public:
    // How one key reads, checks and writes its control.
    struct Binding {
        QString key;
        std::function<QJsonValue()> read;
        // Empty when `value` is acceptable, else the rule it breaks (without the key).
        std::function<QString(const QJsonValue &value)> check;
        std::function<void(const QJsonValue &value)> write;
    };

    // A combo box whose item i is named values[i] (English identifiers, never the shown labels).
    void addChoice(const QString &key, QComboBox *box, const QStringList &values);
    // A combo box whose items are named by their item data (a catalog id); `renames` names the
    // items whose data is not an identifier (e.g. "" → "scenario").
    void addChoiceByData(const QString &key, QComboBox *box, const QMap<QString, QString> &renames = {});
    void addInt(const QString &key, QSpinBox *spin);
    void addInt(const QString &key, QAbstractSlider *slider);
    void addNumber(const QString &key, QDoubleSpinBox *spin);
    // A checkable button (check box, radio button, toggle).
    void addFlag(const QString &key, QAbstractButton *button);
    void addText(const QString &key, QLineEdit *edit);
    // The current tab of `tabs`, tab i named values[i].
    void addTab(const QString &key, QTabWidget *tabs, const QStringList &values);
    void add(Binding binding);

    QStringList keys() const;
    QJsonObject settings() const;
    bool apply(const QJsonObject &settings, QString *error) const;

private:
    QList<Binding> bindings_;
};

}  // namespace lse::gui
