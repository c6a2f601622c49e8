// SPDX-License-Identifier: GPL-3.0-or-later
// The encoder's open-addressing tables and the vocabulary parser, checked against the standard
// library on the same inputs.
#include "tokenizer/flat_tables.h"
#include "tokenizer/pretoken_cache.h"
#include "tokenizer/vocab_json.h"

#include <QTest>

#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace lse;

class TestTokenizerTables : public QObject {
    Q_OBJECT

private slots:
    void equalBytesMatchesMemcmpForEveryLength()
    {
        // Every length 0..40 and a difference at every position: the overlapping loads must
        // cover every byte exactly.
        for (std::size_t n = 0; n <= 40; ++n) {
            std::string a(n, 'x'), b(n, 'x');
            QVERIFY(equalBytes(a.data(), b.data(), n));
            for (std::size_t i = 0; i < n; ++i) {
                b[i] = 'y';
                QVERIFY2(!equalBytes(a.data(), b.data(), n), qPrintable(QStringLiteral("n=%1 i=%2").arg(n).arg(i)));
                b[i] = 'x';
            }
        }
    }

    void byteStringTableAgreesWithStdMap()
    {
        ByteStringTable table(4);  // tiny start: forces several rehashes
        std::map<std::string, std::uint32_t> expected;
        std::mt19937 rng(7);
        for (std::uint32_t i = 0; i < 20000; ++i) {
            std::string key(1 + rng() % 24, '\0');
            for (char &c : key)
                c = static_cast<char>(rng() % 6);  // few distinct bytes: many near-collisions
            if (i % 3 == 0 && !expected.empty())
                key = expected.begin()->first;  // overwrite an existing key
            table.insert(key, i, i * 2);
            expected[key] = i;
        }
        QCOMPARE(table.size(), expected.size());
        for (const auto &[key, value] : expected) {
            const ByteStringTable::Slot *slot = table.find(key);
            QVERIFY(slot);
            QCOMPARE(slot->first, value);
            QCOMPARE(slot->second, value * 2);
        }
        QVERIFY(!table.find(std::string(30, '\x07')));
        table.clear();
        QCOMPARE(table.size(), std::size_t(0));
        QVERIFY(!table.find(expected.begin()->first));
    }

    void pairRankTableKeepsFirstRank_data()
    {
        QTest::addColumn<qint64>("idLimit");
        QTest::addColumn<bool>("compact");
        QTest::addRow("compact (ids < 65535)") << qint64(60000) << true;
        QTest::addRow("wide") << qint64(100000) << false;
    }

    void pairRankTableKeepsFirstRank()
    {
        QFETCH(qint64, idLimit);
        QFETCH(bool, compact);
        PairRankTable table;
        table.reserve(2, static_cast<std::size_t>(idLimit));  // tiny start: forces several rehashes
        QCOMPARE(table.isCompact(), compact);
        for (std::uint32_t i = 0; i < 5000; ++i)
            table.insert(i, i + 1, i, 50000 + i);
        table.insert(3, 4, 9999, 7);  // a repeated pair keeps its first (lowest) rank
        table.insert(0, 0, 5000, 0);  // the smallest ids are an ordinary pair
        table.insert(0x8000, 0x7FFE, 5001, 9);  // ids whose bits together fill 16 bits
        QCOMPARE(table.size(), std::size_t(5002));
        QCOMPARE(table.isCompact(), compact);
        const auto check = [&](std::uint32_t idBase) {
            for (std::uint32_t i = 0; i < 5000; ++i) {
                const PairRankTable::Merge e = table.find(i, i + 1);
                QVERIFY(e);
                QCOMPARE(e.rank, i);
                QCOMPARE(e.id, idBase + i);
            }
            QVERIFY(!table.find(1, 0));
            QVERIFY(!table.find(80000, 1));
            QVERIFY(!table.find(1, 80000));
            QCOMPARE(table.find(0, 0).rank, 5000u);
            QCOMPARE(table.find(0x8000, 0x7FFE).id, 9u);
        };
        check(50000);
        // A value beyond 16 bits widens a compact table and keeps every entry.
        table.insert(70000, 1, 5002, 70001);
        QVERIFY(!table.isCompact());
        check(50000);
        QCOMPARE(table.find(70000, 1).id, 70001u);
        QVERIFY(!PairRankTable().find(0, 1));
    }

    void pretokenCacheAgreesWithStdMap()
    {
        // Keys of every cached length (2..16) over a 3-letter alphabet, so that many keys share
        // their first or last 8 bytes; 1..16 ids each, inline (<= 3) and in the overflow array.
        PretokenCache cache(4);  // tiny start: forces several rehashes
        std::map<std::string, std::vector<std::uint32_t>> expected;
        std::mt19937 rng(11);
        for (std::uint32_t i = 0; i < 30000; ++i) {
            std::string key(PretokenCache::kMinKeyBytes + rng() % 15, '\0');
            for (char &c : key)
                c = "ab\xE4"[rng() % 3];
            if (expected.count(key))
                continue;
            std::vector<std::uint32_t> ids(1 + rng() % key.size());
            for (std::uint32_t &id : ids)
                id = static_cast<std::uint32_t>(rng());
            const PretokenCache::Key k = PretokenCache::keyOf(key);
            std::uint32_t count = 0;
            QVERIFY(!cache.find(k, count));
            cache.insert(k, ids.data(), static_cast<std::uint32_t>(ids.size()));
            expected[key] = ids;
        }
        QCOMPARE(cache.size(), expected.size());
        for (const auto &[key, ids] : expected) {
            std::uint32_t count = 0;
            const std::uint32_t *got = cache.find(PretokenCache::keyOf(key), count);
            QVERIFY2(got, key.c_str());
            QCOMPARE(std::vector<std::uint32_t>(got, got + count), ids);
        }
        // A key outside the alphabet was never inserted.
        std::uint32_t count = 0;
        QVERIFY(!cache.find(PretokenCache::keyOf(std::string(16, 'z')), count));
        cache.clear();
        QCOMPARE(cache.size(), std::size_t(0));
        QVERIFY(!cache.find(PretokenCache::keyOf(expected.begin()->first), count));
    }

    void pretokenCacheKeysAreExact()
    {
        // Two keys are equal exactly when their bytes are: a difference at any position of any
        // cached length changes the key's words.
        for (std::size_t n = PretokenCache::kMinKeyBytes; n <= PretokenCache::kMaxKeyBytes; ++n) {
            std::string a(n, 'x');
            const PretokenCache::Key ka = PretokenCache::keyOf(a);
            for (std::size_t i = 0; i < n; ++i) {
                std::string b = a;
                b[i] = 'y';
                const PretokenCache::Key kb = PretokenCache::keyOf(b);
                QVERIFY2(ka.first != kb.first || ka.last != kb.last, qPrintable(QStringLiteral("n=%1 i=%2").arg(n).arg(i)));
            }
            const PretokenCache::Key longer = PretokenCache::keyOf(std::string(n + 1, 'x'));
            QVERIFY(longer.length != ka.length);
        }
    }

    void byteStringListStoresByIdInAnyOrder()
    {
        ByteStringList list;
        list.set(3, "three");
        list.set(0, std::string_view("\0z", 2));
        list.push_back("four");
        QCOMPARE(list.size(), std::size_t(5));
        QCOMPARE(list[0], std::string_view("\0z", 2));
        QVERIFY(list[1].empty() && list[2].empty());
        QCOMPARE(list[3], std::string_view("three"));
        QCOMPARE(list.at(4), std::string_view("four"));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, list.at(5));
        list.set(3, "3");  // replacing keeps the others
        QCOMPARE(list[3], std::string_view("3"));
        QCOMPARE(list[4], std::string_view("four"));
        list.clear();
        QVERIFY(list.empty());
    }

    void vocabularyParser_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("firstKey");
        QTest::addColumn<qint64>("firstValue");
        QTest::addRow("plain") << QByteArray("{\"a\": 0, \"b\": 1}") << true << "a" << qint64(0);
        QTest::addRow("whitespace") << QByteArray(" \n{\r\n\t\"x\" :\t12 ,\"y\":3 }\n") << true << "x" << qint64(12);
        QTest::addRow("empty object") << QByteArray("{}") << true << QString() << qint64(-1);
        QTest::addRow("escapes") << QByteArray("{\"\\\"\\\\\\/\\b\\f\\n\\r\\t\": 5}") << true << "\"\\/\b\f\n\r\t" << qint64(5);
        QTest::addRow("unicode escape") << QByteArray("{\"\\u0120the\": 7}") << true << QString::fromUtf8("\u0120the") << qint64(7);
        QTest::addRow("surrogate pair") << QByteArray("{\"\\ud83d\\ude00\": 9}") << true << QString::fromUtf8("😀") << qint64(9);
        QTest::addRow("raw utf-8") << QByteArray("{\"语言\": 42}") << true << QString::fromUtf8("语言") << qint64(42);
        QTest::addRow("lone high surrogate") << QByteArray("{\"\\ud83d\": 1}") << false << QString() << qint64(0);
        QTest::addRow("lone low surrogate") << QByteArray("{\"\\ude00\": 1}") << false << QString() << qint64(0);
        QTest::addRow("bad escape") << QByteArray("{\"\\q\": 1}") << false << QString() << qint64(0);
        QTest::addRow("raw control char") << QByteArray("{\"a\tb\": 1}") << false << QString() << qint64(0);
        QTest::addRow("negative") << QByteArray("{\"a\": -1}") << false << QString() << qint64(0);
        QTest::addRow("fraction") << QByteArray("{\"a\": 1.5}") << false << QString() << qint64(0);
        QTest::addRow("exponent") << QByteArray("{\"a\": 1e3}") << false << QString() << qint64(0);
        QTest::addRow("leading zero") << QByteArray("{\"a\": 01}") << false << QString() << qint64(0);
        QTest::addRow("string value") << QByteArray("{\"a\": \"1\"}") << false << QString() << qint64(0);
        QTest::addRow("nested") << QByteArray("{\"a\": {}}") << false << QString() << qint64(0);
        QTest::addRow("trailing comma") << QByteArray("{\"a\": 1,}") << false << QString() << qint64(0);
        QTest::addRow("truncated") << QByteArray("{\"a\": 1") << false << QString() << qint64(0);
        QTest::addRow("truncated string") << QByteArray("{\"a") << false << QString() << qint64(0);
        QTest::addRow("trailing garbage") << QByteArray("{\"a\": 1} x") << false << QString() << qint64(0);
        QTest::addRow("overflow") << QByteArray("{\"a\": 99999999999999999999}") << false << QString() << qint64(0);
        QTest::addRow("array") << QByteArray("[1, 2]") << false << QString() << qint64(0);
    }

    void vocabularyParser()
    {
        QFETCH(QByteArray, json);
        QFETCH(bool, valid);
        QFETCH(QString, firstKey);
        QFETCH(qint64, firstValue);
        const auto members = parseFlatJsonIntObject(std::string_view(json.constData(), std::size_t(json.size())));
        QCOMPARE(members.has_value(), valid);
        if (!valid)
            return;
        if (firstValue < 0) {
            QVERIFY(members->empty());
            return;
        }
        QCOMPARE(QString::fromStdString(members->front().first), firstKey);
        QCOMPARE(qint64(members->front().second), firstValue);
    }
};

QTEST_GUILESS_MAIN(TestTokenizerTables)
#include "test_tokenizer_tables.moc"
