// SPDX-License-Identifier: GPL-3.0-or-later
// core/common memory helpers: the prefaulted allocator in each of its size classes, ZeroedArray
// (zero start, copy, move, clear) and memory-mapped file views.
#include "common/file_bytes.h"
#include "common/prefaulted_allocator.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstdint>
#include <string_view>
#include <vector>

using namespace lse;

class TestPrefaultedMemory : public QObject {
    Q_OBJECT

private slots:
    void prefaultedAllocatorAcrossSizeClasses_data()
    {
        QTest::addColumn<qint64>("bytes");
        // operator new, mmap(MAP_POPULATE), huge-page mapping; sizes off the page grid.
        for (const qint64 bytes : {qint64(4000), qint64(64 << 10), qint64(300001), qint64(2 << 20), qint64(5000003)})
            QTest::addRow("%lld bytes", static_cast<long long>(bytes)) << bytes;
    }

    void prefaultedAllocatorAcrossSizeClasses()
    {
        QFETCH(qint64, bytes);
        std::vector<std::uint32_t, PrefaultedAllocator<std::uint32_t>> v(static_cast<std::size_t>(bytes) / 4, 7u);
        for (std::size_t i = 0; i < v.size(); i += 1021)
            QCOMPARE(v[i], 7u);
        v.back() = 9;
        v.push_back(1);  // grows into a larger class and moves the contents
        QCOMPARE(v[v.size() - 2], 9u);
        QCOMPARE(v.front(), 7u);
        QVERIFY(reinterpret_cast<std::uintptr_t>(v.data()) % alignof(std::uint32_t) == 0);
    }

    void mappedFileBytesEqualTheFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("f.txt");
        QByteArray data;
        for (int i = 0; i < 100000; ++i)
            data += QByteArray::number(i) + (i % 7 ? " " : "\n");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data);
        f.close();
        Result<FileBytes> mapped = mapFileBytes(path.toStdString(), FileKind::Data);
        QVERIFY(mapped.ok());
        FileBytes moved = std::move(mapped.value());  // the view survives a move
        QCOMPARE(moved.view(), std::string_view(data.constData(), std::size_t(data.size())));
        QVERIFY(mapFileBytes(dir.filePath("empty").toStdString(), FileKind::Data).problems().front().rule == "unreadable");
        QFile empty(dir.filePath("empty"));
        QVERIFY(empty.open(QIODevice::WriteOnly));
        empty.close();
        const Result<FileBytes> none = mapFileBytes(dir.filePath("empty").toStdString(), FileKind::Data);
        QVERIFY(none.ok());
        QVERIFY(none->view().empty());
    }

    void zeroedArrayStartsZeroAndCopies_data()
    {
        QTest::addColumn<qint64>("count");
        // calloc below 64 KiB, fresh pages above (4 KiB and huge-page classes).
        for (const qint64 count : {qint64(0), qint64(1), qint64(1000), qint64(100000), qint64(1000003)})
            QTest::addRow("%lld entries", static_cast<long long>(count)) << count;
    }

    void zeroedArrayStartsZeroAndCopies()
    {
        QFETCH(qint64, count);
        struct Pair {
            std::uint64_t key;
            std::uint32_t a, b;
        };
        ZeroedArray<Pair> array(static_cast<std::size_t>(count));
        QCOMPARE(array.size(), std::size_t(count));
        for (const Pair &p : array)
            QVERIFY(p.key == 0 && p.a == 0 && p.b == 0);
        if (count == 0)
            return;
        array[array.size() - 1] = {4, 5, 6};
        array[0] = {1, 2, 3};
        ZeroedArray<Pair> copy = array;
        QCOMPARE(copy[0].b, 3u);
        QCOMPARE(copy[copy.size() - 1].key, std::uint64_t(copy.size() > 1 ? 4 : 1));
        ZeroedArray<Pair> moved = std::move(array);
        QVERIFY(array.empty());
        QCOMPARE(moved[0].a, 2u);
        moved.clear();
        QCOMPARE(moved[0].key, std::uint64_t(0));
        QCOMPARE(copy[0].key, std::uint64_t(1));  // the copy owns its memory
        copy = ZeroedArray<Pair>(3);
        QCOMPARE(copy.size(), std::size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestPrefaultedMemory)
#include "test_prefaulted_memory.moc"
