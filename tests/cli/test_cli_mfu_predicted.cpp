// SPDX-License-Identifier: GPL-3.0-or-later
// `--mfu predicted` (issue 17): `estimate --json` names the MFU's source and, with the prediction,
// reports the predicted step, MFU, HFU and the step's parts; the training time follows from the
// predicted MFU. A typed MFU keeps working and is reported as given; anything that is neither
// "predicted" nor a number exits 2 naming --mfu.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "cli_run.h"

#include <cmath>

using lse::test::Run;
using lse::test::estimateJson;
using lse::test::runCli;

namespace {


bool near(double a, double b, double relative = 1e-9) { return std::fabs(a - b) <= relative * std::fabs(b); }

}  // namespace

class TestCliMfuPredicted : public QObject {
    Q_OBJECT
private slots:
    void predictedFieldsArePresent()
    {
        const QJsonObject time = estimateJson({"--mfu", "predicted"})["time"].toObject();
        QCOMPARE(time["mfu_source"].toString(), QStringLiteral("predicted"));
        for (const char *key : {"predicted_step_seconds", "predicted_mfu", "predicted_hfu"})
            QVERIFY2(time[QLatin1String(key)].toDouble() > 0, key);
        QVERIFY(time["step_breakdown"].isObject());
        QVERIFY(!time["step_breakdown"].toObject().isEmpty());
        QCOMPARE(time["mfu"].toDouble(), time["predicted_mfu"].toDouble());
        QVERIFY(time["predicted_mfu"].toDouble() <= 1.0);
    }

    void stepPartsSumToThePredictedStep()
    {
        const QJsonObject time = estimateJson({"--mfu", "predicted"})["time"].toObject();
        double sum = 0;
        const QJsonObject parts = time["step_breakdown"].toObject();
        for (auto it = parts.begin(); it != parts.end(); ++it) {
            QVERIFY2(it.value().toDouble() >= 0, qPrintable(it.key()));
            sum += it.value().toDouble();
        }
        QVERIFY2(near(sum, time["predicted_step_seconds"].toDouble()),
                 qPrintable(QStringLiteral("%1 vs %2").arg(sum).arg(time["predicted_step_seconds"].toDouble())));
    }

    // days = tokens / (tokens/s) / 86,400, and the throughput is the one the predicted MFU gives:
    // tokens/s = gpus · peak · MFU / (model FLOPs per token), the step = tokens per step / tokens/s.
    void trainingTimeFollowsThePredictedMfu()
    {
        const QJsonObject estimate = estimateJson({"--mfu", "predicted", "--tokens", "1T"});
        const QJsonObject time = estimate["time"].toObject();
        const double tokens = 1e12;
        QVERIFY(near(time["days"].toDouble(), tokens / time["tokens_per_second"].toDouble() / 86400.0));
        const double throughput = estimate["gpus"].toDouble() * time["peak_flops_per_gpu"].toDouble()
            * time["predicted_mfu"].toDouble() / estimate["flops"]["train_per_token"].toDouble();
        QVERIFY(near(time["tokens_per_second"].toDouble(), throughput));
        // The exact FLOP count is the time basis here, so the training step is the predicted one.
        QVERIFY(near(time["step_seconds"].toDouble(), time["predicted_step_seconds"].toDouble(), 1e-6));
    }

    // Issue 29 §2: the band is the accelerator's leave-one-source-out 90th percentile p, the
    // interval [t/(1 + p), t/(1 − p)]; MFU moves the other way. B200 has no published runs: no band,
    // equal bounds, and a basis that says so.
    void predictionCarriesItsErrorBand()
    {
        const QJsonObject h100 = estimateJson({"--mfu", "predicted", "--gpu", "h100-sxm"})["time"].toObject();
        const double p = h100["band_fraction"].toDouble();
        QVERIFY(p > 0.05 && p < 0.5);
        const double step = h100["predicted_step_seconds"].toDouble();
        QVERIFY(near(h100["predicted_step_seconds_low"].toDouble(), step / (1 + p)));
        QVERIFY(near(h100["predicted_step_seconds_high"].toDouble(), step / (1 - p)));
        QVERIFY(near(h100["predicted_mfu_high"].toDouble(), h100["predicted_mfu"].toDouble() * (1 + p)));
        QVERIFY(h100["seconds_low"].toDouble() < h100["seconds"].toDouble());
        QVERIFY(h100["band_basis"].toString().contains("leave-one-source-out"));

        const QJsonObject b200 = estimateJson({"--mfu", "predicted", "--gpu", "b200"})["time"].toObject();
        QCOMPARE(b200["band_fraction"].toDouble(), 0.0);
        QCOMPARE(b200["predicted_step_seconds_low"].toDouble(), b200["predicted_step_seconds"].toDouble());
        QVERIFY2(b200["band_basis"].toString().contains("error unknown"), qPrintable(b200["band_basis"].toString()));
        const Run text = runCli({"estimate", "--mfu", "predicted", "--gpu", "b200"});
        QVERIFY(text.out.contains("no published runs: H100 SXM factors, error unknown"));
    }

    // --attention-kernel and --fused-elementwise reach the prediction: FlashAttention-3 is faster
    // than -2 on an H100 (its fitted fraction is higher); unfused element-wise kernels are slower.
    void kernelFlagsChangeThePrediction()
    {
        const QStringList base{"--mfu", "predicted", "--gpu", "h100-sxm", "--flash-attention", "on"};
        const double flash2 = estimateJson(base + QStringList{"--attention-kernel", "flash2"})["time"].toObject()["predicted_step_seconds"].toDouble();
        const double flash3 = estimateJson(base + QStringList{"--attention-kernel", "flash3"})["time"].toObject()["predicted_step_seconds"].toDouble();
        QVERIFY2(flash3 < flash2, qPrintable(QStringLiteral("%1 vs %2").arg(flash3).arg(flash2)));
        const double fused = estimateJson(base + QStringList{"--fused-elementwise", "on"})["time"].toObject()["predicted_step_seconds"].toDouble();
        const double unfused = estimateJson(base + QStringList{"--fused-elementwise", "off"})["time"].toObject()["predicted_step_seconds"].toDouble();
        QVERIFY(unfused > fused);
        const Run bad = runCli({"estimate", "--attention-kernel", "flash4"});
        QCOMPARE(bad.exit_code, 2);
        QVERIFY2(bad.err.contains("--attention-kernel"), bad.err.constData());
    }

    void aTypedMfuIsGivenAndHasNoPrediction()
    {
        const QJsonObject time = estimateJson({"--mfu", "0.35"})["time"].toObject();
        QCOMPARE(time["mfu_source"].toString(), QStringLiteral("given"));
        QCOMPARE(time["mfu"].toDouble(), 0.35);
        QVERIFY(!time.contains("predicted_mfu"));
        QVERIFY(!time.contains("step_breakdown"));
    }

    void theTextReportSaysWhereTheMfuComesFrom()
    {
        const Run predicted = runCli({"estimate", "--mfu", "predicted"});
        QCOMPARE(predicted.exit_code, 0);
        QVERIFY2(predicted.out.contains("% (predicted)"), predicted.out.constData());
        const Run given = runCli({"estimate", "--mfu", "0.35"});
        QCOMPARE(given.exit_code, 0);
        QVERIFY2(given.out.contains("MFU 35.0 % (given)"), given.out.constData());
    }

    void badValuesExitTwoNamingTheFlag_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("banana") << QStringLiteral("banana");
        QTest::newRow("zero") << QStringLiteral("0");
        QTest::newRow("above one") << QStringLiteral("1.5");
        QTest::newRow("negative") << QStringLiteral("-0.3");
        QTest::newRow("predicted with a typo") << QStringLiteral("predict");
    }
    void badValuesExitTwoNamingTheFlag()
    {
        QFETCH(QString, value);
        const Run run = runCli({"estimate", "--mfu", value});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains("--mfu"), run.err.constData());
        QVERIFY2(run.err.contains(value.toUtf8()), run.err.constData());
    }

    void theHelpNamesPredicted()
    {
        const Run run = runCli({"estimate", "--help"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.out.contains("--mfu <X|predicted>"));
    }
};

QTEST_GUILESS_MAIN(TestCliMfuPredicted)
#include "test_cli_mfu_predicted.moc"
