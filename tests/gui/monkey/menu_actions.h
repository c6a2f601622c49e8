// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QKeySequence>
#include <QList>

class QAction;
class QMainWindow;

namespace lse::monkey {

// The window's menu actions as the menu bar holds them now (a language switch rebuilds the menus,
// so never keep them across actions), submenus flattened.
QList<QAction *> menuActions(const QMainWindow &window);
// The menu action with `shortcut` among its shortcuts (language-independent), or null.
QAction *menuActionWithShortcut(const QMainWindow &window, const QKeySequence &shortcut);
// The actions of the menus' exclusive group of `group_size` actions: 2 the languages, 4 the themes
// (the only groups of those sizes); empty when there is none.
QList<QAction *> menuActionGroup(const QMainWindow &window, int group_size);

}  // namespace lse::monkey
