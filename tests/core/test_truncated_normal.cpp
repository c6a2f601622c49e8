// SPDX-License-Identifier: GPL-3.0-or-later
// The initialisation's sampler (reference/truncated_normal.h): N(0, 1) truncated to [-3, 3], as
// PyTorch's trunc_normal_(a=-3, b=3) draws it, checked against the distribution's own moments and
// CDF, and the same values whatever the thread count.
#include "reference/thread_choice.h"
#include "reference/truncated_normal.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace lse::reference;

namespace {

constexpr std::int64_t kSamples = 1 << 20;

double standardNormalCdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// The CDF of N(0, 1) conditioned on [-3, 3].
double truncatedCdf(double x)
{
    const double low = standardNormalCdf(-3.0), mass = standardNormalCdf(3.0) - low;
    return (standardNormalCdf(std::clamp(x, -3.0, 3.0)) - low) / mass;
}

std::vector<double> draw(std::uint64_t stream, std::int64_t n = kSamples)
{
    std::vector<double> values(static_cast<std::size_t>(n));
    fillTruncatedNormal(values.data(), n, 1.0, stream);
    return values;
}

}  // namespace

class TestTruncatedNormal : public QObject {
    Q_OBJECT

private slots:
    // Mean 0 and variance 1 − 2·3·φ(3)/(Φ(3) − Φ(−3)) = 0.973336 (the truncated normal's moments,
    // Johnson, Kotz & Balakrishnan, Continuous Univariate Distributions vol. 1, §10.1). Over 2^20
    // samples the standard errors are 0.001 (mean) and 0.0013 (variance): tolerances of 5 of them.
    void momentsAreTheTruncatedNormals_data()
    {
        QTest::addColumn<quint64>("stream");
        QTest::newRow("stream 0") << quint64(0);
        QTest::newRow("stream of seed 1234, tensor 3") << quint64(truncatedNormalStream(1234, 3));
    }
    void momentsAreTheTruncatedNormals()
    {
        QFETCH(quint64, stream);
        const std::vector<double> values = draw(stream);
        double sum = 0, squares = 0;
        for (double v : values) {
            QVERIFY(v >= -3.0 && v <= 3.0);
            sum += v;
            squares += v * v;
        }
        const double mean = sum / double(values.size());
        const double variance = squares / double(values.size()) - mean * mean;
        const double phi3 = std::exp(-4.5) / std::sqrt(2 * M_PI);
        const double expectedVariance = 1 - 6 * phi3 / (standardNormalCdf(3) - standardNormalCdf(-3));
        QVERIFY2(std::abs(mean) < 0.005, qPrintable(QString("mean %1").arg(mean)));
        QVERIFY2(std::abs(variance - expectedVariance) < 0.0065,
                 qPrintable(QString("variance %1, expected %2").arg(variance).arg(expectedVariance)));
    }

    // Kolmogorov–Smirnov: the largest gap between the sample's CDF and the truncated normal's stays
    // below 1.63/√n, the 1% critical value (n = 2^20: 0.0016). A wrong layer table or a sampled
    // tail shows as a gap of several hundredths.
    void distributionPassesKolmogorovSmirnov()
    {
        std::vector<double> values = draw(truncatedNormalStream(7, 0));
        std::sort(values.begin(), values.end());
        const double n = double(values.size());
        double gap = 0;
        for (std::size_t i = 0; i < values.size(); ++i) {
            const double cdf = truncatedCdf(values[i]);
            gap = std::max({gap, std::abs(cdf - double(i) / n), std::abs(cdf - double(i + 1) / n)});
        }
        QVERIFY2(gap < 1.63 / std::sqrt(n), qPrintable(QString("KS distance %1").arg(gap)));
    }

    // Blocks are independent streams: one thread and two give the same values, a scale multiplies
    // them, and other streams give other values.
    void valuesDoNotDependOnTheThreadCount()
    {
        const std::int64_t n = 3 * kTruncatedNormalBlock + 17;
        useThreads(1);
        const std::vector<double> one = draw(42, n);
        useThreads(2);
        const std::vector<double> two = draw(42, n);
        QVERIFY(one == two);
        std::vector<float> scaled(static_cast<std::size_t>(n));
        fillTruncatedNormal(scaled.data(), n, 0.02, 42);
        for (std::size_t i = 0; i < scaled.size(); i += 997)
            QCOMPARE(scaled[i], float(0.02 * one[i]));
        const std::vector<double> other = draw(43, n);
        QVERIFY(std::mismatch(one.begin(), one.end(), other.begin()).first == one.begin());
        QVERIFY(truncatedNormalStream(1, 0) != truncatedNormalStream(1, 1));
        QVERIFY(truncatedNormalStream(1, 0) != truncatedNormalStream(2, 0));
    }
};

QTEST_GUILESS_MAIN(TestTruncatedNormal)
#include "test_truncated_normal.moc"
