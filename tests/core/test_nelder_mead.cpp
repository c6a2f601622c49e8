// SPDX-License-Identifier: GPL-3.0-or-later
// The calibration's minimiser (core/performance/nelder_mead.h): finds the minimum of functions
// whose minimum is known, stays in the unit box, keeps to its evaluation budget, and is deterministic.
#include "performance/nelder_mead.h"

#include <QTest>

#include <cmath>

using namespace lse::performance;

namespace {

using Point = std::vector<double>;

double squaredDistance(const Point &a, const Point &b)
{
    double sum = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        sum += (a[i] - b[i]) * (a[i] - b[i]);
    return sum;
}

}  // namespace

class TestNelderMead : public QObject {
    Q_OBJECT

private slots:
    void findsTheMinimum_data()
    {
        QTest::addColumn<int>("shape");
        QTest::addRow("quadratic") << 0;
        QTest::addRow("sum of absolute values (a kink at the minimum, like a mean |error|)") << 1;
        QTest::addRow("badly scaled quadratic") << 2;
    }
    void findsTheMinimum()
    {
        QFETCH(int, shape);
        const Point minimum{0.3, 0.72, 0.55};
        const auto function = [&](const Point &x) {
            double value = 0;
            for (std::size_t i = 0; i < x.size(); ++i) {
                const double d = x[i] - minimum[i];
                value += shape == 1 ? std::abs(d) : (shape == 2 ? std::pow(10.0, double(i)) : 1.0) * d * d;
            }
            return value;
        };
        const NelderMeadResult result = minimiseInUnitBox(function, {0.9, 0.1, 0.5});
        QVERIFY2(std::sqrt(squaredDistance(result.point, minimum)) < 1e-3,
                 qPrintable(QStringLiteral("%1 %2 %3").arg(result.point[0]).arg(result.point[1]).arg(result.point[2])));
        QVERIFY(result.evaluations <= NelderMeadOptions{}.max_evaluations);
        QCOMPARE(result.value, function(result.point));
    }

    // The minimum lies outside the box: the result is on the box's face, never outside it.
    void staysInTheUnitBox()
    {
        int outside = 0;
        const auto function = [&](const Point &x) {
            for (double v : x)
                outside += (v < 0 || v > 1) ? 1 : 0;
            return (x[0] - 1.7) * (x[0] - 1.7) + (x[1] + 0.4) * (x[1] + 0.4);
        };
        const NelderMeadResult result = minimiseInUnitBox(function, {2.0, -1.0});
        QCOMPARE(outside, 0);
        QVERIFY(std::abs(result.point[0] - 1.0) < 1e-6);
        QVERIFY(std::abs(result.point[1] - 0.0) < 1e-6);
    }

    void keepsToTheBudgetAndIsDeterministic()
    {
        int calls = 0;
        const auto function = [&](const Point &x) {
            ++calls;
            return std::cos(7 * x[0]) * std::sin(5 * x[1]) + x[0] * x[1];
        };
        NelderMeadOptions options;
        options.max_evaluations = 25;
        const NelderMeadResult first = minimiseInUnitBox(function, {0.5, 0.5}, options);
        QCOMPARE(calls, first.evaluations);
        QVERIFY(first.evaluations <= 25);
        const NelderMeadResult second = minimiseInUnitBox(function, {0.5, 0.5}, options);
        QCOMPARE(first.point, second.point);
        QCOMPARE(first.value, second.value);
    }

    // A failed evaluation (NaN) counts as the worst value, never as the best.
    void nanIsTheWorstValue()
    {
        const auto function = [](const Point &x) {
            return x[0] > 0.8 ? std::nan("") : (x[0] - 0.6) * (x[0] - 0.6);
        };
        const NelderMeadResult result = minimiseInUnitBox(function, {0.95});
        QVERIFY(std::isfinite(result.value));
        QVERIFY(std::abs(result.point[0] - 0.6) < 1e-3);
    }
};

QTEST_GUILESS_MAIN(TestNelderMead)
#include "test_nelder_mead.moc"
