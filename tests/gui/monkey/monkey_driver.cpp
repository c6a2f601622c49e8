// SPDX-License-Identifier: GPL-3.0-or-later
#include "monkey/monkey_driver.h"

#include "monkey/menu_actions.h"
#include "monkey/widget_pokes.h"

#include "charts/chart_view.h"
#include "document/scenario_document.h"
#include "editor/scenario_editor.h"
#include "main_window.h"
#include "pages/page.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QListWidget>
#include <QPushButton>
#include <QTest>

#include <functional>

namespace lse::monkey {

namespace {

// "Llama-2-7b-hf/config.json": the fixture's folder says which file it was.
QString describeFile(const QString &path)
{
    const QFileInfo file(path);
    return file.dir().dirName() + QLatin1Char('/') + file.fileName();
}

}  // namespace

const QStringList &MonkeyDriver::skippedButtons()
{
    static const QStringList names = {
        QStringLiteral("distributed-start"),     // starts mpirun with training processes
        QStringLiteral("measureMachineButton"),  // measures the machine's roofline for seconds
        QStringLiteral("measureOpsButton"),      // times every operator on this machine
    };
    return names;
}

MonkeyDriver::MonkeyDriver(gui::MainWindow &window, quint32 seed, QString export_folder, HfConfigFiles hf_files)
    : window_(window), random_(seed), export_folder_(std::move(export_folder)), hf_files_(std::move(hf_files))
{
}

QString MonkeyDriver::act(QString *finding, const std::function<void(const QString &)> &announce)
{
    // Relative frequencies (out of their sum): mostly edits and page controls, where the state
    // space is; rarely the slow ones (export of every page, a language switch rebuilding the UI).
    struct Kind {
        const char *name;
        int weight;
        std::function<QString()> run;
    };
    const Kind kinds[] = {
        {"edit field", 300, [this] { return editField(); }},
        {"undo/redo", 120, [this] { return undoOrRedo(); }},
        {"preset", 50, [this] { return loadPreset(); }},
        {"import config.json", 40, [this, finding] { return importHfConfig(finding); }},
        {"switch page", 120, [this] { return switchPage(); }},
        {"page control", 250, [this] { return pokePageControl(); }},
        {"export chart", 15, [this, finding] { return exportChart(finding); }},
        {"export all pages", 2, [this, finding] { return exportAllPages(finding); }},
        {"menu dialog", 15, [this] { return openDialogAction(); }},
        {"presentation", 6, [this] { return togglePresentation(); }},
        {"language", 3, [this] { return switchLanguage(); }},
        {"theme", 6, [this] { return switchTheme(); }},
        {"fix problems", 20, [this] { return fixProblems(); }},
        {"zoom", 5, [this] { return zoom(); }},
    };
    int total = 0;
    for (const Kind &kind : kinds)
        total += kind.weight;
    int roll = random_.bounded(total);
    for (const Kind &kind : kinds) {
        if (roll >= kind.weight) {
            roll -= kind.weight;
            continue;
        }
        const QString kind_name = QString::fromLatin1(kind.name);
        ++kind_counts_[kind_name];
        announce(kind_name);
        QElapsedTimer timer;
        timer.start();
        QString done = kind.run();
        kind_milliseconds_[kind_name] += timer.elapsed();
        return done;
    }
    return {};
}

QString MonkeyDriver::editField()
{
    QList<QWidget *> fields;
    for (QWidget *widget : window_.editor()->findChildren<QWidget *>())
        if (widget->objectName().contains(QLatin1Char('.')) && isPokeable(widget) && widget->isEnabled())
            fields.append(widget);
    if (fields.isEmpty())
        return QStringLiteral("no editable field");
    return pokeWidget(fields.at(random_.bounded(int(fields.size()))), random_);
}

QString MonkeyDriver::undoOrRedo()
{
    const bool redo = random_.bounded(3) == 0;
    const Qt::KeyboardModifiers modifiers = redo ? Qt::ControlModifier | Qt::ShiftModifier : Qt::ControlModifier;
    if (random_.bounded(2) == 0) {
        // The keys, typed where the focus is (a field: the window's filter gives them to the document).
        QWidget *target = QApplication::focusWidget();
        if (!target || target->window() != &window_)
            target = &window_;
        QTest::keyClick(target, Qt::Key_Z, modifiers);
        return QStringLiteral("%1 typed in %2").arg(QLatin1String(redo ? "Ctrl+Shift+Z" : "Ctrl+Z"), target->objectName());
    }
    QAction *action = menuActionWithShortcut(window_, redo ? QKeySequence(QKeySequence::Redo).operator[](0)
                                                                  : QKeySequence(QKeySequence::Undo).operator[](0));
    if (!action)
        return QStringLiteral("no %1 menu action").arg(QLatin1String(redo ? "redo" : "undo"));
    action->trigger();
    return QStringLiteral("Edit > %1 '%2'").arg(QLatin1String(redo ? "Redo" : "Undo"), action->text());
}

QString MonkeyDriver::loadPreset()
{
    QComboBox *picker = window_.editor()->presetPicker();
    const int index = random_.bounded(picker->count());
    picker->setCurrentIndex(index);
    emit picker->activated(index);
    return picker->itemText(index);
}

QString MonkeyDriver::importHfConfig(QString *finding)
{
    const bool valid = random_.bounded(2) == 0;
    const QStringList &files = valid ? hf_files_.valid : hf_files_.broken;
    const QString path = files.at(random_.bounded(int(files.size())));
    QString error;
    const bool imported = window_.openFile(path, &error);
    if (valid && !imported)
        *finding = QStringLiteral("the valid %1 was rejected: %2").arg(describeFile(path), error);
    if (!valid && imported)
        *finding = QStringLiteral("the broken %1 was accepted").arg(describeFile(path));
    if (!valid && !imported && error.isEmpty())
        *finding = QStringLiteral("the broken %1 was rejected without a message").arg(describeFile(path));
    return imported ? QStringLiteral("imported %1").arg(describeFile(path))
                    : QStringLiteral("%1 rejected: %2").arg(describeFile(path), error);
}

QString MonkeyDriver::switchPage()
{
    if (random_.bounded(4) == 0) {
        const bool next = random_.bounded(2) == 0;
        QAction *action = menuActionWithShortcut(window_, QKeySequence(Qt::CTRL | (next ? Qt::Key_PageDown : Qt::Key_PageUp)));
        if (!action)
            return QStringLiteral("no Go menu action");
        action->trigger();
        return QStringLiteral("Go > %1 -> %2").arg(QLatin1String(next ? "next" : "previous"), window_.currentPageAndSection());
    }
    const QStringList ids = window_.pageAndSectionIds();
    const QString id = ids.at(random_.bounded(int(ids.size())));
    return window_.selectPage(id) ? id : QStringLiteral("%1 refused").arg(id);
}

QString MonkeyDriver::pokePageControl()
{
    gui::Page *page = window_.currentPage();
    if (!page)
        return QStringLiteral("no current page");
    QList<QWidget *> controls;
    for (QWidget *widget : page->findChildren<QWidget *>()) {
        // Qt's own parts (a spin box's qt_spinbox_lineedit) are reached through their widget.
        if (widget->objectName().isEmpty() || widget->objectName().startsWith(QLatin1String("qt_"))
            || !isPokeable(widget) || !widget->isEnabled() || !widget->isVisible())
            continue;
        if (qobject_cast<QAbstractButton *>(widget) && skippedButtons().contains(widget->objectName()))
            continue;
        controls.append(widget);
    }
    if (controls.isEmpty())
        return QStringLiteral("%1 has no named control").arg(window_.currentPageAndSection());
    return window_.currentPageAndSection() + QStringLiteral(" ") + pokeWidget(controls.at(random_.bounded(int(controls.size()))), random_);
}

QString MonkeyDriver::exportChart(QString *finding)
{
    gui::Page *page = window_.currentPage();
    const QList<gui::ChartView *> charts = page ? page->charts() : QList<gui::ChartView *>();
    if (charts.isEmpty())
        return QStringLiteral("%1 has no chart").arg(window_.currentPageAndSection());
    gui::ChartView *chart = charts.at(random_.bounded(int(charts.size())));
    const QString folder = QDir(export_folder_).filePath(QStringLiteral("chart-%1").arg(++export_count_));
    QDir().mkpath(folder);
    QString error;
    if (!chart->exportAll(folder, &error))
        *finding = QStringLiteral("exporting chart %1 to %2 failed: %3").arg(chart->id(), folder, error);
    QDir(folder).removeRecursively();  // a long run would otherwise fill the disk
    return QStringLiteral("%1 chart %2").arg(window_.currentPageAndSection(), chart->id());
}

QString MonkeyDriver::exportAllPages(QString *finding)
{
    const QString folder = QDir(export_folder_).filePath(QStringLiteral("all-%1").arg(++export_count_));
    QDir().mkpath(folder);
    QString error;
    int written = 0;
    const gui::MainWindow::ExportResult result = window_.exportAllPages(folder, &error, &written);
    if (result != gui::MainWindow::ExportResult::Done)
        *finding = QStringLiteral("export of every page to %1 did not finish (%2 pages written): %3")
                       .arg(folder)
                       .arg(written)
                       .arg(error);
    QDir(folder).removeRecursively();
    return QStringLiteral("%1 pages written").arg(written);
}

QString MonkeyDriver::openDialogAction()
{
    // Menu entries that open a modal dialog (a file dialog, the unsaved-changes question): the
    // modal closer rejects it, as a user pressing Cancel would.
    const QKeySequence shortcuts[] = {QKeySequence(QKeySequence::Open).operator[](0), QKeySequence(QKeySequence::New).operator[](0),
                                      QKeySequence(Qt::CTRL | Qt::Key_I), QKeySequence(Qt::CTRL | Qt::Key_E),
                                      QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E)};
    const QKeySequence &shortcut = shortcuts[random_.bounded(int(std::size(shortcuts)))];
    QAction *action = menuActionWithShortcut(window_, shortcut);
    if (!action)
        return QStringLiteral("no action for %1").arg(shortcut.toString());
    action->trigger();
    return QStringLiteral("%1 (%2)").arg(action->text(), shortcut.toString());
}

QString MonkeyDriver::togglePresentation()
{
    QAction *action = menuActionWithShortcut(window_, QKeySequence(Qt::Key_F11));
    if (!action)
        return QStringLiteral("no presentation action");
    action->trigger();
    return window_.presentation() ? QStringLiteral("on") : QStringLiteral("off");
}

QString MonkeyDriver::switchLanguage()
{
    for (QAction *action : menuActionGroup(window_, 2))
        if (!action->isChecked()) {
            const QString name = action->text();
            action->trigger();
            return QStringLiteral("to %1 (%2)").arg(name, gui::MainWindow::currentLanguage());
        }
    return QStringLiteral("no other language");
}

QString MonkeyDriver::switchTheme()
{
    const QList<QAction *> themes = menuActionGroup(window_, 4);
    if (themes.isEmpty())
        return QStringLiteral("no theme actions");
    QAction *action = themes.at(random_.bounded(int(themes.size())));
    action->trigger();
    return action->text();
}

QString MonkeyDriver::fixProblems()
{
    gui::ScenarioEditor *editor = window_.editor();
    if (random_.bounded(2) == 0 && editor->problemList()->count() > 0) {
        editor->problemList()->setCurrentRow(random_.bounded(editor->problemList()->count()));
        if (!editor->fixButton()->isEnabled())
            return QStringLiteral("selected problem has no fix");
        editor->fixButton()->click();
        return QStringLiteral("fixed the selected problem");
    }
    if (!editor->fixAllButton()->isEnabled())
        return QStringLiteral("nothing to fix");
    editor->fixAllButton()->click();
    return QStringLiteral("fixed all");
}

QString MonkeyDriver::zoom()
{
    const QKeySequence shortcuts[] = {QKeySequence(QKeySequence::ZoomIn).operator[](0),
                                      QKeySequence(QKeySequence::ZoomOut).operator[](0), QKeySequence(Qt::CTRL | Qt::Key_0)};
    const QKeySequence &shortcut = shortcuts[random_.bounded(int(std::size(shortcuts)))];
    QAction *action = menuActionWithShortcut(window_, shortcut);
    if (!action || !action->isEnabled())
        return QStringLiteral("%1 unavailable").arg(shortcut.toString());
    action->trigger();
    return QStringLiteral("%1 -> %2%").arg(shortcut.toString()).arg(window_.zoomPercent());
}

}  // namespace lse::monkey
