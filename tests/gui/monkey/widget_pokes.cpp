// SPDX-License-Identifier: GPL-3.0-or-later
#include "monkey/widget_pokes.h"

#include <QAbstractButton>
#include <QAbstractSlider>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRandomGenerator>
#include <QScrollBar>
#include <QSpinBox>
#include <QTest>

#include <algorithm>
#include <cmath>

namespace lse::monkey {

namespace {

// What users type into number fields: valid counts in the forms the editor accepts, and the
// invalid inputs each field must reject with a message instead of crashing.
const char *const kTypedTexts[] = {
    "4096", "15T", "300B", "2e12", "1", "7", "128", "65536", "0.5",                 // plausible
    "", " ", "0", "-1", "-4096", "1e400", "99999999999999999999999", "2147483648",  // empty, sign, huge
    "abc", "12abc", "1,000", "0x10", "1.5.2", "NaN", "nan", "inf", "-inf", "Infinity",
    "\xe4\xb8\xad\xe6\x96\x87",          // CJK "中文"
    "\xef\xbc\x91\xef\xbc\x92\xef\xbc\x93",  // full-width digits "１２３"
    "\xf0\x9f\x99\x82",                    // an emoji
    "5,6,6,5", "1,,2", "-1,3",             // layer lists, one valid and two broken
};

const char *const kFreeTexts[] = {
    "hello world", "", "The quick brown fox jumps over the lazy dog.",
    "\xe4\xbd\xa0\xe5\xa5\xbd\xef\xbc\x8c\xe4\xb8\x96\xe7\x95\x8c",  // 你好，世界
    "\t\n  \n", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "<|endoftext|>", "\xf0\x9f\x99\x82\xf0\x9f\x99\x82",
};

template <std::size_t N>
QString pick(const char *const (&texts)[N], QRandomGenerator &random)
{
    return QString::fromUtf8(texts[random.bounded(int(N))]);
}

QString name(const QWidget *widget)
{
    return widget->objectName().isEmpty() ? QString::fromLatin1(widget->metaObject()->className())
                                          : widget->objectName();
}

// Key presses for `text`: QTest::keyClicks maps characters to keys and asserts on any it has no key
// for, so other characters (CJK, an emoji's surrogate pair) arrive as a key event carrying their
// text, as an input method delivers them; newline and tab are their keys.
void typeText(QWidget *target, const QString &text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('\n') || c == QLatin1Char('\t')) {
            QTest::keyClick(target, c == QLatin1Char('\n') ? Qt::Key_Return : Qt::Key_Tab);
            continue;
        }
        if (c.unicode() >= 0x20 && c.unicode() < 0x7f) {  // printable ASCII: the keys QTest knows
            QTest::keyClick(target, char(c.unicode()));
            continue;
        }
        const qsizetype length = c.isHighSurrogate() && i + 1 < text.size() ? 2 : 1;
        QTest::sendKeyEvent(QTest::Click, target, Qt::Key_unknown, text.mid(i, length), Qt::NoModifier);
        i += length - 1;
    }
}

// Types `text` over the field's contents and presses Enter, as a user would.
void typeAndEnter(QWidget *target, const QString &text)
{
    target->setFocus();
    if (auto *line = qobject_cast<QLineEdit *>(target))
        line->selectAll();
    else if (auto *spin = qobject_cast<QAbstractSpinBox *>(target))
        spin->selectAll();
    else
        QTest::keyClick(target, Qt::Key_A, Qt::ControlModifier);
    typeText(target, text);
    QTest::keyClick(target, Qt::Key_Return);
}

QString pokeSpin(QAbstractSpinBox *spin, QRandomGenerator &random)
{
    const int choice = random.bounded(5);
    if (choice == 0) {
        const QString text = pick(kTypedTexts, random);
        typeAndEnter(spin, text);
        return QStringLiteral("%1: typed '%2' + Enter").arg(name(spin), text);
    }
    if (auto *integer = qobject_cast<QSpinBox *>(spin)) {
        const int value = choice == 1 ? integer->minimum()
                          : choice == 2 ? integer->maximum()
                          : choice == 3 ? std::clamp(integer->value() + random.bounded(-2, 3), integer->minimum(), integer->maximum())
                                        : int(integer->minimum() + random.bounded(double(integer->maximum()) - integer->minimum()));
        integer->setValue(value);
        return QStringLiteral("%1: set %2").arg(name(spin)).arg(value);
    }
    if (auto *real = qobject_cast<QDoubleSpinBox *>(spin)) {
        const double value = choice == 1 ? real->minimum()
                             : choice == 2 ? real->maximum()
                             : choice == 3 ? std::clamp(real->value() * (0.5 + random.generateDouble()), real->minimum(), real->maximum())
                                           : real->minimum() + random.generateDouble() * (real->maximum() - real->minimum());
        real->setValue(value);
        return QStringLiteral("%1: set %2").arg(name(spin)).arg(value, 0, 'g', 17);
    }
    return {};
}

}  // namespace

bool isPokeable(const QWidget *widget)
{
    return qobject_cast<const QAbstractSpinBox *>(widget) || qobject_cast<const QLineEdit *>(widget)
           || qobject_cast<const QComboBox *>(widget) || qobject_cast<const QAbstractButton *>(widget)
           || qobject_cast<const QPlainTextEdit *>(widget)
           || (qobject_cast<const QAbstractSlider *>(widget) && !qobject_cast<const QScrollBar *>(widget));
}

QString pokeWidget(QWidget *widget, QRandomGenerator &random)
{
    if (auto *spin = qobject_cast<QAbstractSpinBox *>(widget))
        return pokeSpin(spin, random);
    if (auto *combo = qobject_cast<QComboBox *>(widget)) {
        if (combo->count() == 0)
            return QStringLiteral("%1: empty combo box").arg(name(combo));
        if (combo->isEditable() && random.bounded(3) == 0) {
            const QString text = pick(kTypedTexts, random);
            typeAndEnter(combo, text);
            return QStringLiteral("%1: typed '%2' + Enter").arg(name(combo), text);
        }
        const int index = random.bounded(combo->count());
        combo->setCurrentIndex(index);
        emit combo->activated(index);  // what choosing the entry with the mouse or keys emits
        return QStringLiteral("%1: chose %2 '%3'").arg(name(combo)).arg(index).arg(combo->itemText(index));
    }
    if (auto *line = qobject_cast<QLineEdit *>(widget)) {
        if (line->isReadOnly())
            return QStringLiteral("%1: read-only").arg(name(line));
        const QString text = pick(kTypedTexts, random);
        typeAndEnter(line, text);
        return QStringLiteral("%1: typed '%2' + Enter").arg(name(line), text);
    }
    if (auto *text_edit = qobject_cast<QPlainTextEdit *>(widget)) {
        if (text_edit->isReadOnly())
            return QStringLiteral("%1: read-only").arg(name(text_edit));
        const QString text = pick(kFreeTexts, random);
        text_edit->setFocus();
        text_edit->selectAll();
        typeText(text_edit, text);
        return QStringLiteral("%1: typed '%2'").arg(name(text_edit), text);
    }
    if (auto *slider = qobject_cast<QAbstractSlider *>(widget)) {
        // In double: the range of a slider may span every int.
        const double value = double(slider->minimum()) + random.bounded(double(slider->maximum()) - slider->minimum() + 1.0);
        slider->setValue(int(std::min(value, double(slider->maximum()))));
        return QStringLiteral("%1: slid to %2").arg(name(slider)).arg(slider->value());
    }
    if (auto *button = qobject_cast<QAbstractButton *>(widget)) {
        button->click();
        const char *state = !button->isCheckable() ? "" : button->isChecked() ? " (on)" : " (off)";
        return QStringLiteral("%1: clicked%2").arg(name(button), QLatin1String(state));
    }
    return {};
}

}  // namespace lse::monkey
