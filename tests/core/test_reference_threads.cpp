// SPDX-License-Identifier: GPL-3.0-or-later
// The reference trainer's default thread count (core/reference/thread_choice.h): on a machine
// where other processes keep cores busy it must not put a thread on each of them (issue 13,
// item 11: 2 threads on a 2-core machine with one core busy trained 8× slower than 1). The rule
// and the /proc/stat arithmetic are tested on given numbers, so the result does not depend on
// the load while the test runs.
#include "reference/thread_choice.h"
#include "reference/token_data.h"
#include "reference/trainer.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace lse;
using namespace lse::reference;

class TestReferenceThreads : public QObject {
    Q_OBJECT
private slots:
    void idleCoresRule()
    {
        QCOMPARE(threadsForIdleCores(2, 0.0), 2);
        QCOMPARE(threadsForIdleCores(2, 0.1), 2);   // background noise leaves both cores
        QCOMPARE(threadsForIdleCores(2, 1.0), 1);   // the case: one core busy
        QCOMPARE(threadsForIdleCores(2, 0.5), 1);   // half a core busy still stalls every barrier
        QCOMPARE(threadsForIdleCores(2, 2.0), 1);   // never fewer than one
        QCOMPARE(threadsForIdleCores(2, 7.0), 1);
        QCOMPARE(threadsForIdleCores(8, 3.0), 5);
        QCOMPARE(threadsForIdleCores(4, -1), 4);    // unknown load: all cores
        QCOMPARE(threadsForIdleCores(0, 0), 1);
    }

    void busyCoresFromProcStat()
    {
        // user nice system idle iowait irq softirq steal guest guest_nice, in jiffies.
        const std::string before = "cpu  1000 0 500 8000 100 0 0 0 0 0";
        // 200 jiffies passed on 2 cores: 90 user, 10 system, 95 idle, 5 iowait → half busy.
        const std::string after = "cpu  1090 0 510 8095 105 0 0 0 0 0";
        const std::optional<double> busy = busyCoresBetween(before, after, 2);
        QVERIFY(busy);
        QCOMPARE(*busy, 1.0);
        QCOMPARE(threadsForIdleCores(2, *busy), 1);
        QVERIFY(!busyCoresBetween("cpu0 1 2 3 4 5", "cpu0 1 2 3 4 5", 2));  // not the aggregate line
        QVERIFY(!busyCoresBetween(before, before, 2));                     // no time passed
        QVERIFY(!busyCoresBetween("garbage", after, 2));
    }

    void requestedCountIsKept()
    {
        const ThreadChoice choice = chooseThreads(3);
        QCOMPARE(choice.threads, 3);
        QVERIFY(choice.requested);
        QCOMPARE(QString::fromStdString(choice.reason()), QStringLiteral("3 threads (requested)"));
    }

    void defaultSamplesTheMachine()
    {
        const ThreadChoice choice = chooseThreads(0, 0.05);
        QVERIFY(!choice.requested);
        QVERIFY(choice.threads >= 1 && choice.threads <= choice.logical_cores);
        QCOMPARE(choice.threads, threadsForIdleCores(choice.logical_cores, choice.busy_cores));
        QVERIFY(QString::fromStdString(choice.reason()).contains(QStringLiteral("cores")));
    }

    // The trainer reports the threads it set, so the CLI and the GUI can print them.
    void trainerReportsItsThreads()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string data = dir.filePath(QStringLiteral("t.bin")).toStdString();
        std::vector<std::uint32_t> ids(600);
        for (std::size_t i = 0; i < ids.size(); ++i)
            ids[i] = std::uint32_t(i % 16);
        QVERIFY(writeTokenFile(data, ids, TokenDtype::U16).ok());
        TrainConfig c;
        c.model.n_layers = 1;
        c.model.d_model = 16;
        c.model.n_heads = 2;
        c.model.n_kv_heads = 2;
        c.model.head_dim = 8;
        c.model.d_ff = 32;
        c.model.vocab_size = 16;
        c.model.max_seq_len = 8;
        c.data_path = data;
        c.batch_size = 2;
        c.steps = 2;
        c.warmup_steps = 1;
        c.eval_every = 0;
        c.threads = 1;
        Result<std::unique_ptr<Trainer>> trainer = Trainer::create(c);
        QVERIFY2(trainer.ok(), formatProblems(trainer.problems()).c_str());
        QCOMPARE(trainer.value()->threadChoice().threads, 1);
        QVERIFY(trainer.value()->threadChoice().requested);
        c.threads = 0;
        Result<std::unique_ptr<Trainer>> chosen = Trainer::create(c);
        QVERIFY(chosen.ok());
        QVERIFY(!chosen.value()->threadChoice().requested);
        QVERIFY(chosen.value()->threadChoice().threads >= 1);
    }
};

QTEST_GUILESS_MAIN(TestReferenceThreads)
#include "test_reference_threads.moc"
