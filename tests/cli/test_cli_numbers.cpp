// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli numbers`: the JSON fields the issue names equal core/numbers (formats[] with null
// where a property does not apply; results[] with "inf"/"nan" as strings and the bits as 0/1), the
// OCP E4M3 overflow rule through the CLI, and bad input exits 2 naming the flag on stderr.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "cli_run.h"
#include "numbers/float_format.h"

#include <cmath>

using lse::test::Run;
using lse::test::runCli;
namespace numbers = lse::numbers;

namespace {

QJsonObject parse(const QByteArray &text)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("not JSON: %s", qPrintable(error.errorString()));
    return document.object();
}

QJsonObject onlyResult(const QStringList &arguments)
{
    const Run run = runCli(arguments);
    if (run.exit_code != 0)
        qFatal("numbers failed: %s", run.err.constData());
    const QJsonArray results = parse(run.out)["results"].toArray();
    if (results.size() != 1)
        qFatal("expected one result, got %d", int(results.size()));
    return results.first().toObject();
}

}  // namespace

class TestCliNumbers : public QObject {
    Q_OBJECT
private slots:
    void formatsListsEveryFormatAsCoreComputesIt()
    {
        const Run run = runCli({"numbers", "--formats", "--json"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.err.isEmpty());
        const QJsonArray formats = parse(run.out)["formats"].toArray();
        const QStringList names{"fp32", "tf32", "bf16", "fp16", "fp8-e4m3", "fp8-e5m2", "int8"};
        QCOMPARE(formats.size(), names.size());
        for (int i = 0; i < formats.size(); ++i) {
            const QJsonObject object = formats[i].toObject();
            QCOMPARE(object["name"].toString(), names[i]);
            const numbers::FloatFormat &f = numbers::floatFormat(*numbers::formatFromName(names[i].toStdString()));
            QCOMPARE(object["bits"].toInt(), f.bits);
            QCOMPARE(object["exponent_bits"].toInt(), f.exponent_bits);
            QCOMPARE(object["mantissa_bits"].toInt(), f.mantissa_bits);
            QCOMPARE(object["max"].toDouble(), f.max);
            for (const char *key : {"min_normal", "min_subnormal", "epsilon"}) {
                QVERIFY2(object.contains(key), key);
                QCOMPARE(object[key].isNull(), f.is_integer);
            }
        }
        const QJsonObject tf32 = formats[1].toObject();
        QCOMPARE(tf32["bits"].toInt(), 19);
        QCOMPARE(tf32["epsilon"].toDouble(), std::ldexp(1.0, -10));
        const QJsonObject fp16 = formats[3].toObject();
        QCOMPARE(fp16["max"].toDouble(), 65504.0);
        QCOMPARE(fp16["min_subnormal"].toDouble(), std::ldexp(1.0, -24));
        QCOMPARE(formats[4].toObject()["max"].toDouble(), 448.0);
        QCOMPARE(formats[5].toObject()["max"].toDouble(), 57344.0);
        QCOMPARE(formats[6].toObject()["max"].toDouble(), 127.0);
    }

    void valueRoundsInEveryFormat()
    {
        const Run run = runCli({"numbers", "--value", "0.1", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonArray results = parse(run.out)["results"].toArray();
        QCOMPARE(results.size(), qsizetype(numbers::allFormats().size()));
        for (const QJsonValue &item : results) {
            const QJsonObject object = item.toObject();
            const auto id = numbers::formatFromName(object["format"].toString().toStdString());
            QVERIFY(id.has_value());
            const numbers::Rounded expected = numbers::roundToFormat(*id, 0.1);
            QCOMPARE(object["stored"].toDouble(), expected.stored);
            QCOMPARE(object["bits"].toString(), QString::fromStdString(numbers::bitString(*id, expected.bits)));
            QCOMPARE(object["bits"].toString().size(), numbers::floatFormat(*id).bits);
            QCOMPARE(object["abs_error"].toDouble(), std::abs(expected.stored - 0.1));
            QCOMPARE(object["rel_error"].toDouble(), std::abs(expected.stored - 0.1) / 0.1);
        }
        QCOMPARE(results[0].toObject()["stored"].toDouble(), double(0.1f));
    }

    // 464 is a tie between 448 and 480 and goes to the even 448; 480 overflows to NaN; saturating → 448.
    void e4m3OverflowThroughTheCli()
    {
        const QJsonObject tie = onlyResult({"numbers", "--value", "464", "--format", "fp8-e4m3", "--json"});
        QCOMPARE(tie["stored"].toDouble(), 448.0);
        QCOMPARE(tie["bits"].toString(), QStringLiteral("01111110"));
        QCOMPARE(tie["abs_error"].toDouble(), 16.0);
        const QJsonObject nan = onlyResult({"numbers", "--value", "480", "--format", "fp8-e4m3", "--json"});
        QCOMPARE(nan["stored"].toString(), QStringLiteral("nan"));
        QCOMPARE(nan["bits"].toString(), QStringLiteral("01111111"));
        QCOMPARE(nan["abs_error"].toString(), QStringLiteral("nan"));
        const QJsonObject saturated =
            onlyResult({"numbers", "--value", "480", "--format", "fp8-e4m3", "--saturate", "--json"});
        QCOMPARE(saturated["stored"].toDouble(), 448.0);
        const QJsonObject inf = onlyResult({"numbers", "--value", "-70000", "--format", "fp16", "--json"});
        QCOMPARE(inf["stored"].toString(), QStringLiteral("-inf"));
        QCOMPARE(inf["bits"].toString(), QStringLiteral("1111110000000000"));
        QCOMPARE(inf["abs_error"].toString(), QStringLiteral("inf"));
        const QJsonObject int8 = onlyResult({"numbers", "--value", "-2.5", "--format", "int8", "--json"});
        QCOMPARE(int8["stored"].toDouble(), -2.0);
        QCOMPARE(int8["bits"].toString(), QStringLiteral("11111110"));
    }

    void textOutputIsATable()
    {
        const Run run = runCli({"numbers", "--formats", "--value", "464"});
        QCOMPARE(run.exit_code, 0);
        const QString text = QString::fromUtf8(run.out);
        QVERIFY(text.contains("65504"));
        QVERIFY(text.contains("fp8-e4m3"));
        QVERIFY(text.contains("01111110"));  // 464 in E4M3 = 448
    }

    void badInputExitsTwoNamingTheFlag_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("flag");
        QTest::newRow("nothing") << QStringList{"numbers"} << "--value";
        QTest::newRow("not a number") << QStringList{"numbers", "--value", "abc"} << "--value";
        QTest::newRow("nan") << QStringList{"numbers", "--value", "nan"} << "--value";
        QTest::newRow("overflowing double") << QStringList{"numbers", "--value", "1e999"} << "--value";
        QTest::newRow("unknown format") << QStringList{"numbers", "--value", "1", "--format", "fp64"} << "--format";
        QTest::newRow("saturate alone") << QStringList{"numbers", "--formats", "--saturate"} << "--saturate";
        QTest::newRow("value missing its argument") << QStringList{"numbers", "--value"} << "value";
        QTest::newRow("stray argument") << QStringList{"numbers", "--formats", "fp16"} << "fp16";
    }

    void badInputExitsTwoNamingTheFlag()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, flag);
        const Run run = runCli(arguments);
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(QString::fromUtf8(run.err).contains(flag), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliNumbers)
#include "test_cli_numbers.moc"
