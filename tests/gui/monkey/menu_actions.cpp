// SPDX-License-Identifier: GPL-3.0-or-later
#include "monkey/menu_actions.h"

#include <QAction>
#include <QActionGroup>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>

namespace lse::monkey {

namespace {

void collect(const QList<QAction *> &actions, QList<QAction *> *out)
{
    for (QAction *action : actions) {
        if (QMenu *menu = action->menu())
            collect(menu->actions(), out);
        else if (!action->isSeparator())
            out->append(action);
    }
}

}  // namespace

QList<QAction *> menuActions(const QMainWindow &window)
{
    QList<QAction *> actions;
    collect(window.menuBar()->actions(), &actions);
    return actions;
}

QAction *menuActionWithShortcut(const QMainWindow &window, const QKeySequence &shortcut)
{
    for (QAction *action : menuActions(window))
        if (action->shortcuts().contains(shortcut))
            return action;
    return nullptr;
}

QList<QAction *> menuActionGroup(const QMainWindow &window, int group_size)
{
    for (QAction *action : menuActions(window))
        if (QActionGroup *group = action->actionGroup(); group && group->actions().size() == group_size)
            return group->actions();
    return {};
}

}  // namespace lse::monkey
