// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>

class QLabel;

namespace lse::gui {

// One headline figure of the Serving page: a caption, the value in a larger font and a line of
// detail in a raised panel; the tooltip gives the formula and its source.
class ServingCard : public QFrame {
    Q_OBJECT
public:
    explicit ServingCard(const QString &object_name, QWidget *parent = nullptr);

    void set(const QString &caption, const QString &value, const QString &detail, const QString &tooltip);
    QString value() const;
    QString detail() const;
    // Marks the value as a warning (a batch or model that does not fit).
    void setWarning(bool warning);

protected:
    // The value's font is derived from the page's, which presentation mode enlarges.
    void changeEvent(QEvent *event) override;

private:
    void applyFonts();

    QLabel *caption_;
    QLabel *value_;
    QLabel *detail_;
};

}  // namespace lse::gui
