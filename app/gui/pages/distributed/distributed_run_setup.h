// SPDX-License-Identifier: GPL-3.0-or-later
// What the Distributed run page launches (issue 19): the setup the user chose, its check before
// anything starts, and the mpiexec command line that runs `llm-explorer-cli train --dp N` on it.
#pragma once

#include "distributed/data_parallel_trainer.h"
#include "reference/trainer.h"

#include <QString>
#include <QStringList>

namespace lse::gui {

// The tokenizers the page offers, as the Reference run page makes them: a byte-level BPE trained on
// the text with <|endoftext|> as one special id; "bytes" is that BPE without merges (257 ids).
enum class DistributedTokenizer { Bytes, Bpe };

struct DistributedRunSetup {
    int ranks = 2;
    distributed::DataParallelMode mode = distributed::DataParallelMode::Naive;
    int bucket_mib = 25;  // bucketed mode only (PyTorch DDP's bucket_cap_mb)
    int steps = 10;
    int global_batch = 8;  // split over the ranks
    reference::TrainConfig config;  // the preset; steps, batch, data and vocabulary are set at launch
    DistributedTokenizer tokenizer = DistributedTokenizer::Bytes;
    int bpe_vocab = 512;  // the BPE tokenizer's vocabulary (bytes + <|endoftext|> + merges)
};

inline constexpr int kMinRanks = 2;
inline constexpr int kMaxRanks = 8;

// Empty when the setup can be launched, else the first broken rule naming the field
// ("Global batch: 6 is not divisible by 4 ranks; ..."). Checked before any process starts.
QString distributedSetupProblem(const DistributedRunSetup &setup);

// The arguments of mpiexec for `setup`, whose token file and config are at `tokens_path` and
// `config_path`: one CLI process per rank. Root may run it (CI), and ranks may outnumber cores
// (2 cores here), each rank pinned to nothing.
QStringList mpiexecArguments(const DistributedRunSetup &setup, const QString &cli_path, const QString &config_path,
                             const QString &tokens_path);

// mpiexec (or mpirun) on PATH; empty when Open MPI's openmpi-bin is not installed.
QString findMpiexec();
// llm-explorer-cli next to the app (the build tree's app/cli, or the same folder), else on PATH; empty
// when not found.
QString findExplorerCli();

}  // namespace lse::gui
