// SPDX-License-Identifier: GPL-3.0-or-later
// measureAttention (reference/attention_measurement.h) at test sizes: both kernels run and are
// timed, the peak bytes come from the allocations (naive working memory grows with N², tiled with
// N), the naive kernel is refused beyond the memory limit with the reason, cancelling stops the
// sweep, bad requests name the field, and the traffic model follows its formulas.
#include "reference/attention_measurement.h"
#include "reference/attention_measurement_json.h"

#include <QJsonObject>

#include <QtTest>

#include <cmath>

using namespace lse;
using namespace lse::reference;

namespace {

AttentionMeasureRequest smallRequest()
{
    AttentionMeasureRequest r;
    r.sequence_lengths = {32, 64, 128};
    r.head_dim = 8;
    r.heads = 2;
    r.repeats = 1;
    r.block_rows = 8;
    r.block_cols = 16;
    return r;
}

bool hasField(const Problems &problems, const std::string &field)
{
    for (const Problem &p : problems)
        if (p.field == field)
            return true;
    return false;
}

double rounded(double elements) { return std::ceil(elements * 4 / 64) * 64; }

}  // namespace

class TestAttentionMeasurement : public QObject {
    Q_OBJECT

private slots:
    void bothKernelsMeasured()
    {
        const AttentionMeasureRequest r = smallRequest();
        int calls = 0, last_total = 0;
        const Result<AttentionMeasurement> m = measureAttention(r, [&](int done, int total, const std::string &what) {
            ++calls;
            last_total = total;
            return done <= total && !what.empty();
        });
        QVERIFY2(m.ok(), formatProblems(m.problems()).c_str());
        QCOMPARE(int(m->rows.size()), 3);
        QCOMPARE(calls, 3 * 2 * 2);  // N × kernels × (forward, forward + backward)
        QCOMPARE(last_total, calls);
        QCOMPARE(m->blocks.rows, Index(8));
        QCOMPARE(m->blocks.cols, Index(16));
        QVERIFY(!m->bytes_moved_source.empty());
        for (const AttentionMeasureRow &row : m->rows) {
            for (const AttentionKernelRun *run : {&row.naive, &row.tiled}) {
                QVERIFY(run->ran);
                QVERIFY(run->forward_seconds > 0 && run->training_seconds > 0);
                QVERIFY(run->modelled_bytes_moved > 0);
                QVERIFY(run->training_peak_bytes > run->forward_peak_bytes);
            }
            // Naive: the probabilities and their gradient, B·H·N² floats each, as allocated.
            const double square = 2.0 * double(row.n) * double(row.n);
            QCOMPARE(row.naive.forward_working_bytes, rounded(square));
            QCOMPARE(row.naive.training_working_bytes, 2 * rounded(square));
            // Inputs and outputs: Q, K, V, O (+ dO, dQ, dK, dV) of B·N·H·d floats.
            const double rows = double(row.n) * 2 * 8;
            QCOMPARE(row.naive.training_peak_bytes - row.naive.training_working_bytes, 8 * rounded(rows));
            QCOMPARE(row.tiled.training_peak_bytes - row.tiled.training_working_bytes, 8 * rounded(rows));
        }
        // Working memory: naive ×4 per doubling of N, tiled grows by the 2·B·H·N statistics only.
        const auto &a = m->rows[1], &b = m->rows[2];
        QCOMPARE(b.naive.training_working_bytes, 4 * a.naive.training_working_bytes);
        QCOMPARE(b.tiled.training_working_bytes - a.tiled.training_working_bytes, rounded(2 * 128) * 2 - rounded(2 * 64) * 2);
        QVERIFY(b.tiled.training_working_bytes < b.naive.training_working_bytes);
        // The CLI's `measured` object: the forward figures as seconds and peak_bytes.
        const QJsonObject json = attentionMeasuredJson(*m, b);
        QCOMPARE(json["naive"].toObject()["seconds"].toDouble(), b.naive.forward_seconds);
        QCOMPARE(json["tiled"].toObject()["peak_bytes"].toDouble(), b.tiled.forward_peak_bytes);
        QCOMPARE(json["tiled"].toObject()["training_seconds"].toDouble(), b.tiled.training_seconds);
        QCOMPARE(json["block_cols"].toDouble(), 16.0);
    }

    void naiveRefusedBeyondTheLimit()
    {
        AttentionMeasureRequest r = smallRequest();
        r.naive_memory_limit_bytes = 200000;  // N = 128 needs 2·2·128²·4 + 8 rows = 294,912 B
        r.backward = false;
        const Result<AttentionMeasurement> m = measureAttention(r);
        QVERIFY(m.ok());
        QVERIFY(m->rows[0].naive.ran);
        QVERIFY(!m->rows[2].naive.ran);
        QVERIFY(m->rows[2].naive.skipped.find("N × N") != std::string::npos);
        QVERIFY(m->rows[2].tiled.ran);
        QCOMPARE(m->rows[2].tiled.training_seconds, 0.0);
        const QJsonObject json = attentionMeasuredJson(*m, m->rows[2]);
        QVERIFY(!json["naive"].toObject()["ran"].toBool());
        QVERIFY(json["naive"].toObject()["skipped"].toString().contains(QStringLiteral("N × N")));
    }

    void cancelKeepsWhatFinished()
    {
        const Result<AttentionMeasurement> m = measureAttention(smallRequest(), [](int done, int, const std::string &) {
            return done < 5;  // N = 32 has 4 runs: it finishes, N = 64 does not
        });
        QVERIFY(m.ok());
        QVERIFY(m->cancelled);
        QCOMPARE(int(m->rows.size()), 1);
    }

    void badRequestsNameTheField()
    {
        AttentionMeasureRequest r;
        r.sequence_lengths = {0};
        r.head_dim = 0;
        r.heads = -1;
        r.repeats = 0;
        r.block_cols = -3;
        const Result<AttentionMeasurement> m = measureAttention(r);
        QVERIFY(!m.ok());
        for (const char *field : {"sequence_lengths", "head_dim", "heads", "repeats", "block_cols"})
            QVERIFY2(hasField(m.problems(), field), field);
        r = AttentionMeasureRequest{};
        r.sequence_lengths.clear();
        QVERIFY(hasField(validateAttentionMeasureRequest(r), "sequence_lengths"));
    }

    void trafficModel()
    {
        // Naive forward: Dao et al. 2022 Algorithm 0, (4Nd + 4N²) elements per head.
        const AttentionBlocks blocks{64, 128};
        QCOMPARE(attentionTrafficBytes(false, 1024, 64, 1, 1, blocks, false), (4.0 * 1024 * 64 + 4.0 * 1024 * 1024) * 4);
        QCOMPARE(attentionTrafficBytes(false, 1024, 64, 2, 3, blocks, true),
                 6 * (11.0 * 1024 * 64 + 11.0 * 1024 * 1024) * 4);
        // Tiled forward, one query block of 64 over N = 64 keys in one key block: Q, O, L, K, V once.
        QCOMPARE(attentionTrafficBytes(true, 64, 64, 1, 1, blocks, false), (4.0 * 64 * 64 + 64) * 4);
        // Far less than naive at large N, and linear in N per key pass (Θ(N²d²/M), Dao et al. 2022 Theorem 2).
        QVERIFY(attentionTrafficBytes(true, 8192, 64, 1, 1, blocks, true) < 0.5 * attentionTrafficBytes(false, 8192, 64, 1, 1, blocks, true));
    }
};

QTEST_GUILESS_MAIN(TestAttentionMeasurement)
#include "test_attention_measurement.moc"
