// SPDX-License-Identifier: GPL-3.0-or-later
// "Why layout matters" timing (core/tensors/access_timing.h): bytes and FLOPs as counted by hand,
// positive finite times, bad requests named, cancellation.

#include "tensors/access_timing.h"

#include <QTest>

#include <cmath>

using namespace lse;

namespace {

AccessTimingRequest smallRequest()
{
    AccessTimingRequest request;
    request.matmul_size = 48;
    request.sweep_rows = 96;
    request.sweep_cols = 80;
    request.repetitions = 3;
    return request;
}

}  // namespace

class TestAccessTiming : public QObject {
    Q_OBJECT
private slots:
    void bytesByHand()
    {
        const AccessTimingRequest r = smallRequest();
        // C = A·B, 48×48 fp32: read A and B, write C = 3·48²·4 bytes; 2·48³ FLOPs.
        const AccessVariantTiming mm = accessCost(AccessVariant::MatmulContiguous, r);
        QCOMPARE(mm.bytes, 3.0 * 48 * 48 * 4);
        QCOMPARE(mm.flops, 2.0 * 48 * 48 * 48);
        QCOMPARE(mm.inner_stride_bytes, std::int64_t(4));
        const AccessVariantTiming view = accessCost(AccessVariant::MatmulTransposedView, r);
        QCOMPARE(view.bytes, mm.bytes);
        QCOMPARE(view.inner_stride_bytes, std::int64_t(48 * 4));  // the next k is one row of B away
        // A copy reads and writes every element once.
        QCOMPARE(accessCost(AccessVariant::MatmulCopy, r).bytes, 2.0 * 48 * 48 * 4);
        QCOMPARE(accessCost(AccessVariant::MatmulCopy, r).flops, 0.0);
        // The sweeps read 96·80 floats; by columns the inner loop jumps one row of 80 floats.
        QCOMPARE(accessCost(AccessVariant::SweepByRows, r).bytes, 96.0 * 80 * 4);
        QCOMPARE(accessCost(AccessVariant::SweepByColumns, r).bytes, 96.0 * 80 * 4);
        QCOMPARE(accessCost(AccessVariant::SweepByRows, r).inner_stride_bytes, std::int64_t(4));
        QCOMPARE(accessCost(AccessVariant::SweepByColumns, r).inner_stride_bytes, std::int64_t(80 * 4));
        QCOMPARE(accessCost(AccessVariant::SweepCopy, r).bytes, 2.0 * 96 * 80 * 4);
    }

    void measuresEveryVariant()
    {
        std::atomic<bool> cancel{false};
        int calls = 0, last_total = 0;
        const Result<AccessTiming> timing = timeAccessOrders(smallRequest(), cancel, [&](int done, int total) {
            ++calls;
            QCOMPARE(done, calls);
            last_total = total;
        });
        QVERIFY(timing.ok());
        QVERIFY(!timing->cancelled);
        QCOMPARE(timing->variants.size(), std::size_t(6));
        QCOMPARE(calls, 6 * 3);
        QCOMPARE(last_total, 6 * 3);
        for (const AccessVariantTiming &v : timing->variants) {
            QCOMPARE(v.seconds.size(), std::size_t(3));
            QVERIFY2(v.median_seconds > 0 && std::isfinite(v.median_seconds), toString(v.variant).data());
            QVERIFY(std::isfinite(v.bytesPerSecond()) && v.bytesPerSecond() > 0);
            QCOMPARE(v.bytes, accessCost(v.variant, smallRequest()).bytes);
        }
        QVERIFY(std::isfinite(timing->matmulCopySavingSeconds()));
        QVERIFY(std::isfinite(timing->sweepCopySavingSeconds()));
    }

    // Copy-then-read against strided reads, from medians set by hand: copy 10 ms, contiguous 1 ms,
    // strided 4 ms → one read loses 7 ms, break-even after ceil(10 / 3) = 4 reads.
    void copyPaysOffAfterReads()
    {
        AccessTiming timing;
        auto add = [&](AccessVariant variant, double ms) {
            AccessVariantTiming v;
            v.variant = variant;
            v.median_seconds = ms / 1e3;
            timing.variants.push_back(v);
        };
        add(AccessVariant::SweepByRows, 1);
        add(AccessVariant::SweepByColumns, 4);
        add(AccessVariant::SweepCopy, 10);
        QVERIFY(std::abs(timing.sweepCopySavingSeconds() - (-7e-3)) < 1e-12);
        QCOMPARE(timing.sweepCopyBreakEvenReads(), 4);
        QCOMPARE(timing.matmulCopyBreakEvenReads(), 0);  // no product measured
        // A strided read no slower than the contiguous one: the copy never pays.
        add(AccessVariant::MatmulContiguous, 5);
        add(AccessVariant::MatmulTransposedView, 5);
        add(AccessVariant::MatmulCopy, 1);
        QCOMPARE(timing.matmulCopyBreakEvenReads(), 0);
        QVERIFY(timing.matmulCopySavingSeconds() < 0);
    }

    void cancelStopsEarly()
    {
        std::atomic<bool> cancel{false};
        const Result<AccessTiming> timing = timeAccessOrders(smallRequest(), cancel, [&](int done, int) {
            if (done == 4)
                cancel = true;  // after the first variant and one call of the second
        });
        QVERIFY(timing.ok());
        QVERIFY(timing->cancelled);
        QCOMPARE(timing->variants.size(), std::size_t(1));
        QCOMPARE(timing->matmulCopySavingSeconds(), 0.0);
    }

    void badRequestsNameTheField_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addRow("matmul_size") << "matmul_size";
        QTest::addRow("sweep_rows") << "sweep_rows";
        QTest::addRow("sweep_cols") << "sweep_cols";
        QTest::addRow("too many elements") << "sweep_rows";
        QTest::addRow("repetitions") << "repetitions";
        QTest::addRow("threads") << "threads";
    }
    void badRequestsNameTheField()
    {
        QFETCH(QString, field);
        AccessTimingRequest r = smallRequest();
        const QString tag = QTest::currentDataTag();
        if (tag == "matmul_size")
            r.matmul_size = 0;
        else if (tag == "sweep_rows")
            r.sweep_rows = -1;
        else if (tag == "sweep_cols")
            r.sweep_cols = 0;
        else if (tag == "too many elements")
            r.sweep_rows = r.sweep_cols = 1 << 14;
        else if (tag == "repetitions")
            r.repetitions = 0;
        else
            r.threads = 0;
        std::atomic<bool> cancel{false};
        const Result<AccessTiming> timing = timeAccessOrders(r, cancel);
        QVERIFY(!timing.ok());
        QCOMPARE(QString::fromStdString(timing.problems().front().field), field);
    }
};

QTEST_GUILESS_MAIN(TestAccessTiming)
#include "test_access_timing.moc"
