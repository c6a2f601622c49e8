// SPDX-License-Identifier: GPL-3.0-or-later
// Communicator::send / recv over in-process ranks (issue 33's pipeline stages): messages arrive
// in order and intact, sends are buffered (two ranks that both send before they receive do not
// deadlock), point-to-point and collectives do not mix their messages, the records carry the
// peer and the bytes, and a bad peer or a length mismatch fails instead of hanging.

#include "distributed/thread_group.h"

#include <QTest>

#include <stdexcept>
#include <vector>

using namespace lse::distributed;

class TestPointToPoint : public QObject {
    Q_OBJECT

private slots:
    void sendsArriveInOrderAndAreRecorded()
    {
        ThreadGroup group(3);
        std::vector<std::vector<CollectiveRecord>> records(3);
        std::vector<std::vector<float>> received(3);
        group.run([&](Communicator &c) {
            const int r = c.rank();
            // A chain 0 → 1 → 2 of two messages each, then 2 → 0.
            std::vector<float> a(5), b(5);
            if (r == 0) {
                for (int i = 0; i < 5; ++i)
                    a[std::size_t(i)] = float(i), b[std::size_t(i)] = float(10 + i);
                c.send(a.data(), 5, 1);
                c.send(b.data(), 5, 1);
                std::vector<float> back(2);
                c.recv(back.data(), 2, 2);
                received[0] = back;
            } else if (r == 1) {
                c.recv(a.data(), 5, 0);
                c.recv(b.data(), 5, 0);
                received[1] = a;
                received[1].insert(received[1].end(), b.begin(), b.end());
                c.send(b.data(), 5, 2);
            } else {
                c.recv(a.data(), 5, 1);
                received[2] = a;
                const float pair[2] = {a[0], a[4]};
                c.send(pair, 2, 0);
            }
            records[std::size_t(r)] = c.takeRecords();
        });
        QCOMPARE(received[1], (std::vector<float>{0, 1, 2, 3, 4, 10, 11, 12, 13, 14}));
        QCOMPARE(received[2], (std::vector<float>{10, 11, 12, 13, 14}));
        QCOMPARE(received[0], (std::vector<float>{10, 14}));

        QCOMPARE(int(records[0].size()), 3);
        QCOMPARE(toString(records[0][0].collective), std::string_view("send"));
        QCOMPARE(records[0][0].peer, 1);
        QCOMPARE(records[0][0].bytes_sent, std::int64_t(20));
        QCOMPARE(records[0][0].bytes_received, std::int64_t(0));
        QCOMPARE(records[0][0].elements, std::int64_t(5));
        QCOMPARE(toString(records[0][2].collective), std::string_view("recv"));
        QCOMPARE(records[0][2].peer, 2);
        QCOMPARE(records[0][2].bytes_sent, std::int64_t(0));
        QCOMPARE(records[0][2].bytes_received, std::int64_t(8));
        for (const auto &rank_records : records)
            for (const CollectiveRecord &record : rank_records)
                QVERIFY(record.seconds >= 0 && record.waited_seconds >= 0);
    }

    // Both ranks send first, then receive: a blocking send that waited for its receiver would
    // deadlock here (the 1F1B steady state has this shape between neighbouring stages).
    void sendsAreBuffered()
    {
        ThreadGroup group(2);
        std::vector<float> got(2, -1);
        group.run([&](Communicator &c) {
            const int peer = 1 - c.rank();
            std::vector<float> big(1 << 16, float(c.rank() + 1));
            c.send(big.data(), std::int64_t(big.size()), peer);
            std::vector<float> in(big.size());
            c.recv(in.data(), std::int64_t(in.size()), peer);
            got[std::size_t(c.rank())] = in.back();
        });
        QCOMPARE(got, (std::vector<float>{2, 1}));
    }

    // A point-to-point message never satisfies a collective's transfer, nor the reverse.
    void pointToPointAndCollectivesDoNotMix()
    {
        ThreadGroup group(2);
        std::vector<float> sums(2), messages(2);
        group.run([&](Communicator &c) {
            float token = float(100 + c.rank());
            if (c.rank() == 0)
                c.send(&token, 1, 1);
            float value = float(c.rank() + 1);
            c.allReduceSum(&value, 1);
            sums[std::size_t(c.rank())] = value;
            if (c.rank() == 1) {
                c.recv(&token, 1, 0);
                messages[1] = token;
            }
        });
        QCOMPARE(sums, (std::vector<float>{3, 3}));
        QCOMPARE(messages[1], 100.0f);
    }

    void badPeersAndLengthsFail()
    {
        ThreadGroup group(2);
        group.run([&](Communicator &c) {
            float x = 0;
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.send(&x, 1, c.rank()));
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.send(&x, 1, 2));
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.recv(&x, 1, -1));
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.recv(nullptr, 1, 1 - c.rank()));
        });
        // Rank 1 expects 2 floats, rank 0 sends 3: rank 1 fails and the group reports it.
        ThreadGroup mismatch(2);
        bool threw = false;
        try {
            mismatch.run([&](Communicator &c) {
                float buffer[3] = {1, 2, 3};
                if (c.rank() == 0)
                    c.send(buffer, 3, 1);
                else
                    c.recv(buffer, 2, 0);
            });
        } catch (const std::runtime_error &) {
            threw = true;
        }
        QVERIFY(threw);
    }
};

QTEST_GUILESS_MAIN(TestPointToPoint)
#include "test_point_to_point.moc"
