// SPDX-License-Identifier: GPL-3.0-or-later
// The reference trainer (core/reference/trainer.h): TrainConfig JSON round trip and problems that
// name the field, the loss falling on a repetitive corpus, bit-identical resume from a checkpoint,
// no allocation in the steady-state step, and generation properties (greedy = argmax of the full
// forward pass, top-k 1 = greedy, same seed = same output, stop token). Models are tiny so the
// file runs in seconds, also under sanitizers. No timing is asserted.
#include "reference_fixtures.h"
#include "reference/safetensors.h"
#include "reference/op_trace.h"
#include "reference/trainer.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>

// Counts every operator new of the process, so the steady-state step can be shown to allocate nothing.
namespace {
std::atomic<long long> g_allocations{0};
}
// Every block is 64-byte aligned: Eigen's vectorised reductions over unaligned maps start with a
// scalar head whose length depends on the address, so two models whose buffers differ in
// alignment sum in different orders and differ in the last bits. The model's arenas come from
// std::vector (16-byte alignment from malloc), so without this the straight and the resumed model
// of resumeIsBitIdentical could legitimately differ by rounding; see the report of issue 5.
void *alignedBlock(std::size_t n)
{
    ++g_allocations;
    if (void *p = std::aligned_alloc(64, (n + 63) / 64 * 64 + (n ? 0 : 64)))
        return p;
    throw std::bad_alloc();
}
void *operator new(std::size_t n) { return alignedBlock(n); }
void *operator new[](std::size_t n) { return alignedBlock(n); }
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
void operator delete[](void *p, std::size_t) noexcept { std::free(p); }
// The nothrow forms too (Qt's JSON parser uses them): a replaced delete must free what the
// matching new allocated, or AddressSanitizer reports an alloc-dealloc mismatch.
void *operator new(std::size_t n, const std::nothrow_t &) noexcept
{
    try {
        return alignedBlock(n);
    } catch (...) {
        return nullptr;
    }
}
void *operator new[](std::size_t n, const std::nothrow_t &tag) noexcept { return operator new(n, tag); }
void operator delete(void *p, const std::nothrow_t &) noexcept { std::free(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { std::free(p); }

using namespace lse;
using namespace lse::reference;

namespace {

TrainConfig tinyConfig(const std::string &dataPath) { return lse::test::tinyTrainConfig(dataPath); }
using lse::test::repetitiveCorpus;

bool hasField(const Problems &problems, const std::string &field)
{
    return std::any_of(problems.begin(), problems.end(), [&](const Problem &p) { return p.field == field; });
}

std::vector<float> parametersOf(Model &model)
{
    return std::vector<float>(model.parameterData(), model.parameterData() + model.parameterCount());
}

}  // namespace

class TestReferenceTrainer : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string data_;

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        data_ = dir_.filePath(QStringLiteral("tokens.bin")).toStdString();
        QVERIFY(writeTokenFile(data_, repetitiveCorpus(4000), TokenDtype::U16).ok());
    }

    void configRoundTrip()
    {
        TrainConfig c = tinyConfig(data_);
        c.validation_path = "val.bin";
        c.validation_dtype = TokenDtype::U32;
        c.seed = 18446744073709551557ull;  // above 2^53: written as a string
        c.options.rope_theta = 500000.0f;
        c.weight_decay = 0.05;
        c.threads = 2;
        c.options.attention_kernel = AttentionAlgorithm::Tiled;
        const Result<TrainConfig> back = trainConfigFromJson(trainConfigToJson(c), "round trip");
        QVERIFY2(back.ok(), formatProblems(back.problems()).c_str());
        QCOMPARE(back->model.d_model, c.model.d_model);
        QCOMPARE(back->model.n_layers, c.model.n_layers);
        QCOMPARE(back->model.vocab_size, c.model.vocab_size);
        QCOMPARE(back->data_path, c.data_path);
        QCOMPARE(back->validation_path, c.validation_path);
        QVERIFY(back->validation_dtype == TokenDtype::U32);
        QCOMPARE(back->seed, c.seed);
        QCOMPARE(back->options.rope_theta, c.options.rope_theta);
        QCOMPARE(back->weight_decay, c.weight_decay);
        QCOMPARE(back->threads, 2);
        QVERIFY(back->options.attention_kernel == AttentionAlgorithm::Tiled);
        QCOMPARE(back->steps, c.steps);
        QCOMPARE(trainConfigToJson(back.value()), trainConfigToJson(c));
    }

    void bundledPresetsParse()
    {
        for (const char *name : {"tiny", "small", "cs336-tinystories"}) {
            QFile f(QStringLiteral(":/reference/%1.json").arg(QLatin1String(name)));
            QVERIFY2(f.open(QIODevice::ReadOnly), name);
            const Result<TrainConfig> c = trainConfigFromJson(f.readAll(), name);
            QVERIFY2(c.ok(), formatProblems(c.problems()).c_str());
            TrainConfig config = c.value();
            config.data_path = "x.bin";
            QVERIFY2(validateTrainConfig(config).empty(), name);
        }
        QFile sample(QStringLiteral(":/samples/tiny_stories_generated.txt"));
        QVERIFY(sample.open(QIODevice::ReadOnly));
        QVERIFY(sample.size() > 100000);
    }

    void configProblemsNameTheField()
    {
        const QByteArray json = R"({"model": {"n_layers": 1, "d_model": 0, "n_heads": 2, "vocab_size": 8, "max_seq_len": 4,
                                              "d_ff": 8, "colour": "red"},
                                    "training": {"batch_size": 0, "learning_rate": 1, "steps": 1.5,
                                                 "attention_kernel": "flash"}})";
        const Result<TrainConfig> r = trainConfigFromJson(json, "bad.json");
        QVERIFY(!r.ok());
        QVERIFY(hasField(r.problems(), "model.colour"));
        QVERIFY(hasField(r.problems(), "training.learning_rate"));
        QVERIFY(hasField(r.problems(), "training.steps"));
        QVERIFY(hasField(r.problems(), "training.attention_kernel"));

        TrainConfig c = tinyConfig("");
        c.batch_size = 0;
        c.model.d_model = 0;
        c.beta2 = 1.0;
        c.warmup_steps = 100;
        const Problems p = validateTrainConfig(c);
        QVERIFY(hasField(p, "data_path"));
        QVERIFY(hasField(p, "training.batch_size"));
        QVERIFY(hasField(p, "model.d_model"));
        QVERIFY(hasField(p, "training.beta2"));
        QVERIFY(hasField(p, "training.warmup_steps"));

        QVERIFY(!trainConfigFromJson("{not json", "broken.json").ok());
        QCOMPARE(trainConfigFromJson("{not json", "broken.json").problems().front().field, std::string("file"));

        TrainConfig missing = tinyConfig(dir_.filePath(QStringLiteral("nope.bin")).toStdString());
        QVERIFY(!Trainer::create(missing).ok());
        TrainConfig wrongVocab = tinyConfig(data_);
        wrongVocab.model.vocab_size = 8;  // the corpus holds ids up to 11
        const auto r2 = Trainer::create(wrongVocab);
        QVERIFY(!r2.ok());
        QCOMPARE(r2.problems().front().rule, std::string("vocab"));
    }

    void lossDecreases()
    {
        auto created = Trainer::create(tinyConfig(data_));
        QVERIFY2(created.ok(), formatProblems(created.problems()).c_str());
        Trainer &t = *created.value();
        const double val0 = t.validationLoss().value();
        std::vector<double> losses;
        for (int i = 0; i < 30; ++i) {
            const Result<StepReport> r = t.step();
            QVERIFY2(r.ok(), formatProblems(r.problems()).c_str());
            QCOMPARE(r->step, i + 1);
            QVERIFY(std::isfinite(r->loss));
            QVERIFY(r->flops > 0);
            QVERIFY(r->learning_rate > 0);
            losses.push_back(r->loss);
        }
        const double first = (losses[0] + losses[1] + losses[2]) / 3, last = (losses[27] + losses[28] + losses[29]) / 3;
        QVERIFY2(last < first - 1.0, qPrintable(QStringLiteral("loss %1 -> %2").arg(first).arg(last)));
        const double val1 = t.validationLoss().value();
        QVERIFY2(val1 < val0 - 1.0, qPrintable(QStringLiteral("validation %1 -> %2").arg(val0).arg(val1)));
        QCOMPARE(t.validationLoss().value(), val1);  // fixed windows: deterministic
        QCOMPARE(t.currentStep(), 30);
        QVERIFY(t.optimizerStateBytes() == 2.0 * double(t.model().parameterCount()) * sizeof(float));
        QVERIFY(t.profiler().totalFlops() > 0);
    }

    void steadyStateStepAllocatesNothing()
    {
        auto created = Trainer::create(tinyConfig(data_));
        QVERIFY(created.ok());
        Trainer &t = *created.value();
        QVERIFY(t.step().ok());  // warm-up: thread pools and first-use buffers
        QVERIFY(t.step().ok());
        const long long before = g_allocations.load();
        for (int i = 0; i < 3; ++i)
            QVERIFY(t.step().ok());
        QCOMPARE(g_allocations.load() - before, 0LL);
    }

    // The tiled (FlashAttention) kernel trains the same model: losses and weights after a few
    // AdamW steps equal the naive kernel's within float32 round-off (blocks of 3 × 5 over T = 16:
    // full, diagonal and skipped blocks, and a last block of one row), and its step allocates
    // nothing either.
    void tiledAttentionTrainsLikeNaive()
    {
        TrainConfig naiveConfig = tinyConfig(data_);
        naiveConfig.model.n_kv_heads = 2;  // grouped-query: dK and dV summed over two heads
        TrainConfig tiledConfig = naiveConfig;
        tiledConfig.options.attention_kernel = AttentionAlgorithm::Tiled;
        tiledConfig.options.attention_block_rows = 3;
        tiledConfig.options.attention_block_cols = 5;
        auto naive = Trainer::create(naiveConfig);
        auto tiled = Trainer::create(tiledConfig);
        QVERIFY2(naive.ok() && tiled.ok(), formatProblems(tiled.problems()).c_str());
        for (int i = 0; i < 4; ++i) {
            const Result<StepReport> a = naive.value()->step(), b = tiled.value()->step();
            QVERIFY(a.ok() && b.ok());
            QVERIFY2(std::abs(a->loss - b->loss) <= 1e-5 * std::abs(a->loss),
                     qPrintable(QStringLiteral("step %1: naive %2, tiled %3").arg(i + 1).arg(a->loss, 0, 'g', 9).arg(b->loss, 0, 'g', 9)));
        }
        const std::vector<float> wa = parametersOf(naive.value()->model()), wb = parametersOf(tiled.value()->model());
        double diff = 0, norm = 0;
        for (std::size_t i = 0; i < wa.size(); ++i) {
            diff += (double(wa[i]) - double(wb[i])) * (double(wa[i]) - double(wb[i]));
            norm += double(wa[i]) * double(wa[i]);
        }
        QVERIFY2(std::sqrt(diff / norm) < 1e-5, qPrintable(QString::number(std::sqrt(diff / norm))));
        // One fused operator under the engine's FlashAttention name; no naive stage ran.
        bool flash = false;
        for (const OpRecord &r : tiled.value()->profiler().records()) {
            flash = flash || std::string(r.name) == "flash_attention";
            QVERIFY(std::string(r.name) != "attention_scores" && std::string(r.name) != "softmax");
        }
        QVERIFY(flash);
        const long long before = g_allocations.load();
        for (int i = 0; i < 2; ++i)
            QVERIFY(tiled.value()->step().ok());
        QCOMPARE(g_allocations.load() - before, 0LL);
    }

    // A traced step (--trace, op_trace.h) records into room reserved before the run: recording the
    // calls must not change what it measures by allocating inside the step.
    void tracedStepAllocatesNothing()
    {
        auto created = Trainer::create(tinyConfig(data_));
        QVERIFY(created.ok());
        Trainer &t = *created.value();
        lse::reference::OpTraceLog log(lse::reference::traceCapacityForSteps(t.config().model.n_layers, 4));
        t.model().profiler().setTrace(&log);
        QVERIFY(t.step().ok());  // warm-up: thread pools and first-use buffers
        QVERIFY(t.step().ok());
        const long long before = g_allocations.load();
        for (int i = 0; i < 2; ++i)
            QVERIFY(t.step().ok());
        QCOMPARE(g_allocations.load() - before, 0LL);
        t.model().profiler().setTrace(nullptr);
        QVERIFY(log.events().size() > 2 * 50);  // the calls were recorded
        QCOMPARE(log.dropped(), 0);
    }

    // The GUI's Stop interrupts a long step at a layer boundary: the interrupted step changes
    // nothing (weights, moments, sampler, profiler), so the next step is the one an uninterrupted
    // run takes, bit for bit.
    void interruptedStepChangesNothing()
    {
        const TrainConfig c = tinyConfig(data_);
        auto straight = Trainer::create(c);
        auto stopped = Trainer::create(c);
        QVERIFY(straight.ok() && stopped.ok());
        Trainer &a = *straight.value(), &b = *stopped.value();
        const StepReport a1 = a.step().value(), a2 = a.step().value();
        QVERIFY(b.step().ok());

        std::atomic<bool> interrupt{false};
        b.setInterrupt(&interrupt);
        // Raised in the middle of the backward pass, as a Stop press from the GUI thread would be.
        b.model().setGradientReadyCallback([&](std::int64_t) { interrupt = true; });
        const std::vector<OpRecord> records = b.profiler().records();
        const Result<StepReport> cut = b.step();
        QVERIFY2(cut.ok(), formatProblems(cut.problems()).c_str());
        QVERIFY(cut->interrupted);
        QCOMPARE(cut->step, 1);
        QCOMPARE(b.currentStep(), 1);
        QCOMPARE(b.profiler().records().size(), records.size());
        for (std::size_t i = 0; i < records.size(); ++i)
            QCOMPARE(b.profiler().records()[i].seconds, records[i].seconds);

        // Raised before the step: it stops before the first layer.
        b.model().setGradientReadyCallback({});
        QVERIFY(b.step()->interrupted);

        interrupt = false;
        const Result<StepReport> b2 = b.step();
        QVERIFY(b2.ok() && !b2->interrupted);
        QCOMPARE(b2->step, 2);
        QCOMPARE(b2->batch_hash, a2.batch_hash);
        QCOMPARE(b2->loss, a2.loss);
        QVERIFY(a1.loss != a2.loss);
        const std::vector<float> pa = parametersOf(a.model()), pb = parametersOf(b.model());
        QVERIFY(std::memcmp(pa.data(), pb.data(), pa.size() * sizeof(float)) == 0);
    }

    void resumeIsBitIdentical_data()
    {
        QTest::addColumn<bool>("parallel");
        QTest::addRow("serial") << false;
        QTest::addRow("parallel-block") << true;  // the same tensor names; the config says which block
    }
    void resumeIsBitIdentical()
    {
        QFETCH(bool, parallel);
        const int total = 8, split = 3;
        TrainConfig c = tinyConfig(data_);
        c.model.parallel_block = parallel;
        c.steps = total;
        c.eval_every = 4;
        auto straight = Trainer::create(c);
        QVERIFY(straight.ok());
        std::vector<double> lossesA;
        for (int i = 0; i < total; ++i)
            lossesA.push_back(straight.value()->step().value().loss);

        auto first = Trainer::create(c);
        QVERIFY(first.ok());
        std::vector<double> lossesB;
        for (int i = 0; i < split; ++i)
            lossesB.push_back(first.value()->step().value().loss);
        const std::string path = dir_.filePath(QStringLiteral("ckpt.safetensors")).toStdString();
        const Result<bool> saved = first.value()->saveCheckpoint(path);
        QVERIFY2(saved.ok(), formatProblems(saved.problems()).c_str());

        // Names as in the course's state dict, with the moments beside them.
        const Result<SafetensorsFile> file = readSafetensors(path);
        QVERIFY(file.ok());
        QVERIFY(file->find("layers.0.attn.q_proj.weight"));
        QVERIFY(file->find("optimizer.m.layers.1.ffn.w2.weight"));
        QVERIFY(file->find("optimizer.v.token_embeddings.weight"));
        QCOMPARE(file->metadata.at("step"), std::string("3"));

        auto resumed = Trainer::resume(path);
        QVERIFY2(resumed.ok(), formatProblems(resumed.problems()).c_str());
        QCOMPARE(resumed.value()->currentStep(), split);
        for (int i = split; i < total; ++i)
            lossesB.push_back(resumed.value()->step().value().loss);
        QCOMPARE(lossesB, lossesA);
        const std::vector<float> a = parametersOf(straight.value()->model()), b = parametersOf(resumed.value()->model());
        QCOMPARE(a.size(), b.size());
        QVERIFY(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);

        // The generation loader reads the same weights without the data or optimizer.
        TrainConfig loadedConfig;
        auto model = loadCheckpointModel(path, &loadedConfig);
        QVERIFY(model.ok());
        QCOMPARE(loadedConfig.model.d_model, c.model.d_model);
        QCOMPARE(loadedConfig.model.parallel_block, parallel);

        QVERIFY(!Trainer::resume(dir_.filePath(QStringLiteral("missing.safetensors")).toStdString()).ok());
    }

    // Issue 14, item 6: a NaN weight (what a far too large learning rate leaves behind) makes the
    // next step fail as diverged before the optimizer runs; that state is never saved; and a
    // checkpoint holding NaN or infinite values is refused by generation and by resuming.
    void divergenceStopsAndIsNeverSaved()
    {
        auto created = Trainer::create(tinyConfig(data_));
        QVERIFY2(created.ok(), formatProblems(created.problems()).c_str());
        Trainer &trainer = *created.value();
        QVERIFY(trainer.step().ok());
        const std::string good = dir_.filePath(QStringLiteral("finite.safetensors")).toStdString();
        QVERIFY(trainer.saveCheckpoint(good).ok());
        QVERIFY(loadCheckpointModel(good).ok());

        NamedTensor<float> *q = trainer.model().find("layers.0.attn.q_proj.weight");
        QVERIFY(q);
        q->data[0] = std::numeric_limits<float>::quiet_NaN();
        const Result<StepReport> diverged = trainer.step();
        QVERIFY(!diverged.ok());
        QCOMPARE(diverged.problems().front().rule, std::string(kDivergedRule));
        QVERIFY(diverged.problems().front().message.find("NaN") != std::string::npos);
        QCOMPARE(trainer.currentStep(), 1);
        const QString unsaved = dir_.filePath(QStringLiteral("diverged.safetensors"));
        const Result<bool> saved = trainer.saveCheckpoint(unsaved.toStdString());
        QVERIFY(!saved.ok());
        QCOMPARE(saved.problems().front().rule, std::string("non-finite"));
        QVERIFY(!QFile::exists(unsaved));

        // Copies of the finite checkpoint with one value made non-finite.
        const Result<SafetensorsFile> file = readSafetensors(good);
        QVERIFY(file.ok());
        auto poisoned = [&](const std::string &tensor, float value, const char *name) {
            SafetensorsFile copy = file.value();
            for (SafeTensor &t : copy.tensors)
                if (t.name == tensor)
                    std::memcpy(t.bytes.data() + 4, &value, sizeof value);
            const std::string path = dir_.filePath(QString::fromLatin1(name)).toStdString();
            return writeSafetensors(path, copy.tensors, copy.metadata).ok() ? path : std::string();
        };
        const std::string nanWeight = poisoned("layers.1.ffn.w2.weight", std::numeric_limits<float>::quiet_NaN(), "nan-w.safetensors");
        const std::string infMoment =
            poisoned("optimizer.v.token_embeddings.weight", std::numeric_limits<float>::infinity(), "inf-v.safetensors");
        QVERIFY(!nanWeight.empty() && !infMoment.empty());
        const auto loaded = loadCheckpointModel(nanWeight);
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.problems().front().rule, std::string("non-finite"));
        QVERIFY(loaded.problems().front().message.find("layers.1.ffn.w2.weight") != std::string::npos);
        const auto resumed = Trainer::resume(nanWeight);
        QVERIFY(!resumed.ok());
        QCOMPARE(resumed.problems().front().rule, std::string("non-finite"));
        // Generation needs no moments; resuming does.
        QVERIFY(loadCheckpointModel(infMoment).ok());
        const auto resumedInf = Trainer::resume(infMoment);
        QVERIFY(!resumedInf.ok());
        QCOMPARE(resumedInf.problems().front().rule, std::string("non-finite"));
    }

    // Finite weights can still overflow the logits; sampling from them (std::sort over NaN) is
    // refused instead of running into undefined behaviour.
    void generationRefusesNonFiniteLogits()
    {
        ModelConfig m = tinyConfig(data_).model;
        auto created = Model::create(m, ReferenceOptions{});
        QVERIFY(created.ok());
        Model &model = *created.value();
        for (const char *name : {"ln_final.weight", "lm_head.weight"}) {
            NamedTensor<float> *t = model.find(name);
            QVERIFY(t);
            std::fill(t->data, t->data + t->size(), 1e30f);  // each logit term ~1e60: beyond float
        }
        GenerateOptions options;
        options.max_new_tokens = 2;
        const auto out = generate(model, {0, 1}, options);
        QVERIFY(!out.ok());
        QCOMPARE(out.problems().front().rule, std::string("non-finite"));
    }

    void generation()
    {
        auto created = Trainer::create(tinyConfig(data_));
        QVERIFY(created.ok());
        Trainer &t = *created.value();
        for (int i = 0; i < 10; ++i)
            QVERIFY(t.step().ok());
        Model &model = t.model();
        const std::vector<std::int32_t> prompt{0, 1, 2, 3};
        GenerateOptions greedy;
        greedy.temperature = 0;
        greedy.max_new_tokens = 8;
        const auto g1 = generate(model, prompt, greedy);
        QVERIFY2(g1.ok(), formatProblems(g1.problems()).c_str());
        QCOMPARE(int(g1->size()), 8);
        QCOMPARE(generate(model, prompt, greedy).value(), g1.value());

        // Each greedy token is the argmax of the full forward pass over the sequence so far.
        std::vector<std::int32_t> seq = prompt;
        for (std::int32_t token : g1.value()) {
            const float *logits = model.forwardLogitsLast(seq.data(), 1, int(seq.size())).value();
            const std::int64_t v = model.config().vocab_size;
            QCOMPARE(std::int32_t(std::max_element(logits, logits + v) - logits), token);
            seq.push_back(token);
        }

        GenerateOptions topOne;
        topOne.temperature = 1.0;
        topOne.top_k = 1;
        topOne.max_new_tokens = 8;
        topOne.seed = 99;
        QCOMPARE(generate(model, prompt, topOne).value(), g1.value());

        GenerateOptions sampled;
        sampled.temperature = 1.5;
        sampled.top_k = 10;
        sampled.top_p = 0.9;
        sampled.max_new_tokens = 10;
        sampled.seed = 5;
        const auto s1 = generate(model, prompt, sampled), s2 = generate(model, prompt, sampled);
        QCOMPARE(s1.value(), s2.value());
        for (std::int32_t id : s1.value())
            QVERIFY(id >= 0 && id < 16);

        GenerateOptions stopping = greedy;
        stopping.stop_token = g1->front();
        QVERIFY(generate(model, prompt, stopping).value().empty());

        std::vector<std::int32_t> streamed;
        const auto partial = generate(model, prompt, greedy, [&](std::int32_t id) {
            streamed.push_back(id);
            return streamed.size() < 3;
        });
        QCOMPARE(partial.value(), streamed);
        QCOMPARE(int(streamed.size()), 3);

        // The context (16) bounds prompt + continuation.
        greedy.max_new_tokens = 100;
        QCOMPARE(int(generate(model, prompt, greedy).value().size()), 16 - int(prompt.size()) + 1);

        QVERIFY(!generate(model, {}, greedy).ok());
        QVERIFY(!generate(model, {0, 99}, greedy).ok());
        GenerateOptions bad;
        bad.top_p = 0;
        QCOMPARE(generate(model, prompt, bad).problems().front().field, std::string("top_p"));
    }
};

QTEST_GUILESS_MAIN(TestReferenceTrainer)
#include "test_reference_trainer.moc"
