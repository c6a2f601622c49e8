// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QJsonValue>
#include <QSet>
#include <QStringList>

#include <optional>

namespace lse::gui {

// Reads a lesson step's page_settings (Page::applyLessonSettings) for one page: every key is
// declared with its rule before anything on the page changes, so a bad key or value leaves the
// page untouched. The first problem wins and is written as "key: rule, got value".
//
//     LessonSettingsReader reader(settings);
//     const auto ranks = reader.integer("ranks", 2, 16);
//     if (!reader.finish(error)) return false;   // unknown keys and bad values
//     if (ranks) setRanks(*ranks);
//
// "animate" (a lesson step that animates the page, handled by the lesson player) is accepted by
// every page through acceptAnimate().
class LessonSettingsReader {
    Q_DECLARE_TR_FUNCTIONS(LessonSettingsReader)
public:
    explicit LessonSettingsReader(const QJsonObject &settings);

    // An integer (a JSON number without a fraction) in min..max; nullopt when absent or bad.
    std::optional<int> integer(const QString &key, int min, int max);
    // One of `choices` (English identifiers); nullopt when absent or bad.
    std::optional<QString> choice(const QString &key, const QStringList &choices);
    std::optional<bool> boolean(const QString &key);
    // Any string up to max_length characters (QString length).
    std::optional<QString> text(const QString &key, int max_length);
    // A number (double) in min..max.
    std::optional<double> number(const QString &key, double min, double max);
    // A JSON array of distinct integers in min..max, at least one; nullopt when absent or bad.
    std::optional<QList<int>> integerSet(const QString &key, int min, int max);
    // A JSON array of distinct `choices`, at least one; nullopt when absent or bad.
    std::optional<QStringList> choiceSet(const QString &key, const QStringList &choices);
    // "animate": true|false, read and ignored (the lesson player drives the animation).
    void acceptAnimate() { boolean(QStringLiteral("animate")); }
    // Records a problem found by the page itself (a rule that involves two keys).
    void fail(const QString &key, const QString &rule);

    bool ok() const { return problem_.isEmpty(); }
    bool has(const QString &key) const { return settings_.contains(key); }
    // False (with *error) if any read failed or a key was never declared.
    bool finish(QString *error);

private:
    void failWith(const QString &key, const QString &rule, const QJsonValue &value);

    QJsonObject settings_;
    QSet<QString> declared_;
    QString problem_;
};

// A JSON value as it appears in a message ("'forward'", "3.5", "true").
QString lessonValueText(const QJsonValue &value);

}  // namespace lse::gui
