// SPDX-License-Identifier: GPL-3.0-or-later
// Files the CLI test suites write before running the tool: any file, and the tiny reference model's
// training config the train, dp-train, checkpoint and links tests share.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTest>

namespace lse::test {

// Writes `bytes` to `path`; a file that cannot be written whole fails the calling test.
inline void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly), qPrintable(path));
    QCOMPARE(file.write(bytes), bytes.size());
    QVERIFY2(file.flush(), qPrintable(path));
}

struct TinyTraining {
    int batch_size = 8;
    int steps = 10;
    int eval_every = 1000;  // larger than steps: no validation
};

// An llm-explorer-reference-train config of the tiny model (1 layer, d_model 32, 2 heads, d_ff 64,
// vocabulary 400, context 32: 35,936 parameters), seed 3, one
// thread, named `name` (it names the run's outputs).
inline QByteArray tinyTrainConfig(const QString &name, const TinyTraining &training = {})
{
    return QStringLiteral(R"({
  "format": "llm-explorer-reference-train", "version": 1,
  "model": {"name": "%1", "n_layers": 1, "d_model": 32, "n_heads": 2, "d_ff": 64,
            "vocab_size": 400, "max_seq_len": 32},
  "training": {"batch_size": %2, "steps": %3, "lr_max": 0.005, "lr_min": 0.0005, "warmup_steps": 1,
               "eval_every": %4, "eval_batches": 1, "seed": 3, "threads": 1}
})")
        .arg(name)
        .arg(training.batch_size)
        .arg(training.steps)
        .arg(training.eval_every)
        .toUtf8();
}

}  // namespace lse::test
