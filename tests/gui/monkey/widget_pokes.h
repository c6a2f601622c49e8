// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QRandomGenerator;
class QWidget;

namespace lse::monkey {

// Random input to one widget the way a user gives it: a value set on a spin box or slider (inside
// its range, at an end, or text typed into it and Enter), text typed into a line edit and Enter
// (valid numbers, suffixed counts and the invalid ones: empty, negative, huge, words, CJK, NaN,
// inf), a combo box entry activated, a check box or button clicked. Returns what it did
// ("model.n_layers: typed '-1' + Enter"); an empty string for a widget type it does not poke.
QString pokeWidget(QWidget *widget, QRandomGenerator &random);

// Whether `widget` is a control pokeWidget handles.
bool isPokeable(const QWidget *widget);

}  // namespace lse::monkey
