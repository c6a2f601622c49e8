// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli attention` and `gemm-waves`: the JSON equals core/kernels' figures (Dao et al.
// 2022 Algorithm 0's (4Nd + 4N²)·E, Algorithm 1's blocks; kernel_time's tiles and waves), and bad
// flags exit 2 naming the flag, with nothing on stdout.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "cli_run.h"
#include "hardware/hardware_catalog.h"
#include "kernels/flash_attention_io.h"
#include "kernels/fusion_chain.h"
#include "kernels/gemm_waves.h"

using lse::test::Run;
using lse::test::runCli;
namespace kernels = lse::kernels;

namespace {

QJsonObject parse(const QByteArray &text)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("not JSON: %s", qPrintable(error.errorString()));
    return document.object();
}

}  // namespace

class TestCliKernels : public QObject {
    Q_OBJECT
private slots:
    void attentionJsonEqualsCore()
    {
        const Run run = runCli({"attention", "--n", "4096", "--d", "64", "--sram-bytes", "100000", "--causal", "--json"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.err.isEmpty());
        const QJsonObject json = parse(run.out);
        const kernels::AttentionIo io = *kernels::attentionIo({4096, 64, 100000, 2, true});
        QCOMPARE(json["standard"]["hbm_bytes"].toDouble(), double((4 * 4096 * 64 + 4 * 4096.0 * 4096) * 2));
        QCOMPARE(json["standard"]["flops"].toDouble(), double(io.standard_forward.flops));
        QCOMPARE(json["flash"]["hbm_bytes"].toDouble(), double(io.flash_forward.hbmBytes()));
        QCOMPARE(json["flash"]["flops"].toDouble(), double(io.flash_forward.flops));
        QCOMPARE(json["flash"]["block_rows"].toDouble(), 64.0);
        QCOMPARE(json["flash"]["block_cols"].toDouble(), double(io.blocks.block_columns));
        QCOMPARE(json["flash2"]["hbm_bytes"].toDouble(), double(io.flash2_forward.hbmBytes()));
        QCOMPARE(json["backward"]["flash"]["hbm_bytes"].toDouble(), double(io.flash_backward.hbmBytes()));
        QCOMPARE(json["backward"]["flash2"]["hbm_bytes"].toDouble(), double(io.flash2_backward.hbmBytes()));
        QCOMPARE(json["backward"]["flash2"]["flops"].toDouble(), double(io.flash2_backward.flops));
        QCOMPARE(json["backward"]["standard"]["flops"].toDouble(), double(io.standard_backward.flops));
        QCOMPARE(json["blocks"]["skipped_blocks"].toDouble(), double(io.skipped_blocks));
        QVERIFY(json["standard"]["memory_bound"].toBool());
    }

    // --measure times the reference kernels here: both ran, and at N = 1024 the tiled one's working
    // memory (its blocks) is a fraction of the naive one's N x N scores (4 bytes each). At N = 256
    // the two are alike: a thread's blocks hold as much as the whole score matrix.
    void attentionMeasureTimesBothKernels()
    {
        const Run run = runCli({"attention", "--n", "1024", "--d", "32", "--causal", "--measure", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject measured = parse(run.out)["measured"].toObject();
        QVERIFY2(!measured.isEmpty(), qPrintable(run.out));
        for (const char *kernel : {"naive", "tiled"}) {
            const QJsonObject k = measured[kernel].toObject();
            QVERIFY2(k["seconds"].toDouble() > 0, kernel);
            QVERIFY2(k["peak_bytes"].toDouble() > 0, kernel);
        }
        QVERIFY(measured["naive"]["working_bytes"].toDouble() >= 1024.0 * 1024 * 4);
        QVERIFY(measured["tiled"]["working_bytes"].toDouble() < measured["naive"]["working_bytes"].toDouble() / 4);
    }

    void attentionStepsEndAtTheClosedForms()
    {
        for (const char *algorithm : {"standard", "flash", "flash2"}) {
            const Run run = runCli({"attention", "--n", "100", "--d", "16", "--sram-bytes", "1024", "--causal", "--steps",
                                    algorithm, "--values", "--json"});
            QCOMPARE(run.exit_code, 0);
            const QJsonObject json = parse(run.out);
            const QJsonObject last = json["steps"].toArray().last().toObject()["cumulative"].toObject();
            const QString key = QString::fromLatin1(algorithm);
            const QJsonObject closed = json[key].toObject();
            QCOMPARE(last["read_bytes"].toDouble() + last["written_bytes"].toDouble(), closed["hbm_bytes"].toDouble());
            QCOMPARE(last["flops"].toDouble(), closed["flops"].toDouble());
            QVERIFY(json["example_max_abs_error"].toDouble() < 1e-12);
        }
    }

    void attentionChosenBlocks()
    {
        const Run run = runCli({"attention", "--n", "4096", "--d", "64", "--block-rows", "128", "--block-cols", "64", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject json = parse(run.out);
        QCOMPARE(json["flash"]["block_rows"].toDouble(), 128.0);
        QCOMPARE(json["flash"]["block_cols"].toDouble(), 64.0);
        // FlashAttention-2 order: Q once, K and V once per Q block (32 of them), O and L once.
        QCOMPARE(json["flash2"]["read_bytes"].toDouble(), (4096.0 * 64 + 32 * 2 * 4096.0 * 64) * 2);
    }

    void attentionDefaultsToTheGpusSharedMemory()
    {
        const Run run = runCli({"attention", "--n", "1024", "--d", "128", "--gpu", "a100-sxm-80gb", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject json = parse(run.out);
        QCOMPARE(json["config"]["sram_bytes"].toDouble(), 164.0 * 1024);  // CUDA guide, cc 8.0
        QCOMPARE(json["config"]["gpu"].toString(), QStringLiteral("a100-sxm-80gb"));
        const Run text = runCli({"attention", "--n", "1024", "--d", "128"});
        QCOMPARE(text.exit_code, 0);
        QVERIFY(text.out.contains("flash forward"));
    }

    void attentionBadFlagsExit2NamingTheFlag_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("flag");
        QTest::addRow("no n") << QStringList{"--d", "64"} << "--n";
        QTest::addRow("n zero") << QStringList{"--n", "0", "--d", "64"} << "--n";
        QTest::addRow("d too large") << QStringList{"--n", "64", "--d", "5000"} << "--d";
        QTest::addRow("sram too small") << QStringList{"--n", "64", "--d", "128", "--sram-bytes", "100"} << "--sram-bytes";
        QTest::addRow("dtype bytes 3") << QStringList{"--n", "64", "--d", "64", "--dtype-bytes", "3"} << "--dtype-bytes";
        QTest::addRow("unknown gpu") << QStringList{"--n", "64", "--d", "64", "--gpu", "nope"} << "--gpu";
        QTest::addRow("tpu without sram") << QStringList{"--n", "64", "--d", "64", "--gpu", "tpu-v5p"} << "--sram-bytes";
        QTest::addRow("steps unknown") << QStringList{"--n", "64", "--d", "64", "--steps", "fast"} << "--steps";
        QTest::addRow("values without steps") << QStringList{"--n", "64", "--d", "64", "--values"} << "--values";
        QTest::addRow("values too long") << QStringList{"--n", "4096", "--d", "64", "--steps", "flash", "--values"} << "--values";
        QTest::addRow("steps too many") << QStringList{"--n", "1000000", "--d", "64", "--steps", "flash"} << "--steps";
        QTest::addRow("blocks too big") << QStringList{"--n", "4096", "--d", "128", "--sram-bytes", "65536", "--block-rows", "128", "--block-cols", "128"} << "--block-rows";
        QTest::addRow("block zero") << QStringList{"--n", "64", "--d", "64", "--block-cols", "0"} << "--block-cols";
        QTest::addRow("measure without causal") << QStringList{"--n", "64", "--d", "64", "--measure"} << "--measure";
    }
    void attentionBadFlagsExit2NamingTheFlag()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, flag);
        const Run run = runCli(QStringList{"attention"} + arguments);
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(flag.toUtf8()), run.err.constData());
    }

    void gemmWavesJsonEqualsCore()
    {
        const Run run = runCli({"gemm-waves", "--m", "1408", "--n", "1408", "--k", "4096", "--gpu", "a100-sxm-80gb",
                                "--sweep-n", "128:1024:128", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject json = parse(run.out);
        const kernels::GemmWaves waves = *kernels::gemmWaves({1408, 1408, 4096, lse::DType::BF16},
                                                             *lse::builtinHardwareCatalog().find("a100-sxm-80gb"));
        QCOMPARE(json["tiles"].toDouble(), 121.0);
        QCOMPARE(json["waves"].toDouble(), 2.0);
        QCOMPARE(json["last_wave_tiles"].toDouble(), 13.0);
        QCOMPARE(json["wave_quantisation"].toDouble(), waves.efficiency.wave_quantisation);
        QCOMPARE(json["seconds"].toDouble(), waves.time.seconds);
        QCOMPARE(json["sweep"].toArray().size(), qsizetype(8));
    }

    void fusionJsonEqualsCore()
    {
        const Run run = runCli({"fusion", "--tokens", "1024", "--width", "2048", "--gpu", "a100-sxm-80gb", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject json = parse(run.out);
        lse::kernels::FusionChainConfig config;
        config.tokens = 1024;
        config.width = 2048;
        const lse::kernels::FusionChain chain = *lse::kernels::fusionChain(config, *lse::builtinHardwareCatalog().find("a100-sxm-80gb"));
        QCOMPARE(json["unfused_bytes"].toDouble(), 9 * 1024.0 * 2048 * 2);
        QCOMPARE(json["fused_bytes"].toDouble(), 3 * 1024.0 * 2048 * 2);
        QCOMPARE(json["fused_seconds"].toDouble(), chain.fused_time.seconds);
        QCOMPARE(json["ops"].toArray().size(), qsizetype(4));
        const Run bad = runCli({"fusion", "--ops", "bias,softmax"});
        QCOMPARE(bad.exit_code, 2);
        QVERIFY(bad.out.isEmpty() && bad.err.contains("--ops"));
    }

    // --measure runs the chain on this CPU in float32: the measured object carries both variants'
    // times and the model's bytes at 4 bytes (equal to the fp32 model's), outputs bitwise equal.
    // No time is asserted beyond being positive.
    void fusionMeasureJson()
    {
        const Run run = runCli({"fusion", "--tokens", "32", "--width", "256", "--dtype", "fp32", "--measure",
                                "--repeats", "3", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject json = parse(run.out);
        const QJsonObject measured = json["measured"].toObject();
        QVERIFY2(!measured.isEmpty(), qPrintable(run.out));
        for (const char *variant : {"unfused", "fused"}) {
            const QJsonObject v = measured[variant].toObject();
            QVERIFY2(v["seconds"].toDouble() > 0, variant);
            QCOMPARE(v["bytes_per_second"].toDouble(), v["bytes"].toDouble() / v["seconds"].toDouble());
        }
        QCOMPARE(measured["unfused"]["bytes"].toDouble(), json["unfused_bytes"].toDouble());
        QCOMPARE(measured["fused"]["bytes"].toDouble(), json["fused_bytes"].toDouble());
        QCOMPARE(measured["speedup"].toDouble(),
                 measured["unfused"]["seconds"].toDouble() / measured["fused"]["seconds"].toDouble());
        QVERIFY(measured["outputs_bitwise_equal"].toBool());
        QCOMPARE(measured["repeats"].toInt(), 3);
        const Run text = runCli({"fusion", "--tokens", "8", "--width", "64", "--measure", "--repeats", "1"});
        QCOMPARE(text.exit_code, 0);
        QVERIFY2(text.out.contains("Measured on this CPU") && text.out.contains("bitwise equal"), text.out.constData());
        QVERIFY(!runCli({"fusion", "--tokens", "8", "--width", "64"}).out.contains("Measured"));
    }

    void fusionMeasureBadFlags_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("flag");
        QTest::addRow("partial chain") << QStringList{"--measure", "--ops", "bias,gelu"} << "--measure";
        QTest::addRow("no repeats") << QStringList{"--measure", "--repeats", "0"} << "--repeats";
        QTest::addRow("tensor too large") << QStringList{"--measure", "--tokens", "1000000", "--width", "1000"} << "--tokens";
    }
    void fusionMeasureBadFlags()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, flag);
        const Run run = runCli(QStringList{"fusion"} + arguments);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.out.isEmpty() && run.err.contains(flag.toUtf8()), run.err.constData());
    }

    void gemmWavesBadFlags_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("flag");
        QTest::addRow("no k") << QStringList{"--m", "64", "--n", "64"} << "--k";
        QTest::addRow("fp8 on a100") << QStringList{"--m", "64", "--n", "64", "--k", "64", "--gpu", "a100-sxm-80gb", "--dtype", "fp8"} << "--dtype";
        QTest::addRow("bad sweep") << QStringList{"--m", "64", "--n", "64", "--k", "64", "--sweep-n", "1:2"} << "--sweep-n";
        QTest::addRow("huge sweep") << QStringList{"--m", "64", "--n", "64", "--k", "64", "--sweep-n", "1:1000000:1"} << "--sweep-n";
    }
    void gemmWavesBadFlags()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, flag);
        const Run run = runCli(QStringList{"gemm-waves"} + arguments);
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(flag.toUtf8()), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliKernels)
#include "test_cli_kernels.moc"
