// SPDX-License-Identifier: GPL-3.0-or-later
// The files a distributed run reads, written to a temporary folder before mpiexec starts: the
// training text's token ids (tokenized as the Reference run page does) and the TrainConfig.
#pragma once

#include "pages/distributed/distributed_run_setup.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

namespace lse::gui {

struct DistributedRunFiles {
    QString config_path;
    QString tokens_path;
    std::int64_t tokens = 0;
    std::int64_t vocab_size = 0;
};

// Tokenizes `text` (slow for a BPE on a long text: call it off the UI thread), writes tokens.bin and
// config.json into `folder` and returns their paths; on failure, the message in *error. `cancel`
// stops the BPE training.
std::optional<DistributedRunFiles> writeDistributedRunFiles(const DistributedRunSetup &setup, const std::string &text,
                                                            const QString &folder, const std::atomic<bool> *cancel,
                                                            QString *error);

}  // namespace lse::gui
