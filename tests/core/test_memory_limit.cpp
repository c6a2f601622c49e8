// SPDX-License-Identifier: GPL-3.0-or-later
// The memory this process can get (issue 28, item 12): the smallest of physical memory, the
// address-space limit (ulimit -v) and the data limit (ulimit -d) less what is in use, and the cgroup
// limit of this process's cgroup or an ancestor (v2 memory.max, v1 memory.limit_in_bytes), each
// named in the sentence a refusal prints; and the reference model's checks use it, so that a batch
// that fits the machine but not `ulimit -v 4000000` is refused instead of aborting in bad_alloc.
#include "common/memory_limit.h"
#include "reference/size_limits.h"
#include "reference/trainer.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>

using namespace lse;

namespace {

constexpr double kGB = 1e9;

bool contains(const std::string &text, const char *part) { return text.find(part) != std::string::npos; }

bool writeText(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

}  // namespace

class TestMemoryLimit : public QObject {
    Q_OBJECT
private slots:
    void nothingKnownIsUnknown()
    {
        const MemoryAvailable none = smallestMemoryLimit(MemoryLimitReadings{});
        QCOMPARE(none.limit, MemoryLimitKind::Unknown);
        QVERIFY(reference::checkMemoryFits(1e30, none, "x", "").empty());
    }

    void physicalMemoryAlone()
    {
        MemoryLimitReadings r;
        r.physical_bytes = 25.28 * kGB;
        const MemoryAvailable m = smallestMemoryLimit(r);
        QCOMPARE(m.limit, MemoryLimitKind::Physical);
        QCOMPARE(m.bytes, 25.28 * kGB);
        QCOMPARE(m.what, std::string("this machine has 25.28 GB of memory"));
    }

    // ulimit -v 4000000 (KiB) on a 25 GB machine with 296 MB mapped: 3.80 GB are left, and the
    // sentence names RLIMIT_AS with the limit, what is left and what is in use.
    void addressSpaceLimitLessWhatIsMapped()
    {
        MemoryLimitReadings r;
        r.physical_bytes = 25.28 * kGB;
        r.address_space_limit_bytes = 4000000.0 * 1024;
        r.address_space_used_bytes = 0.296 * kGB;
        const MemoryAvailable m = smallestMemoryLimit(r);
        QCOMPARE(m.limit, MemoryLimitKind::AddressSpace);
        QCOMPARE(m.bytes, 4000000.0 * 1024 - 0.296 * kGB);
        QVERIFY2(contains(m.what, "RLIMIT_AS, ulimit -v") && contains(m.what, "4.10 GB") && contains(m.what, "3.80 GB") &&
                     contains(m.what, "296.00 MB in use"),
                 m.what.c_str());
        // Already over the limit: nothing is left, not a negative figure.
        r.address_space_used_bytes = 5 * kGB;
        QCOMPARE(smallestMemoryLimit(r).bytes, 0.0);
    }

    void theSmallestLimitDecides()
    {
        MemoryLimitReadings r;
        r.physical_bytes = 64 * kGB;
        r.address_space_limit_bytes = 40 * kGB;
        r.address_space_used_bytes = 1 * kGB;  // 39 GB left
        r.data_limit_bytes = 20 * kGB;
        r.data_used_bytes = 0.5 * kGB;  // 19.5 GB left
        r.cgroup_limit_bytes = 8 * kGB;
        r.cgroup_limit_file = "/sys/fs/cgroup/user.slice/memory.max";
        MemoryAvailable m = smallestMemoryLimit(r);
        QCOMPARE(m.limit, MemoryLimitKind::Cgroup);
        QCOMPARE(m.bytes, 8 * kGB);
        QVERIFY2(contains(m.what, "cgroup") && contains(m.what, "/sys/fs/cgroup/user.slice/memory.max"), m.what.c_str());
        r.cgroup_limit_bytes.reset();
        m = smallestMemoryLimit(r);
        QCOMPARE(m.limit, MemoryLimitKind::Data);
        QCOMPARE(m.bytes, 19.5 * kGB);
        QVERIFY2(contains(m.what, "RLIMIT_DATA"), m.what.c_str());
        r.data_limit_bytes.reset();
        QCOMPARE(smallestMemoryLimit(r).limit, MemoryLimitKind::AddressSpace);
        r.address_space_limit_bytes = 100 * kGB;
        QCOMPARE(smallestMemoryLimit(r).limit, MemoryLimitKind::Physical);
    }

    // The reference model's memory rule names the limit that refused it.
    void referenceCheckNamesTheLimit()
    {
        const MemoryAvailable limit{3.8 * kGB, MemoryLimitKind::AddressSpace, "the address-space limit (RLIMIT_AS, ulimit -v) of 4.10 GB leaves 3.80 GB"};
        const Problems problems = reference::checkMemoryFits(10 * kGB, limit, "training.batch_size", "activations 10 GB");
        QCOMPARE(problems.size(), std::size_t(1));
        QCOMPARE(problems.front().rule, std::string("memory"));
        QVERIFY2(contains(problems.front().message, "RLIMIT_AS") && contains(problems.front().message, "raise that limit"),
                 problems.front().message.c_str());
        QVERIFY(reference::checkMemoryFits(3 * kGB, limit, "x", "").empty());
    }

    // cgroup v2 (one cgroup2 mount), v1 (the memory controller's mount beside others), a
    // namespace whose mount root is a sub-hierarchy, and the "no limit" values of both.
    void cgroupFilesOnTheWayUp()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string root = dir.path().toStdString();
        const QString base = dir.path();
        // v2: the leaf says "max", its parent 2 GiB, the grandparent 8 GiB: the parent decides.
        QVERIFY(writeText(base + "/sys/fs/cgroup/user.slice/app.scope/memory.max", "max\n"));
        QVERIFY(writeText(base + "/sys/fs/cgroup/user.slice/memory.max", "2147483648\n"));
        QVERIFY(writeText(base + "/sys/fs/cgroup/memory.max", "8589934592\n"));
        const std::string v2Mounts = "25 1 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";
        std::optional<CgroupMemoryLimit> limit = cgroupMemoryLimit("0::/user.slice/app.scope\n", v2Mounts, root);
        QVERIFY(limit.has_value());
        QCOMPARE(limit->bytes, 2147483648.0);
        QCOMPARE(limit->file, root + "/sys/fs/cgroup/user.slice/memory.max");

        // v1 hybrid: memory controller at /sys/fs/cgroup/memory; 9223372036854771712 means none.
        QVERIFY(writeText(base + "/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes", "536870912\n"));
        QVERIFY(writeText(base + "/sys/fs/cgroup/memory/docker/memory.limit_in_bytes", "9223372036854771712\n"));
        QVERIFY(writeText(base + "/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n"));
        const std::string v1Mounts = "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
                                     "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
                                     "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
        limit = cgroupMemoryLimit("9:name=systemd:/\n4:memory:/docker/abc\n1:cpu:/\n0::/\n", v1Mounts, root);
        QVERIFY(limit.has_value());
        QCOMPARE(limit->bytes, 536870912.0);

        // A container sees its own cgroup as the mount's root: the path outside it stands for the root.
        const std::string nsMounts = "35 31 0:32 /docker/abc /sys/fs/cgroup/memory/docker/abc rw - cgroup cgroup rw,memory\n";
        limit = cgroupMemoryLimit("4:memory:/docker/abc\n", nsMounts, root);
        QVERIFY(limit.has_value());
        QCOMPARE(limit->bytes, 536870912.0);

        // No limit anywhere.
        QVERIFY(writeText(base + "/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes", "9223372036854771712\n"));
        QVERIFY(!cgroupMemoryLimit("4:memory:/docker/abc\n", v1Mounts, root).has_value());
        QVERIFY(!cgroupMemoryLimit("0::/\n", "1 0 0:1 / / rw - ext4 /dev/root rw\n", root).has_value());
    }

    // This process's RLIMIT_AS is read back (set a little above what is mapped, then restored).
    void readsThisProcesssAddressSpaceLimit()
    {
        rlimit old{};
        QVERIFY(::getrlimit(RLIMIT_AS, &old) == 0);
        const MemoryLimitReadings before = readMemoryLimits();
        QVERIFY(before.physical_bytes > 0);
        const double used = [] {
            QFile status(QStringLiteral("/proc/self/status"));
            status.open(QIODevice::ReadOnly);
            for (const QByteArray &line : status.readAll().split('\n'))
                if (line.startsWith("VmSize:"))
                    return line.mid(7).trimmed().split(' ').front().toDouble() * 1024;
            return 0.0;
        }();
        QVERIFY(used > 0);
        rlimit lowered = old;
        const double wanted = used + 2 * kGB;
        if (old.rlim_max != RLIM_INFINITY && double(old.rlim_max) < wanted)
            QSKIP("the hard RLIMIT_AS is below what this test would set; nothing to lower it to");
        lowered.rlim_cur = static_cast<rlim_t>(wanted);
        QVERIFY(::setrlimit(RLIMIT_AS, &lowered) == 0);
        const MemoryLimitReadings r = readMemoryLimits();
        const MemoryAvailable m = memoryAvailableToThisProcess();
        QVERIFY(::setrlimit(RLIMIT_AS, &old) == 0);
        QVERIFY(r.address_space_limit_bytes.has_value());
        QCOMPARE(*r.address_space_limit_bytes, double(lowered.rlim_cur));
        QVERIFY(r.address_space_used_bytes > 0);
        if (r.physical_bytes > 2 * kGB + 1e8 && (!r.cgroup_limit_bytes || *r.cgroup_limit_bytes > 2 * kGB + 1e8))
            QCOMPARE(m.limit, MemoryLimitKind::AddressSpace);
    }
};

QTEST_MAIN(TestMemoryLimit)
#include "test_memory_limit.moc"
