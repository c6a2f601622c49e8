// SPDX-License-Identifier: GPL-3.0-or-later
// validateServing's held-out progress: reported per source before its fit, and a false answer stops
// the fits (the Validation page's Cancel) with the rule "cancelled"; without leave-one-source-out
// it is never called.

#include "validation/serving_validation.h"

#include <QTest>

using namespace lse;

class TestServingValidationCancel : public QObject {
    Q_OBJECT
private slots:
    void cancelBeforeTheFirstFit()
    {
        std::vector<std::pair<int, int>> calls;
        const Result<ServingValidation> validation = validateServing(true, [&](int done, int total) {
            calls.emplace_back(done, total);
            return false;
        });
        QVERIFY(!validation.ok());
        QCOMPARE(validation.problems().front().rule, std::string("cancelled"));
        QCOMPARE(calls.size(), std::size_t(1));
        QCOMPARE(calls.front().first, 0);
        QVERIFY(calls.front().second >= 2);  // TensorRT-LLM, kipply, the blogs, LLM-Viewer #4, ...
    }

    void noProgressWithoutHeldOut()
    {
        int calls = 0;
        const Result<ServingValidation> validation = validateServing(false, [&](int, int) {
            ++calls;
            return true;
        });
        QVERIFY(validation.ok());
        QCOMPARE(calls, 0);
        QVERIFY(!validation->held_out_cancelled);
        QVERIFY(validation->comparisons.size() > 50);
    }
};

QTEST_GUILESS_MAIN(TestServingValidationCancel)
#include "test_serving_validation_cancel.moc"
