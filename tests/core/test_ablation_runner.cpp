// SPDX-License-Identifier: GPL-3.0-or-later
// The ablation runner (core/reference/ablation/): two variants of a tiny model trained in one go on
// the same tokens and seed (both losses fall, the curves differ, the first batches are equal),
// cancel between steps keeping what finished, results written and read back equal, damaged files
// naming the field, and the standard studies (GLU d_ff at equal parameters, unsupported variants
// named). The model is tiny so the file runs in seconds, also under sanitizers; no timing asserted.
#include "reference/ablation/ablation_results_json.h"
#include "reference/ablation/ablation_runner.h"
#include "reference/model.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <numeric>

using namespace lse;
using namespace lse::reference;

namespace {

TrainConfig tinyBase()
{
    TrainConfig c;
    c.model.name = "ablation-test";
    c.model.n_layers = 1;
    c.model.d_model = 32;
    c.model.n_heads = 2;
    c.model.n_kv_heads = 2;
    c.model.head_dim = 16;
    c.model.d_ff = 64;
    c.model.vocab_size = 300;
    c.model.max_seq_len = 32;
    c.batch_size = 4;
    c.steps = 30;
    c.lr_max = 1e-2;
    c.lr_min = 1e-3;
    c.warmup_steps = 3;
    c.eval_every = 10;
    c.eval_batches = 2;
    c.seed = 7;
    c.threads = 1;
    return c;
}

// The first 40 kB of the built-in sample: enough tokens for training and a validation tail.
std::string sampleText()
{
    Result<std::string> text = builtinAblationText();
    return text ? text.value().substr(0, 40000) : std::string();
}

AblationSpec normSpec()
{
    AblationSpec spec;
    spec.study = "norm";
    spec.base = tinyBase();
    spec.variants = {{"RMSNorm", {.norm = NormType::RMSNorm}}, {"LayerNorm", {.norm = NormType::LayerNorm}}};
    spec.text = sampleText();
    return spec;
}

double meanLoss(const std::vector<AblationPoint> &curve, std::size_t from, std::size_t count)
{
    double sum = 0;
    for (std::size_t i = from; i < from + count; ++i)
        sum += curve[i].train_loss;
    return sum / double(count);
}

bool hasField(const Problems &problems, const std::string &field)
{
    for (const Problem &p : problems)
        if (p.field == field)
            return true;
    return false;
}

}  // namespace

class TestAblationRunner : public QObject {
    Q_OBJECT

private:
    std::optional<AblationResults> trained_;  // the two-variant run, shared by the file tests

private slots:
    void initTestCase()
    {
        QVERIFY(!sampleText().empty());
        int calls = 0, lastVariant = -1;
        Result<AblationResults> run = runAblation(normSpec(), [&](const AblationProgress &p) {
            ++calls;
            QVERIFY(p.variant >= lastVariant);
            lastVariant = p.variant;
            QCOMPARE(p.variant_count, 2);
        });
        QVERIFY2(run.ok(), formatProblems(run.problems()).c_str());
        trained_ = run.value();
        QCOMPARE(calls, 1 + 2 * 30);  // tokenizing, then every step of both variants
    }

    void bothLossesFallAndDiffer()
    {
        const AblationResults &r = *trained_;
        QCOMPARE(r.variants.size(), std::size_t(2));
        QVERIFY(!r.cancelled);
        for (const AblationResult &v : r.variants) {
            QVERIFY(v.status == VariantStatus::Finished);
            QCOMPARE(v.curve.size(), std::size_t(30));
            QVERIFY2(meanLoss(v.curve, 25, 5) < meanLoss(v.curve, 0, 5) - 0.3, v.variant.name.c_str());
            QVERIFY(v.final_validation_loss.has_value());
            QVERIFY(*v.final_validation_loss < v.curve.front().train_loss);
            QVERIFY(v.tokens_per_s > 0);
            QVERIFY(v.wall_seconds > 0);
            QCOMPARE(v.parameters, std::int64_t([&] {
                         std::int64_t n = 0;
                         for (const ParameterShape &s : referenceParameterShapes(v.model))
                             n += std::accumulate(s.shape.begin(), s.shape.end(), std::int64_t(1), std::multiplies<>());
                         return n;
                     }()));
        }
        QVERIFY(r.variants[0].model.norm == NormType::RMSNorm);
        QVERIFY(r.variants[1].model.norm == NormType::LayerNorm);
        // LayerNorm has a bias per norm: 3 norms of d_model = 32.
        QCOMPARE(r.variants[1].parameters - r.variants[0].parameters, std::int64_t(3 * 32));
        double largest = 0;
        for (std::size_t i = 0; i < 30; ++i)
            largest = std::max(largest, std::abs(r.variants[0].curve[i].train_loss - r.variants[1].curve[i].train_loss));
        QVERIFY(largest > 1e-3);
    }

    void sameSeedSameFirstBatch()
    {
        const AblationResults &r = *trained_;
        QVERIFY(r.variants[0].first_batch_hash != 0);
        QCOMPARE(r.variants[0].first_batch_hash, r.variants[1].first_batch_hash);
        AblationSpec other = normSpec();
        other.base.steps = 1;
        other.base.warmup_steps = 0;
        AblationSpec tooShort = normSpec();
        tooShort.base.steps = 1;  // warm-up 3 is longer: refused before any text is tokenized
        QVERIFY(hasField(validateAblationSpec(tooShort), "training.warmup_steps"));
        other.variants.resize(1);
        Result<AblationResults> same = runAblation(other);
        QVERIFY2(same.ok(), formatProblems(same.problems()).c_str());
        QCOMPARE(same.value().variants[0].first_batch_hash, r.variants[0].first_batch_hash);
        other.base.seed += 1;
        Result<AblationResults> reseeded = runAblation(other);
        QVERIFY(reseeded.ok());
        QVERIFY(reseeded.value().variants[0].first_batch_hash != r.variants[0].first_batch_hash);
    }

    void cancelStopsBetweenStepsAndKeepsFinished()
    {
        std::atomic<bool> cancel{false};
        int stepsAfterCancel = 0;
        Result<AblationResults> run = runAblation(
            normSpec(),
            [&](const AblationProgress &p) {
                if (cancel)
                    ++stepsAfterCancel;
                if (p.variant == 1 && p.step == 5)
                    cancel = true;
            },
            &cancel);
        QVERIFY(run.ok());
        const AblationResults &r = run.value();
        QVERIFY(r.cancelled);
        QCOMPARE(stepsAfterCancel, 0);
        QCOMPARE(r.variants.size(), std::size_t(2));
        QVERIFY(r.variants[0].status == VariantStatus::Finished);
        QCOMPARE(r.variants[0].stepsCompleted(), 30);
        QVERIFY(r.variants[1].status == VariantStatus::Cancelled);
        QCOMPARE(r.variants[1].stepsCompleted(), 5);
        // Same tokens and seed: the finished variant repeats the uninterrupted run's losses exactly.
        for (std::size_t i = 0; i < 30; ++i)
            QCOMPARE(r.variants[0].curve[i].train_loss, trained_->variants[0].curve[i].train_loss);
    }

    void resultsRoundTripThroughAFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("results.json")).toStdString();
        QVERIFY(saveAblationResults(*trained_, path).ok());
        Result<AblationResults> read = loadAblationResults(path);
        QVERIFY2(read.ok(), formatProblems(read.problems()).c_str());
        QVERIFY(read.value() == *trained_);
        QVERIFY(read.value().variants[1].curve == trained_->variants[1].curve);
    }

    void damagedFileNamesTheField_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("field");
        QTest::addRow("loss not a number") << "\"train_loss\": [" << "\"train_loss\": [\"x\", " << "variants[0].curve.train_loss[0]";
        QTest::addRow("unknown norm") << "\"norm\": \"layernorm\"" << "\"norm\": \"batchnorm\"" << "variants[1].changes.norm";
        QTest::addRow("status") << "\"status\": \"finished\"" << "\"status\": \"done\"" << "variants[0].status";
        QTest::addRow("negative parameters") << "\"parameters\": " << "\"parameters\": -" << "variants[0].parameters";
        QTest::addRow("base model field") << "\"d_model\": 32" << "\"d_model\": \"wide\"" << "base.model.d_model";
        QTest::addRow("variant model field") << "\"n_layers\": 1" << "\"n_layers\": -1" << "variants[1].model.n_layers";
        QTest::addRow("base steps") << "\"steps\": 30" << "\"steps\": 2.5" << "base.training.steps";
        QTest::addRow("hash") << "\"first_batch_hash\": \"0x" << "\"first_batch_hash\": \"zz" << "variants[0].first_batch_hash";
        QTest::addRow("format") << "llm-explorer-ablation-results" << "something-else" << "file";
        QTest::addRow("truncated") << "\"variants\"" << "\"variants" << "file";
    }
    void damagedFileNamesTheField()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, field);
        QByteArray json = ablationResultsToJson(*trained_);
        // The last occurrence for the variant's model (the base's model comes first in the file).
        const qsizetype at = QString::fromLatin1(QTest::currentDataTag()).startsWith(QLatin1String("variant model"))
            ? json.lastIndexOf(from.toUtf8())
            : json.indexOf(from.toUtf8());
        QVERIFY2(at >= 0, qPrintable(from));
        json.replace(at, from.toUtf8().size(), to.toUtf8());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("damaged.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(json);
        file.close();
        Result<AblationResults> read = loadAblationResults(path.toStdString());
        QVERIFY(!read.ok());
        QVERIFY2(hasField(read.problems(), field.toStdString()), formatProblems(read.problems()).c_str());
        QVERIFY(read.problems().front().message.find(path.toStdString()) != std::string::npos);
    }

    void missingFileIsAProblem()
    {
        Result<AblationResults> read = loadAblationResults("/nonexistent/results.json");
        QVERIFY(!read.ok());
        QCOMPARE(read.problems().front().field, std::string("/nonexistent/results.json"));
    }

    void activationStudyKeepsParametersEqual()
    {
        for (std::int64_t d : {64, 128, 256, 512, 768}) {
            ModelConfig base = tinyBase().model;
            base.d_model = d;
            base.head_dim = int(d / base.n_heads);
            std::vector<std::int64_t> counts;
            for (const AblationVariant &v : studyVariants(AblationStudy::Activation, base)) {
                std::int64_t n = 0;
                for (const ParameterShape &s : referenceParameterShapes(applyChanges(base, v.changes)))
                    n += std::accumulate(s.shape.begin(), s.shape.end(), std::int64_t(1), std::multiplies<>());
                counts.push_back(n);
            }
            QCOMPARE(counts.size(), std::size_t(4));
            for (std::int64_t n : counts)
                QVERIFY2(std::abs(double(n - counts[1])) <= 0.01 * double(counts[1]), qPrintable(QString::number(d)));
        }
        QCOMPARE(gatedDffAtEqualParameters(4 * 512), std::int64_t(1368));  // 8/3·512 = 1365.3 → a multiple of 8
        QCOMPARE(gatedDffAtEqualParameters(4 * 64), std::int64_t(171));    // 168 would be 1.6% off
    }

    void everyStandardStudyIsBuildable()
    {
        for (AblationStudy study : allStudies()) {
            const AblationSpec spec = standardStudy(study, defaultAblationBase());
            QVERIFY(spec.variants.size() >= 2);
            QVERIFY(studyFromName(spec.study) == std::optional<AblationStudy>(study));
            const Problems problems = validateAblationSpec(spec);
            QVERIFY2(problems.empty(), formatProblems(problems).c_str());
        }
        QVERIFY(!studyFromName("batchnorm"));
    }

    void unsupportedVariantNamesTheField()
    {
        AblationSpec spec = normSpec();
        spec.variants.push_back({"Parallel post-norm", {.norm_placement = NormPlacement::Post, .parallel_block = true}});
        spec.variants.push_back({"RMSNorm", {}});
        Result<AblationResults> run = runAblation(spec);
        QVERIFY(!run.ok());
        QVERIFY2(hasField(run.problems(), "variants[2].model.parallel_block"), formatProblems(run.problems()).c_str());
        QVERIFY(hasField(run.problems(), "variants[3].name"));
    }
};

QTEST_GUILESS_MAIN(TestAblationRunner)
#include "test_ablation_runner.moc"
