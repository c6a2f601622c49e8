// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/distributed/distributed_run_files.h"

#include "output/output_file.h"

#include "reference/token_data.h"
#include "reference/training_text.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/bpe_trainer.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

#include <algorithm>

namespace lse::gui {

namespace {

// 256 bytes and <|endoftext|>: the byte-level BPE with no merges.
constexpr std::size_t kBytesVocab = 257;

}  // namespace

std::optional<DistributedRunFiles> writeDistributedRunFiles(const DistributedRunSetup &setup, const std::string &text,
                                                            const QString &folder, const std::atomic<bool> *cancel,
                                                            QString *error)
{
    const auto fail = [error](const Problems &problems) {
        *error = QString::fromStdString(formatProblems(problems)).trimmed();
        return std::nullopt;
    };
    // The Reference run page's tokenizer: a byte-level BPE trained on the text, <|endoftext|> one id.
    BpeTrainOptions options;
    options.vocabSize = setup.tokenizer == DistributedTokenizer::Bytes ? kBytesVocab
                                                                       : std::max<std::size_t>(kBytesVocab, std::size_t(setup.bpe_vocab));
    options.specialTokens = {std::string(reference::kEndOfText)};
    options.threads = 1;  // the machine's cores are for the ranks
    options.cancel = cancel;
    Result<BpeTrainResult> trained = trainBpe(text, options);
    if (!trained)
        return fail(trained.problems());
    Result<BpeTokenizer> made = BpeTokenizer::fromTraining(trained.value());
    if (!made)
        return fail(made.problems());
    BpeTokenizer &tokenizer = made.value();
    const std::vector<std::uint32_t> ids = reference::encodeTrainingText(tokenizer, text);

    DistributedRunFiles files;
    files.tokens_path = QDir(folder).filePath(QStringLiteral("tokens.bin"));
    files.config_path = QDir(folder).filePath(QStringLiteral("config.json"));
    files.tokens = std::int64_t(ids.size());
    files.vocab_size = std::int64_t(tokenizer.vocabSize());
    const TokenDtype dtype = tokenizer.vocabSize() <= 65536 ? TokenDtype::U16 : TokenDtype::U32;
    Result<bool> written = writeTokenFile(QFile::encodeName(files.tokens_path).toStdString(), ids, dtype);
    if (!written)
        return fail(written.problems());

    reference::TrainConfig config = setup.config;
    config.data_path = QFile::encodeName(files.tokens_path).toStdString();
    config.data_dtype = dtype;
    config.validation_path.clear();
    config.model.vocab_size = files.vocab_size;
    config.steps = setup.steps;
    config.batch_size = setup.global_batch;
    config.warmup_steps = std::min(config.warmup_steps, setup.steps / 10);  // a preset's warm-up longer than the run
    config.eval_every = setup.steps + 1;  // the run measures steps; no validation passes in between
    config.threads = 1;  // one thread per rank: ranks share the cores
    if (Problems problems = reference::validateTrainConfig(config); !problems.empty())
        return fail(problems);
    QString why;
    if (!writeOutputFile(files.config_path, reference::trainConfigToJson(config), &why)) {
        *error = QCoreApplication::translate("lse::gui::DistributedRunFiles", "Cannot write %1: %2")
                     .arg(QDir::toNativeSeparators(files.config_path), why);
        return std::nullopt;
    }
    return files;
}

}  // namespace lse::gui
