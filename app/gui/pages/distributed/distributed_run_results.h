// SPDX-License-Identifier: GPL-3.0-or-later
// The results of one distributed run as the CLI reports them (`train --dp N --json`, rank 0): the
// run's facts and each step's DataParallelStepReport, measured beside the engine's prediction.
#pragma once

#include "distributed/data_parallel_report.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <vector>

namespace lse::gui {

struct DistributedRunResults {
    int ranks = 0;
    QString mode;  // "naive", "bucketed", "zero1", "zero2"
    int zero_stage = 0;
    double bucket_bytes = 0;
    int global_batch = 0;
    std::vector<distributed::DataParallelStepReport> steps;
};

// Reads the CLI's JSON; nothing, with the reason in *error, when it is not that JSON.
std::optional<DistributedRunResults> parseDistributedRunResults(const QByteArray &json, QString *error);

// A step's exposed communication: the sum of its collectives' exposed seconds.
double exposedSeconds(const distributed::DataParallelStepReport &step);

}  // namespace lse::gui
