// SPDX-License-Identifier: GPL-3.0-or-later
// Drops the offscreen platform's "This plugin does not support propagateSizeHints()" warning,
// which every shown top-level window prints on each resize: hundreds of lines per lesson that push
// a failure's own lines out of the part of the log CI keeps. Every other message goes on to Qt
// Test's handler unchanged.
#pragma once

#include <QtGlobal>
#include <QString>

namespace lse::test {

inline QtMessageHandler &previousMessageHandler()
{
    static QtMessageHandler previous = nullptr;
    return previous;
}

inline void filterPlatformWarning(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg && message.contains(QLatin1String("does not support propagateSizeHints")))
        return;
    if (QtMessageHandler previous = previousMessageHandler())
        previous(type, context, message);
}

// Call once, from initTestCase (after QTest has installed its own handler).
inline void installPlatformWarningFilter()
{
    previousMessageHandler() = qInstallMessageHandler(filterPlatformWarning);
}

}  // namespace lse::test
