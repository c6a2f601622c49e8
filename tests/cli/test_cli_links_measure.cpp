// SPDX-License-Identifier: GPL-3.0-or-later
// `mpirun -np N llm-explorer-cli links` (issue 19): measures this machine's link (ping-pong and
// all-reduce sweep, nccl-tests style), saves α and β as the link profile for N ranks beside the
// machine cache, and a following `train --dp N --json` sets the α-β predicted seconds beside each
// collective's measured seconds. One process is refused (exit 2 naming the problem), as are bad
// --sizes. Time values are not asserted beyond being positive: they depend on the machine's load.
#include "cli_fixtures.h"
#include "cli_run.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using lse::test::Run;
using lse::test::runCli;
using lse::test::writeFile;
#ifdef LSE_MPIEXEC
using lse::test::runMpi;
#endif

namespace {

const QByteArray kConfig = lse::test::tinyTrainConfig(QStringLiteral("links-tiny"), {8, 2, 1000});

}  // namespace

class TestCliLinksMeasure : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const char *name) const { return dir_.filePath(QString::fromLatin1(name)); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        // The profile goes into this cache folder, never the user's.
        qputenv("LSE_CACHE_DIR", path("cache").toUtf8());
    }

    void oneProcessIsRefused_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::newRow("table") << QStringList{};
        QTest::newRow("json") << QStringList{"--json"};
    }

    void oneProcessIsRefused()
    {
        QFETCH(QStringList, flags);
        const Run run = runCli(QStringList{"links"} + flags);
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains("ranks"), run.err.constData());
#ifdef LSE_MPIEXEC
        QVERIFY2(run.err.contains("mpirun -np 2"), run.err.constData());  // says how to run it
#endif
        QVERIFY(!QDir(path("cache")).exists(QStringLiteral("link-profile-np1.json")));
    }

    void badSizesExitTwoNamingTheFlag_data()
    {
        QTest::addColumn<QString>("sizes");
        QTest::newRow("not a multiple of 4") << "4,6";
        QTest::newRow("zero") << "0";
        QTest::newRow("not a number") << "big";
    }

    void badSizesExitTwoNamingTheFlag()
    {
        QFETCH(QString, sizes);
        const Run run = runCli({"links", "--sizes", sizes});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--sizes"), run.err.constData());
    }

    void measuredLinkPredictsTrainingCollectives()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        QByteArray text;
        for (int i = 0; i < 60; ++i)
            text += "Once upon a time a little cat sat on a mat. The cat was happy.\n<|endoftext|>\n"
                    "One day a dog ran to the park and played with a red ball.\n<|endoftext|>\n";
        writeFile(path("text.txt"), text);
        writeFile(path("config.json"), kConfig);
        const Run bpe = runCli({"train-bpe", "--input", path("text.txt"), "--vocab-size", "300", "--special", "<|endoftext|>",
                                "--out", path("bpe")});
        QVERIFY2(bpe.exit_code == 0, bpe.err.constData());
        const Run prep = runCli({"prepare-data", "--tokenizer", path("bpe"), "--input", path("text.txt"), "--out",
                                 path("ids.bin"), "--special", "<|endoftext|>"});
        QVERIFY2(prep.exit_code == 0, prep.err.constData());
        const QStringList train{"train", "--config", path("config.json"), "--data", path("ids.bin"), "--dp", "2", "--json"};

        // Before any measurement: no profile, so no prediction.
        const Run before = runMpi(2, train);
        QVERIFY2(before.exit_code == 0, before.err.constData());
        const QJsonObject unpredicted = QJsonDocument::fromJson(before.out).object();
        QVERIFY(unpredicted.contains("link_profile") && unpredicted.value("link_profile").isNull());
        const QJsonArray first_entries = unpredicted["steps"].toArray().first().toObject()["communication"].toArray();
        QVERIFY(!first_entries.isEmpty());
        for (const QJsonValue &entry : first_entries)
            QVERIFY(entry.toObject().contains("predicted_seconds") && entry.toObject().value("predicted_seconds").isNull());

        // Sizes where the bytes, not the scheduler, set the time: on a loaded 2-core machine a
        // 4-byte message's wait can take a whole time slice, and a sweep of small messages then
        // does not grow with size (the fit refuses it).
        const QStringList sizes{"262144", "1048576", "4194304", "16777216"};
        // A sweep disturbed by other processes can fall instead of grow with size; the fit then
        // refuses it (rule bandwidth_positive), which is the right answer for that sweep. Measure
        // again, as a user would; only a machine busy throughout skips the rest.
        Run links = runMpi(2, {"links", "--json", "--sizes", sizes.join(QLatin1Char(','))});
        for (int retry = 0; retry < 3 && links.exit_code == 2 && links.err.contains("bandwidth_positive"); ++retry)
            links = runMpi(2, {"links", "--json", "--sizes", sizes.join(QLatin1Char(','))});
        if (links.exit_code == 2 && links.err.contains("bandwidth_positive"))
            QSKIP("four sweeps in a row did not grow with message size: the machine is too busy to fit alpha and beta");
        QVERIFY2(links.exit_code == 0, links.err.constData());
        const QJsonObject measured = QJsonDocument::fromJson(links.out).object();  // rank 0 alone prints
        QCOMPARE(measured.value("ranks").toInt(), 2);
        QVERIFY(measured.value("alpha_seconds").toDouble(-1) >= 0);
        QVERIFY(measured.value("beta_bytes_per_second").toDouble() > 0);
        QCOMPARE(measured.value("all_reduce").toArray().size(), sizes.size());
        QCOMPARE(measured.value("ping_pong").toArray().size(), sizes.size());
        for (const QJsonValue &point : measured.value("all_reduce").toArray())
            QVERIFY(point.toObject().value("seconds").toDouble() > 0 && point.toObject().value("busbw_bytes_per_second").toDouble() > 0);
        QVERIFY(measured.value("saved").toBool());
        const QString profile_path = measured.value("profile_path").toString();
        QCOMPARE(QFileInfo(profile_path).absolutePath(), QFileInfo(path("cache")).absoluteFilePath());
        QVERIFY(QFileInfo::exists(profile_path));

        const Run after = runMpi(2, train);
        QVERIFY2(after.exit_code == 0, after.err.constData());
        const QJsonObject predicted = QJsonDocument::fromJson(after.out).object();
        const QJsonObject used = predicted.value("link_profile").toObject();
        QCOMPARE(used.value("path").toString(), profile_path);
        QCOMPARE(used.value("alpha_seconds").toDouble(), measured.value("alpha_seconds").toDouble());
        QCOMPARE(used.value("beta_bytes_per_second").toDouble(), measured.value("beta_bytes_per_second").toDouble());
        for (const QJsonValue &step : predicted.value("steps").toArray()) {
            const QJsonArray entries = step.toObject().value("communication").toArray();
            QVERIFY(!entries.isEmpty());
            for (const QJsonValue &entry : entries) {
                QVERIFY2(entry.toObject().value("predicted_seconds").toDouble() > 0,
                         QJsonDocument(entry.toObject()).toJson().constData());
                QVERIFY(entry.toObject().value("seconds").toDouble() > 0);
            }
        }
        QVERIFY2(after.err.contains("alpha-beta") && after.err.contains("ms)"), after.err.constData());

        // A broken profile is reported and ignored: the run goes on without predictions.
        writeFile(profile_path, "{ not json");
        const Run broken = runMpi(2, train);
        QVERIFY2(broken.exit_code == 0, broken.err.constData());
        QVERIFY2(broken.err.contains("link-profile-np2.json") && broken.err.contains("ignored"), broken.err.constData());
        QVERIFY(QJsonDocument::fromJson(broken.out).object().value("link_profile").isNull());
#endif
    }
};

QTEST_GUILESS_MAIN(TestCliLinksMeasure)
#include "test_cli_links_measure.moc"
