// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli ablate`: a short study runs to the end, prints the table or the results JSON
// and writes a results file the core reader accepts; bad input exits 2 with nothing on stdout and
// a message naming the flag. The model and text are tiny so the file runs in seconds.
#include "cli_run.h"

#include "reference/ablation/ablation_results_json.h"
#include "reference/ablation/ablation_runner.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using lse::test::Run;
using lse::test::runCli;

const char *const kConfig = R"({
  "format": "llm-explorer-reference-train", "version": 1,
  "model": {"name": "cli-ablate", "n_layers": 1, "d_model": 32, "n_heads": 2, "d_ff": 64,
            "vocab_size": 300, "max_seq_len": 32},
  "training": {"batch_size": 2, "steps": 4, "lr_max": 0.005, "lr_min": 0.0005, "warmup_steps": 1,
               "eval_every": 2, "eval_batches": 1, "seed": 3, "threads": 1}
})";

}  // namespace

class TestCliAblate : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const char *name) const { return dir_.filePath(QString::fromLatin1(name)); }
    QStringList base() const
    {
        return {QStringLiteral("ablate"), QStringLiteral("--config"), path("config.json"), QStringLiteral("--text"),
                path("text.txt")};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        lse::Result<std::string> text = lse::reference::builtinAblationText();
        QVERIFY(text.ok());
        QFile t(path("text.txt"));
        QVERIFY(t.open(QIODevice::WriteOnly));
        t.write(QByteArray::fromStdString(text.value().substr(0, 30000)));
        t.close();
        QFile c(path("config.json"));
        QVERIFY(c.open(QIODevice::WriteOnly));
        c.write(kConfig);
    }

    void runsAStudyAndWritesResults()
    {
        const Run run = runCli(base() + QStringList{"--study", "parallel", "--steps", "3", "--out", path("results.json"), "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root.value("study").toString(), QStringLiteral("parallel"));
        const QJsonArray variants = root.value("variants").toArray();
        QCOMPARE(variants.size(), 2);
        QCOMPARE(variants[0].toObject().value("name").toString(), QStringLiteral("Serial"));
        QCOMPARE(variants[1].toObject().value("model").toObject().value("parallel_block").toBool(), true);
        QCOMPARE(variants[1].toObject().value("curve").toObject().value("step").toArray().size(), 3);
        QVERIFY(run.err.contains("variant 2/2 Parallel"));
        lse::Result<lse::reference::AblationResults> read = lse::reference::loadAblationResults(path("results.json").toStdString());
        QVERIFY2(read.ok(), lse::formatProblems(read.problems()).c_str());
        lse::Result<lse::reference::AblationResults> printed = lse::reference::ablationResultsFromJson(run.out);
        QVERIFY(printed.ok());
        QVERIFY(read.value() == printed.value());
    }

    void printsATable()
    {
        const Run run = runCli(base() + QStringList{"--study", "norm", "--steps", "2"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY(run.out.contains("LayerNorm"));
        QVERIFY(run.out.contains("No norm"));
        QVERIFY(run.out.contains("val loss"));
    }

    void badInputExitsTwoNamingTheFlag_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("flag");
        QTest::addRow("no study") << QStringList{} << "--study";
        QTest::addRow("unknown study") << QStringList{"--study", "batchnorm"} << "--study";
        QTest::addRow("zero steps") << QStringList{"--study", "norm", "--steps", "0"} << "--steps";
        QTest::addRow("steps text") << QStringList{"--study", "norm", "--steps", "many"} << "--steps";
        QTest::addRow("seed negative") << QStringList{"--study", "norm", "--seed", "-1"} << "--seed";
        QTest::addRow("threads") << QStringList{"--study", "norm", "--threads", "100000"} << "--threads";
        QTest::addRow("missing text") << QStringList{"--study", "norm", "--text", "/nonexistent/t.txt"} << "--text";
        QTest::addRow("text is a folder") << QStringList{"--study", "norm", "--text", "/tmp"} << "--text";
        QTest::addRow("missing config") << QStringList{"--study", "norm", "--config", "/nonexistent/c.json"} << "--config";
        QTest::addRow("out over text") << QStringList{"--study", "norm", "--out", "TEXT"} << "--out";
        QTest::addRow("unknown flag") << QStringList{"--study", "norm", "--stepz", "3"} << "stepz";
    }
    void badInputExitsTwoNamingTheFlag()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, flag);
        arguments.replaceInStrings(QStringLiteral("TEXT"), path("text.txt"));
        // The text comes first so that a --text or --config of the row (given later) overrides it.
        const Run run = runCli(QStringList{"ablate", "--text", path("text.txt")} + arguments);
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(flag.toUtf8()), run.err.constData());
    }

    void unwritableOutNamesTheFlag()
    {
        const Run run = runCli(base() + QStringList{"--study", "norm", "--steps", "1", "--out", "/nonexistent/dir/r.json"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains("--out"), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliAblate)
#include "test_cli_ablate.moc"
