// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli mesh`: every rank sits in exactly one group of each dimension, groups have the
// dimension's size, TP is innermost in the default order (rank = tp + tp·(cp + cp·(dp + dp·pp))
// coordinates, Megatron-LM), nodes are blocks of --gpus-per-node, and bad input exits 2.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "cli_run.h"

#include <map>
#include <set>

using lse::test::Run;
using lse::test::runCli;

namespace {

const QStringList kSixteen{"--gpus", "16", "--gpus-per-node", "8", "--tp", "2", "--pp", "2", "--dp", "4"};

QJsonObject parse(const QByteArray &text)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("not JSON: %s", qPrintable(error.errorString()));
    return document.object();
}

}  // namespace

class TestCliMesh : public QObject {
    Q_OBJECT
private slots:
    void everyRankInOneGroupOfEachDimension_data()
    {
        QTest::addColumn<QStringList>("order");
        QTest::addColumn<QList<int>>("strides");  // rank stride of tp, cp, dp, pp
        QTest::addRow("default tp,cp,dp,pp") << QStringList{} << QList<int>{1, 2, 2, 8};
        QTest::addRow("tp,pp,dp,cp") << QStringList{"--order", "tp,pp,dp,cp"} << QList<int>{1, 16, 4, 2};
    }
    void everyRankInOneGroupOfEachDimension()
    {
        QFETCH(QStringList, order);
        QFETCH(QList<int>, strides);
        const Run run = runCli(QStringList{"mesh", "--json"} + kSixteen + order);
        QCOMPARE(run.exit_code, 0);
        const QJsonObject mesh = parse(run.out);
        QCOMPARE(mesh["gpus"].toInt(), 16);
        QCOMPARE(mesh["nodes"].toInt(), 2);
        const QJsonObject degrees = mesh["degrees"].toObject();
        QCOMPARE(degrees["tp"].toInt(), 2);
        QCOMPARE(degrees["dp"].toInt(), 4);
        QCOMPARE(degrees["pp"].toInt(), 2);
        const QJsonArray ranks = mesh["ranks"].toArray();
        QCOMPARE(ranks.size(), 16);
        for (const char *dim : {"tp", "cp", "ep", "dp", "pp"}) {
            // group index -> members; each member's position inside its group is distinct.
            std::map<int, std::set<int>> positions;
            std::map<int, int> members;
            for (const QJsonValue &value : ranks) {
                const QJsonObject group = value.toObject()[dim].toObject();
                const int id = group["group"].toInt(-1);
                QVERIFY2(id >= 0, dim);
                ++members[id];
                QVERIFY2(positions[id].insert(group["index"].toInt()).second, dim);
            }
            const int size = degrees[dim].toInt();
            QCOMPARE(int(members.size()), 16 / size);
            for (const auto &[id, count] : members)
                QCOMPARE(count, size);
        }
        // Coordinates follow the order: tp index = (rank / stride) % tp, etc.; nodes are blocks of 8.
        const char *axes[] = {"tp", "cp", "dp", "pp"};
        for (const QJsonValue &value : ranks) {
            const QJsonObject entry = value.toObject();
            const int rank = entry["rank"].toInt();
            QCOMPARE(entry["node"].toInt(), rank / 8);
            for (int a = 0; a < 4; ++a) {
                const int size = degrees[axes[a]].toInt();
                QCOMPARE(entry[axes[a]].toObject()["index"].toInt(), (rank / strides[a]) % size);
            }
        }
    }

    void tensorParallelAcrossNodesIsFlagged()
    {
        const Run run = runCli({"mesh", "--gpus", "32", "--gpus-per-node", "8", "--tp", "16", "--pp", "1",
                                "--dp", "2", "--model", "gpt3-175b"});  // 96 heads and KV heads: tp 16 is valid
        QCOMPARE(run.exit_code, 0);
        QVERIFY2(run.out.contains("tp 16 crosses nodes"), run.out.constData());
        QCOMPARE(run.out.count('\n') > 32, true);
    }

    void badInputExitsTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("flag");
        QTest::addRow("order") << QStringList{"--order", "tp,xx,dp,pp"} << "--order";
        QTest::addRow("order without pp") << QStringList{"--order", "tp,cp,dp"} << "order";
        QTest::addRow("gpus") << QStringList{"--gpus", "lots"} << "--gpus";
        QTest::addRow("degrees") << QStringList{"--gpus", "16", "--tp", "2", "--pp", "2", "--dp", "3"} << "dp";
    }
    void badInputExitsTwo()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, flag);
        const Run run = runCli(QStringList{"mesh"} + arguments);
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(flag.toUtf8()), run.err.constData());
    }
};

QTEST_MAIN(TestCliMesh)
#include "test_cli_mesh.moc"
