// SPDX-License-Identifier: GPL-3.0-or-later
// The cluster's link flags of the shared scenario options (--intra-node-gbps, --inter-node-gbps,
// --link-latency-us, --dp-overlap): `estimate --json` reports the links it used and where each
// bandwidth came from, a flag changes the communication time in the expected direction, the
// catalog's own value typed as a flag changes nothing, and bad values exit 2 naming the flag.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "cli_run.h"

using lse::test::Run;
using lse::test::estimateJson;
using lse::test::runCli;

namespace {


QJsonObject links(const QJsonObject &estimate) { return estimate["communication_per_step"]["links"].toObject(); }

// One figure of one link ("intra_node" or "inter_node") as `estimate --json` reports it.
QJsonValue link(const QJsonObject &estimate, const char *side, const char *key)
{
    return links(estimate)[QLatin1String(side)].toObject()[QLatin1String(key)];
}

double communicationSeconds(const QJsonObject &estimate)
{
    return estimate["communication_per_step"]["seconds"].toDouble();
}

}  // namespace

class TestCliLinks : public QObject {
    Q_OBJECT
private slots:
    // The course example runs on H100 SXM: NVLink4 450 GB/s and NDR 50 GB/s per direction in the catalog.
    void defaultsComeFromTheCatalog()
    {
        const QJsonObject used = estimateJson({"--gpu", "h100-sxm"});
        QCOMPARE(link(used, "intra_node", "gbps_per_gpu").toDouble(), 450e9 * 8 / 1e9);
        QCOMPARE(link(used, "inter_node", "gbps_per_gpu").toDouble(), 50e9 * 8 / 1e9);
        QCOMPARE(link(used, "intra_node", "bandwidth_source").toString(), QStringLiteral("catalog"));
        QCOMPARE(link(used, "inter_node", "bandwidth_source").toString(), QStringLiteral("catalog"));
        QCOMPARE(links(used)["dp_overlap"].toBool(), true);
    }

    void aSlowerNetworkTakesLonger()
    {
        const QJsonObject base = estimateJson({"--gpu", "h100-sxm"});
        const QJsonObject slow = estimateJson({"--gpu", "h100-sxm", "--inter-node-gbps", "100"});
        QCOMPARE(link(slow, "inter_node", "gbps_per_gpu").toDouble(), 100.0);
        QCOMPARE(link(slow, "inter_node", "bandwidth_source").toString(), QStringLiteral("scenario"));
        QVERIFY(communicationSeconds(slow) > communicationSeconds(base));
    }

    void theCatalogValueTypedAsAFlagChangesNothing()
    {
        const QJsonObject base = estimateJson({"--gpu", "h100-sxm"});
        const QJsonObject same = estimateJson({"--gpu", "h100-sxm", "--inter-node-gbps", "400", "--intra-node-gbps", "3600"});
        QCOMPARE(communicationSeconds(same), communicationSeconds(base));
    }

    void linkLatencySetsEveryHop()
    {
        const QJsonObject base = estimateJson({});
        const QJsonObject slow = estimateJson({"--link-latency-us", "50"});
        QCOMPARE(link(slow, "intra_node", "latency_us").toDouble(), 50.0);
        QCOMPARE(link(slow, "inter_node", "latency_us").toDouble(), 50.0);
        QVERIFY(communicationSeconds(slow) > communicationSeconds(base));
    }

    void dpOverlapIsReported()
    {
        QCOMPARE(links(estimateJson({"--dp-overlap", "off"}))["dp_overlap"].toBool(), false);
        QCOMPARE(links(estimateJson({"--dp-overlap", "on"}))["dp_overlap"].toBool(), true);
    }

    void badValuesExitTwoNamingTheFlag_data()
    {
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("value");
        QTest::addRow("intra zero") << "--intra-node-gbps" << "0";
        QTest::addRow("intra negative") << "--intra-node-gbps" << "-5";
        QTest::addRow("inter text") << "--inter-node-gbps" << "fast";
        QTest::addRow("inter infinite") << "--inter-node-gbps" << "inf";
        QTest::addRow("latency negative") << "--link-latency-us" << "-1";
        QTest::addRow("latency nan") << "--link-latency-us" << "nan";
        QTest::addRow("overlap word") << "--dp-overlap" << "sometimes";
    }
    void badValuesExitTwoNamingTheFlag()
    {
        QFETCH(QString, flag);
        QFETCH(QString, value);
        const Run run = runCli({"estimate", flag, value});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains(flag.toUtf8()), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliLinks)
#include "test_cli_links.moc"
