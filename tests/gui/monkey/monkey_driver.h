// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "monkey/hf_config_files.h"

#include <QMap>
#include <QRandomGenerator>
#include <QString>
#include <QStringList>

#include <functional>

namespace lse::gui {
class MainWindow;
}

namespace lse::monkey {

// Picks and performs random user actions on a main window, through its widgets and menu actions:
// editor field edits (valid and invalid values), Ctrl+Z / Ctrl+Shift+Z, presets, Hugging Face
// imports (valid and broken files), page and tab switches, page controls, exports into
// `export_folder`, presentation mode, language and theme. The same seed gives the same sequence of
// choices (what the application does in the background, the layout search, may still interleave
// differently).
class MonkeyDriver {
public:
    MonkeyDriver(gui::MainWindow &window, quint32 seed, QString export_folder, HfConfigFiles hf_files);

    // Performs one random action and returns what it did; `announce` gets the action's kind before
    // it runs (a crash inside it is then attributed). Sets *finding when the action itself
    // reported something wrong (an export into a writable folder failed, a valid config.json was
    // rejected, a broken one accepted).
    QString act(QString *finding, const std::function<void(const QString &)> &announce);

    // How many actions of each kind ran ("edit field": 1234, ...).
    const QMap<QString, int> &kindCounts() const { return kind_counts_; }
    // The time spent in the actions of each kind, in milliseconds (without the checks after them).
    const QMap<QString, qint64> &kindMilliseconds() const { return kind_milliseconds_; }

    // Page buttons the monkey never clicks: they start work that runs for seconds to minutes
    // (training, measuring the machine, an mpirun) or leave the page for another process.
    static const QStringList &skippedButtons();

private:
    QString editField();
    QString undoOrRedo();
    QString loadPreset();
    QString importHfConfig(QString *finding);
    QString switchPage();
    QString pokePageControl();
    QString exportChart(QString *finding);
    QString exportAllPages(QString *finding);
    QString openDialogAction();
    QString togglePresentation();
    QString switchLanguage();
    QString switchTheme();
    QString fixProblems();
    QString zoom();

    gui::MainWindow &window_;
    QRandomGenerator random_;
    QString export_folder_;
    HfConfigFiles hf_files_;
    int export_count_ = 0;
    QMap<QString, int> kind_counts_;
    QMap<QString, qint64> kind_milliseconds_;
};

}  // namespace lse::monkey
