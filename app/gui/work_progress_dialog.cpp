// SPDX-License-Identifier: GPL-3.0-or-later
#include "work_progress_dialog.h"

#include <QPushButton>

namespace lse::gui {

WorkProgressDialog::WorkProgressDialog(const QString &label, int maximum, QWidget *parent)
    : QProgressDialog(label, QString(), 0, maximum, parent)
{
    // QDialog makes an autoDefault button the default one when it gets focus, and Return clicks the
    // default button: neither may be the case for Cancel.
    auto *cancel = new QPushButton(tr("Cancel"), this);
    cancel->setAutoDefault(false);
    cancel->setDefault(false);
    setCancelButton(cancel);  // also binds Escape to canceled()
    setWindowModality(Qt::WindowModal);
}

}  // namespace lse::gui
