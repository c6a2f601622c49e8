// SPDX-License-Identifier: GPL-3.0-or-later
// A long data-driven GUI test split into several CTest entries that `ctest --parallel` runs side
// by side (tests/CMakeLists.txt lse_shard_test): LSE_TEST_SHARD="i/n" keeps the data rows i, i + n,
// i + 2n, ... of each data function; the functions without rows run in shard 0 only. Unset, the
// test runs whole, as when started by hand.
#pragma once

#include <QByteArray>
#include <QList>
#include <QtGlobal>

namespace lse::test {

struct TestShard {
    int index = 0;
    int count = 1;
};

inline TestShard testShard()
{
    const QList<QByteArray> parts = qgetenv("LSE_TEST_SHARD").split('/');
    TestShard shard;
    if (parts.size() == 2) {
        bool index_ok = false, count_ok = false;
        const int index = parts[0].toInt(&index_ok), count = parts[1].toInt(&count_ok);
        if (index_ok && count_ok && count >= 1 && index >= 0 && index < count)
            shard = {index, count};
    }
    return shard;
}

// Whether data row `row` (0-based, in the order the rows are added) belongs to this shard.
inline bool rowInThisShard(int row) { return row % testShard().count == testShard().index; }

// Whether the test functions without data rows run here.
inline bool isFirstShard() { return testShard().index == 0; }

}  // namespace lse::test
