// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli scaling`: the JSON fields the issue names (compute, optimal.params/tokens/loss,
// loss, tokens_per_param) equal core/scaling's closed form; the Gopher budget reports Table 3 next
// to it; bad input exits 2 with the flag named on stderr.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "cli_run.h"
#include "scaling/chinchilla_law.h"

#include <cmath>

using lse::test::Run;
using lse::test::runCli;
namespace scaling = lse::scaling;

namespace {

QJsonObject parse(const QByteArray &text)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("not JSON: %s", qPrintable(error.errorString()));
    return document.object();
}

bool near(double value, double expected) { return std::abs(value - expected) <= 1e-12 * std::abs(expected); }

}  // namespace

class TestCliScaling : public QObject {
    Q_OBJECT
private slots:
    void computeGivesTheClosedFormOptimum()
    {
        const Run run = runCli({"scaling", "--compute", "1e22", "--json"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.err.isEmpty());
        const QJsonObject object = parse(run.out);
        const scaling::ComputeOptimum optimum = scaling::computeOptimum(1e22);
        QCOMPARE(object["compute"].toDouble(), 1e22);
        const QJsonObject optimal = object["optimal"].toObject();
        QVERIFY(near(optimal["params"].toDouble(), optimum.params));
        QVERIFY(near(optimal["tokens"].toDouble(), optimum.tokens));
        QVERIFY(near(optimal["loss"].toDouble(), optimum.loss));
        // Only the budget given: tokens per parameter of the optimum; no loss of a given model.
        QVERIFY(near(object["tokens_per_param"].toDouble(), optimum.tokens / optimum.params));
        QVERIFY(!object.contains("loss"));
        QVERIFY(!object.contains("table3"));
        const QJsonObject rule = object["twenty_tokens_per_param"].toObject();
        QVERIFY(near(rule["tokens"].toDouble() / rule["params"].toDouble(), 20));
    }

    void paramsAndTokensGiveSixNDAndTheirLoss()
    {
        const Run run = runCli({"scaling", "--params", "70B", "--tokens", "1.4e12", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject object = parse(run.out);
        QVERIFY(near(object["compute"].toDouble(), 6 * 70e9 * 1.4e12));
        QVERIFY(near(object["loss"].toDouble(), scaling::loss(70e9, 1.4e12)));
        QVERIFY(near(object["tokens_per_param"].toDouble(), 20));
        const scaling::ComputeOptimum optimum = scaling::computeOptimum(6 * 70e9 * 1.4e12);
        QVERIFY(near(object["optimal"].toObject()["params"].toDouble(), optimum.params));
        QVERIFY(object["loss"].toDouble() > object["optimal"].toObject()["loss"].toDouble());
    }

    // 5.76e23 FLOPs: approach 3 says ≈32B / ≈3.0T, Table 3 (approach 1) 67B / 1.5T; both reported.
    void gopherBudgetReportsTable3BesideTheClosedForm()
    {
        const Run run = runCli({"scaling", "--compute", "5.76e23", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject object = parse(run.out);
        const QJsonObject optimal = object["optimal"].toObject();
        QVERIFY(std::abs(optimal["params"].toDouble() / 1e9 - 32) < 1);
        QVERIFY(std::abs(optimal["tokens"].toDouble() / 1e12 - 3.0) < 0.1);
        const QJsonObject table = object["table3"].toObject();
        QCOMPARE(table["params"].toDouble(), 67e9);
        QCOMPARE(table["tokens"].toDouble(), 1.5e12);
        QVERIFY(table["source"].toString().contains("Table 3"));
        QVERIFY(!table["why_different"].toString().isEmpty());

        const Run text = runCli({"scaling", "--compute", "5.76e23"});
        QCOMPARE(text.exit_code, 0);
        QVERIFY2(text.out.contains("32.19B") && text.out.contains("67.00B") && text.out.contains("1.50T"),
                 text.out.constData());
    }

    void badInputExitsTwoNamingTheFlag_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("flag");
        QTest::addRow("nothing") << QStringList{} << "--compute";
        QTest::addRow("both forms") << QStringList{"--compute", "1e22", "--params", "1e9"} << "--params";
        QTest::addRow("params without tokens") << QStringList{"--params", "1e9"} << "--tokens";
        QTest::addRow("tokens without params") << QStringList{"--tokens", "1e9"} << "--params";
        QTest::addRow("zero compute") << QStringList{"--compute", "0"} << "--compute";
        QTest::addRow("negative compute") << QStringList{"--compute", "-1e22"} << "--compute";
        QTest::addRow("below one parameter-token") << QStringList{"--compute", "1e-320"} << "--compute";
        QTest::addRow("inf compute") << QStringList{"--compute", "inf"} << "--compute";
        QTest::addRow("nan compute") << QStringList{"--compute", "nan"} << "--compute";
        QTest::addRow("trailing junk") << QStringList{"--compute", "1e22x"} << "--compute";
        QTest::addRow("zero params") << QStringList{"--params", "0", "--tokens", "1e9"} << "--params";
        QTest::addRow("junk tokens") << QStringList{"--params", "1e9", "--tokens", "lots"} << "--tokens";
        QTest::addRow("6ND overflows") << QStringList{"--params", "1e200", "--tokens", "1e200"} << "--params";
        QTest::addRow("positional") << QStringList{"--compute", "1e22", "extra"} << "extra";
    }
    void badInputExitsTwoNamingTheFlag()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, flag);
        for (const QStringList &mode : {QStringList{}, QStringList{"--json"}}) {
            const Run run = runCli(QStringList{"scaling"} + arguments + mode);
            QCOMPARE(run.exit_code, 2);
            QVERIFY(run.out.isEmpty());
            QVERIFY2(run.err.contains(flag.toUtf8()), run.err.constData());
        }
    }
};

QTEST_MAIN(TestCliScaling)
#include "test_cli_scaling.moc"
