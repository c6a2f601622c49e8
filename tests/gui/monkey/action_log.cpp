// SPDX-License-Identifier: GPL-3.0-or-later
#include "monkey/action_log.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

namespace lse::monkey {

namespace {

// The one log a crash handler can reach: a signal handler takes no context.
ActionLog *g_active_log = nullptr;
// Built before each action so the handler only writes bytes (formatting inside a handler that
// may run with the heap corrupted would risk a second crash).
QByteArray g_crash_report;

void writeCrashReport()
{
    if (!g_crash_report.isEmpty())
        std::fwrite(g_crash_report.constData(), 1, size_t(g_crash_report.size()), stderr);
    std::fflush(stderr);
}

extern "C" void onCrashSignal(int signal_number)
{
    writeCrashReport();
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
}

}  // namespace

ActionLog::ActionLog(quint32 seed, int action_count) : seed_(seed), action_count_(action_count)
{
    g_active_log = this;
    for (int signal_number : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL})
        std::signal(signal_number, onCrashSignal);
#if defined(__SANITIZE_ADDRESS__)
    // ASan reports and exits without a signal the handler above would see.
    __sanitizer_set_death_callback(writeCrashReport);
#endif
}

ActionLog::~ActionLog()
{
    for (int signal_number : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL})
        std::signal(signal_number, SIG_DFL);
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_set_death_callback(nullptr);
#endif
    g_active_log = nullptr;
    g_crash_report.clear();
}

void ActionLog::begin(int index, const QString &description)
{
    current_index_ = index;
    recent_.append(QStringLiteral("#%1 %2").arg(index).arg(description));
    while (recent_.size() > kKeptActions)
        recent_.removeFirst();
    if (g_active_log == this)
        g_crash_report = (QStringLiteral("\nGUI monkey died during: ") + report() + QLatin1Char('\n')).toUtf8();
}

void ActionLog::note(const QString &detail)
{
    if (recent_.isEmpty())
        return;
    recent_.last() += QStringLiteral(" -> ") + detail;
    if (g_active_log == this)
        g_crash_report = (QStringLiteral("\nGUI monkey died during: ") + report() + QLatin1Char('\n')).toUtf8();
}

QString ActionLog::report() const
{
    return QStringLiteral("seed %1, action %2 of %3 (replay: LSE_MONKEY_SEED=%1 LSE_MONKEY_ACTIONS=%4); last %5 actions:\n  %6")
        .arg(seed_)
        .arg(current_index_)
        .arg(action_count_)
        .arg(current_index_ + 1)
        .arg(recent_.size())
        .arg(recent_.join(QStringLiteral("\n  ")));
}

}  // namespace lse::monkey
