// SPDX-License-Identifier: GPL-3.0-or-later
// What the Distributed run page launches (issues 19 and 33): the setup the user chose, its check
// before anything starts, and the mpiexec command line that runs `llm-explorer-cli train` on it with
// the layout's flags (--dp N, --tp T, --pp P, or dp × tp / dp × pp).
#pragma once

#include "distributed/data_parallel_trainer.h"
#include "parallel/pipeline_schedule.h"
#include "reference/trainer.h"

#include <QString>
#include <QStringList>

namespace lse::gui {

// The tokenizers the page offers, as the Reference run page makes them: a byte-level BPE trained on
// the text with <|endoftext|> as one special id; "bytes" is that BPE without merges (257 ids).
enum class DistributedTokenizer { Bytes, Bpe };

// How the ranks split the work: the layouts `train` runs under mpirun (docs/user-guide/distributed-run.md).
enum class DistributedParallelism {
    Data,          // --dp N: every rank trains its slice of the batch (naive, bucketed, ZeRO-1/2)
    Tensor,        // --tp T: Megatron's split of every layer over T = ranks
    Pipeline,      // --pp P: P = ranks stages, GPipe or 1F1B over M micro-batches
    DataTensor,    // --dp D --tp T: D replicas of a T-way split, D·T ranks
    DataPipeline,  // --dp D --pp P: D pipelines of P stages, D·P ranks
};

struct DistributedRunSetup {
    DistributedParallelism parallelism = DistributedParallelism::Data;
    int ranks = 2;
    distributed::DataParallelMode mode = distributed::DataParallelMode::Naive;
    int bucket_mib = 25;  // bucketed mode only (PyTorch DDP's bucket_cap_mb)
    // The degrees of the layout. A single layout takes its degree from `ranks` (the others 1); the
    // combined ones take dp and tp (or pp) as entered, and ranks must be their product.
    int dp = 1;
    int tp = 1;
    int pp = 1;
    bool sequence_parallel = false;  // tensor layouts (Korthikanti et al. 2022 §4.2.2)
    parallel::PipelineScheduleKind schedule = parallel::PipelineScheduleKind::OneFOneB;
    int micro_batches = 4;  // pipeline layouts: per replica, each of batch/(dp·m) sequences
    int steps = 10;
    int global_batch = 8;  // split over the data-parallel replicas
    reference::TrainConfig config;  // the preset; steps, batch, data and vocabulary are set at launch
    DistributedTokenizer tokenizer = DistributedTokenizer::Bytes;
    int bpe_vocab = 512;  // the BPE tokenizer's vocabulary (bytes + <|endoftext|> + merges)
};

inline constexpr int kMinRanks = 2;
inline constexpr int kMaxRanks = 8;

bool usesTensorParallelism(DistributedParallelism parallelism);
bool usesPipelineParallelism(DistributedParallelism parallelism);
bool isCombinedLayout(DistributedParallelism parallelism);

// Empty when the setup can be launched, else the first broken rule naming the field
// ("Global batch: 6 is not divisible by 4 ranks; ..."). Checked before any process starts; the
// model's rules come from core (distributed::validateForTensorParallel, stageLayerProblems).
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
