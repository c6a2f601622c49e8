// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>

class QLabel;

namespace lse::gui {

// The strip above the pages while the edited scenario is invalid: the pages keep showing the last
// valid scenario's results, and this says so, with the number of problems in the current one.
// Hidden while the scenario is valid.
class StaleBanner : public QFrame {
    Q_OBJECT
public:
    explicit StaleBanner(QWidget *parent = nullptr);

    // `problem_count` problems in the current scenario (0: valid, the banner hides);
    // `has_last_valid`: whether any earlier scenario was valid (otherwise the pages show nothing).
    void setProblems(int problem_count, bool has_last_valid);
    int problemCount() const { return problem_count_; }
    bool isStale() const { return problem_count_ > 0; }
    QString text() const;

signals:
    // Emitted when the banner starts or stops being shown.
    void staleChanged(bool stale);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();

    QLabel *label_;
    int problem_count_ = 0;
    bool has_last_valid_ = true;
};

}  // namespace lse::gui
