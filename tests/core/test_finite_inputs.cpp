// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 14, items 8 and 9 in the core: numbers are read as decimals only and stay finite after their
// suffix, and an estimate whose time is not finite names the input field that made it so.

#include "common/number_text.h"
#include "cost/estimate.h"
#include "scenario/presets.h"
#include "scenario/scenario.h"
#include "scenario/scenario_json.h"

#include <QTest>

#include <cmath>

using namespace lse;

class TestFiniteInputs : public QObject {
    Q_OBJECT
private slots:
    void numberTextIsDecimalAndFinite_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("accepted");
        QTest::addRow("hex count") << "0x10" << false;
        QTest::addRow("hex float") << "0x1p4" << false;
        QTest::addRow("inf") << "inf" << false;
        QTest::addRow("infinity") << "-Infinity" << false;
        QTest::addRow("nan") << "nan" << false;
        QTest::addRow("suffix overflows") << "-1e308T" << false;
        QTest::addRow("suffix overflows up") << "1e300T" << false;
        QTest::addRow("plain") << "4096" << true;
        QTest::addRow("exponent") << "1.5e13" << true;
        QTest::addRow("suffix") << "15T" << true;
        QTest::addRow("negative") << "-2.5" << true;
        QTest::addRow("tiny") << "1e-320" << true;
    }
    void numberTextIsDecimalAndFinite()
    {
        QFETCH(QString, text);
        QFETCH(bool, accepted);
        const std::optional<double> value = parseNumberText(text.toStdString());
        QCOMPARE(value.has_value(), accepted);
        if (value)
            QVERIFY(std::isfinite(*value));
    }

    void countTextRefusesHex()
    {
        QVERIFY(!parseCountText("0x10"));
        QVERIFY(!parseCountText("0X10"));
        QCOMPARE(parseCountText("16"), std::optional<std::int64_t>(16));
    }

    // Validation accepts any positive peak or MFU; one that makes the time infinite is named.
    void nonFiniteTimeNamesTheInput_data()
    {
        QTest::addColumn<double>("peak_override");  // 0: none
        QTest::addColumn<double>("mfu");
        QTest::addColumn<double>("price");
        QTest::addColumn<QString>("field");
        QTest::addRow("peak 1e-308") << 1e-308 << 0.4 << 2.0 << "cluster.peak_flops_per_second_override";
        QTest::addRow("peak 1e308") << 1e308 << 0.4 << 2.0 << "cluster.peak_flops_per_second_override";
        QTest::addRow("mfu 1e-320") << 0.0 << 1e-320 << 2.0 << "training.mfu";
        QTest::addRow("price 1e308") << 0.0 << 0.4 << 1e308 << "cluster.price_per_gpu_hour";
    }
    void nonFiniteTimeNamesTheInput()
    {
        QFETCH(double, peak_override);
        QFETCH(double, mfu);
        QFETCH(double, price);
        QFETCH(QString, field);
        Scenario scenario = defaultScenario();
        if (peak_override > 0)
            scenario.cluster.peak_flops_per_second_override = peak_override;
        scenario.training.mfu = mfu;
        scenario.cluster.price_per_gpu_hour = price;
        QVERIFY(validate(scenario).empty());
        const Result<Estimate> result = estimate(scenario);
        QVERIFY(!result.ok());
        QCOMPARE(result.problems().size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(result.problems().front().field), field);
        QVERIFY2(result.problems().front().message.find("not a finite number") != std::string::npos,
                 result.problems().front().message.c_str());
    }

    void ordinaryScenarioHasFiniteTime()
    {
        const Result<Estimate> result = estimate(defaultScenario());
        QVERIFY2(result.ok(), formatProblems(result.problems()).c_str());
        QVERIFY(std::isfinite(result->time.seconds) && result->time.seconds > 0);
    }
};

QTEST_GUILESS_MAIN(TestFiniteInputs)
#include "test_finite_inputs.moc"
