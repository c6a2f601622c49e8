// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>

class QWidget;

namespace lse::gui {

class Page;

// Every page of the app in navigation order, parented to `parent`. Later issues append their
// pages here.
QList<Page *> createPages(QWidget *parent);

}  // namespace lse::gui
