// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/traces/trace_session.h"

#include <utility>

namespace lse::gui {

void TraceSession::setTraces(std::vector<LoadedTrace> traces)
{
    traces_ = std::make_shared<const std::vector<LoadedTrace>>(std::move(traces));
    current_ = 0;
    gemms_.reset();
    emit changed();
}

void TraceSession::clear()
{
    traces_.reset();
    current_ = 0;
    gemms_.reset();
    emit changed();
}

void TraceSession::setCurrentRank(int index)
{
    if (index < 0 || index >= rankCount() || index == current_)
        return;
    current_ = index;
    gemms_.reset();
    emit changed();
}

const LoadedTrace *TraceSession::current() const
{
    if (isEmpty())
        return nullptr;
    return &(*traces_)[std::size_t(current_)];
}

}  // namespace lse::gui

namespace lse::gui {

void TraceSession::setGemmPrediction(std::shared_ptr<const traces::GemmPredictionSummary> gemms)
{
    gemms_ = std::move(gemms);
}

}  // namespace lse::gui
