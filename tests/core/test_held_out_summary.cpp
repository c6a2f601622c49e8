// SPDX-License-Identifier: GPL-3.0-or-later
// The held-out summary over every accelerator (the Validation page's "all runs" line) by hand, and
// a per-accelerator validation the caller cancels.

#include "validation/accelerator_validation.h"

#include <QTest>

using namespace lse;

class TestHeldOutSummary : public QObject {
    Q_OBJECT

private slots:
    // Errors −0.10, 0.02 (one accelerator) and 0.04, −0.06, 0.08 (another), one with none:
    // mean |e| = 0.30 / 5 = 0.06, worst 0.10, nearest-rank 90th percentile of 5 = the 5th = 0.10.
    void summaryByHand()
    {
        std::vector<AcceleratorValidation> accelerators(3);
        accelerators[0].held_out_errors = {-0.10, 0.02};
        accelerators[1].held_out_errors = {0.04, -0.06, 0.08};
        const HeldOutSummary summary = heldOutOverAll(accelerators);
        QCOMPARE(summary.runs, 5);
        QVERIFY(qAbs(summary.mean_absolute_error - 0.06) < 1e-12);
        QCOMPARE(summary.worst_absolute_error, 0.10);
        QCOMPARE(summary.p90_absolute_error, 0.10);
        QCOMPARE(heldOutOverAll({}).runs, 0);
    }

    void progressCanCancel()
    {
        AcceleratorValidationOptions options;
        options.leave_one_source_out = true;
        int calls = 0;
        options.progress = [&calls](int done, int total) {
            ++calls;
            return done == 0 && total == int(builtinPublishedRuns().size()) ? false : true;
        };
        const Result<std::vector<AcceleratorValidation>> result = validateByAccelerator(builtinPublishedRuns(), options);
        QVERIFY(!result);
        QCOMPARE(result.problems().front().rule, std::string("cancelled"));
        QCOMPARE(calls, 1);
    }
};

QTEST_GUILESS_MAIN(TestHeldOutSummary)
#include "test_held_out_summary.moc"
