// SPDX-License-Identifier: GPL-3.0-or-later
// The sampler against the distribution it should draw from: greedy and top-k 1 take the first
// maximum, temperature-scaled softmax frequencies over many draws, top-p keeps the smallest set
// of most probable tokens reaching p (also when that set is thousands of tokens, beyond the first
// sorted head), top-k then top-p, and the same seed giving the same tokens.
#include "reference/sampler.h"

#include <QtTest>

#include <cmath>
#include <map>
#include <vector>

using namespace lse::reference;

namespace {

GenerateOptions sampling(double temperature, int top_k = 0, double top_p = 1.0)
{
    GenerateOptions o;
    o.temperature = temperature;
    o.top_k = top_k;
    o.top_p = top_p;
    return o;
}

// Draw counts of `draws` tokens.
std::map<std::int32_t, int> countDraws(const std::vector<float> &logits, const GenerateOptions &options, int draws,
                                       std::uint64_t seed = 7)
{
    SamplerScratch scratch(std::int64_t(logits.size()));
    Sampler sampler(seed, scratch);
    std::map<std::int32_t, int> counts;
    for (int i = 0; i < draws; ++i)
        ++counts[sampler.next(logits.data(), options)];
    return counts;
}

// softmax(logits / temperature) restricted to `kept` and renormalised.
std::vector<double> expectedShares(const std::vector<float> &logits, double temperature, const std::vector<int> &kept)
{
    std::vector<double> share(logits.size(), 0.0);
    double sum = 0;
    for (const int id : kept)
        sum += share[std::size_t(id)] = std::exp(double(logits[std::size_t(id)]) / temperature);
    for (double &s : share)
        s /= sum;
    return share;
}

// Every count within 5 standard deviations of its binomial expectation.
void compareCounts(const std::map<std::int32_t, int> &counts, const std::vector<double> &share, int draws)
{
    for (std::size_t id = 0; id < share.size(); ++id) {
        const auto it = counts.find(std::int32_t(id));
        const int got = it == counts.end() ? 0 : it->second;
        const double mean = draws * share[id];
        const double sd = std::sqrt(draws * share[id] * (1 - share[id]));
        if (share[id] == 0)
            QVERIFY2(got == 0, qPrintable(QString("token %1 is outside the kept set but drawn %2 times").arg(id).arg(got)));
        else
            QVERIFY2(std::abs(got - mean) <= 5 * sd + 1,
                     qPrintable(QString("token %1: %2 draws, expected %3 ± %4").arg(id).arg(got).arg(mean).arg(sd)));
    }
}

}  // namespace

class TestSampler : public QObject {
    Q_OBJECT
private slots:
    void greedyAndTopOneTakeTheFirstMaximum()
    {
        const std::vector<float> logits{0.5f, 3.0f, -1.0f, 3.0f, 2.9f};
        SamplerScratch scratch(5);
        Sampler sampler(1, scratch);
        for (int i = 0; i < 20; ++i) {
            QCOMPARE(sampler.next(logits.data(), sampling(0)), 1);
            QCOMPARE(sampler.next(logits.data(), sampling(1.3, 1)), 1);
            QCOMPARE(sampler.next(logits.data(), sampling(1.0, 0, 1e-9)), 1);  // a nucleus of one
        }
    }

    void temperatureScaledSoftmax()
    {
        // Every token kept: drawn in id order, no sort; the shares are softmax(l / T).
        const std::vector<float> logits{1.0f, 0.0f, 2.0f, -1.0f, 0.5f, 1.5f};
        const int draws = 60000;
        for (const double temperature : {0.5, 1.0, 2.0})
            compareCounts(countDraws(logits, sampling(temperature), draws), expectedShares(logits, temperature, {0, 1, 2, 3, 4, 5}),
                          draws);
    }

    void nucleusIsTheSmallestSetReachingP()
    {
        // Probabilities 0.5, 0.3, 0.15, 0.05 (ids 2, 0, 3, 1): p = 0.75 keeps two tokens, 0.81 three.
        const std::vector<float> logits{float(std::log(0.3)), float(std::log(0.05)), float(std::log(0.5)),
                                        float(std::log(0.15))};
        const int draws = 40000;
        compareCounts(countDraws(logits, sampling(1.0, 0, 0.75), draws), expectedShares(logits, 1.0, {2, 0}), draws);
        compareCounts(countDraws(logits, sampling(1.0, 0, 0.81), draws), expectedShares(logits, 1.0, {2, 0, 3}), draws);
        // top-k first (two tokens, renormalised to 0.625 / 0.375), then top-p 0.6 of those: one.
        compareCounts(countDraws(logits, sampling(1.0, 2, 0.6), draws), expectedShares(logits, 1.0, {2}), draws);
        compareCounts(countDraws(logits, sampling(1.0, 3, 1.0), draws), expectedShares(logits, 1.0, {2, 0, 3}), draws);
    }

    void largeNucleusBeyondTheFirstSortedHead()
    {
        // 5000 tokens: 3000 at logit 0 (ids 1000..3999) and 2000 far below. p = 0.5 of a flat
        // head needs 1500 of the 3000, more than the first heads the sampler sorts (64, 512):
        // the lowest ids among equal logits, 1000..2499.
        std::vector<float> logits(5000, -30.0f);
        for (int id = 1000; id < 4000; ++id)
            logits[std::size_t(id)] = 0.0f;
        const std::map<std::int32_t, int> counts = countDraws(logits, sampling(1.0, 0, 0.5), 3000);
        QVERIFY(counts.begin()->first >= 1000);
        QVERIFY(counts.rbegin()->first <= 2500);  // the 1500th or, by rounding, the 1501st
        QVERIFY(counts.rbegin()->first >= 2400);  // none of the last 100 drawn: odds e^-200
        QVERIFY(counts.size() > 1000);            // about 1300 distinct of 1500 expected
    }

    void sameSeedSameTokens()
    {
        std::vector<float> logits(1000);
        for (std::size_t i = 0; i < logits.size(); ++i)
            logits[i] = float(std::sin(double(i)));
        for (const GenerateOptions &options : {sampling(1.0), sampling(0.8, 50), sampling(1.2, 0, 0.9)}) {
            SamplerScratch shared(1000);  // as generate's sequences share one
            Sampler a(42, shared), b(42, shared), c(43, shared);
            std::vector<std::int32_t> fromA, fromB, fromC;
            for (int i = 0; i < 50; ++i) {
                fromA.push_back(a.next(logits.data(), options));
                fromB.push_back(b.next(logits.data(), options));
                fromC.push_back(c.next(logits.data(), options));
            }
            QVERIFY(fromA == fromB);
            QVERIFY(fromA != fromC);
        }
    }
};

QTEST_GUILESS_MAIN(TestSampler)
#include "test_sampler.moc"
