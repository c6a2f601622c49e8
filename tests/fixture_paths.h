// SPDX-License-Identifier: GPL-3.0-or-later
// Where the tests find their reference data, all inside the project so a fresh clone runs every
// test: the CS336 fixtures in tests/data/cs336/ (reduced copies of the course's files, made by
// tests/data/make_fixtures.py; origin and licence in tests/data/README.md) and the GPT-2 tokenizer
// the application bundles (resources/tokenizers/gpt2/). The course folder (LSE_SHARED_DIR) is only
// read by the provenance cross-check (test_fixture_provenance).
//
// A missing fixture fails the test with a message naming the file; it never skips.
#pragma once

#include <QFileInfo>
#include <QString>
#include <QtTest>

namespace lse::test {

// tests/data/cs336/<relative>, e.g. "model-2024/in_features.npz" or "tokenizer/german.txt".
inline QString fixturePath(const QString &relative)
{
    return QStringLiteral(LSE_TEST_DATA_DIR "/cs336/") + relative;
}

// The bundled GPT-2 tokenizer folder: vocab.json + merges.txt (OpenAI's GPT-2 release).
inline QString gpt2TokenizerDir() { return QStringLiteral(LSE_SOURCE_DIR "/resources/tokenizers/gpt2"); }
inline QString gpt2VocabPath() { return gpt2TokenizerDir() + QStringLiteral("/vocab.json"); }
inline QString gpt2MergesPath() { return gpt2TokenizerDir() + QStringLiteral("/merges.txt"); }

// The course folder (shared/cs336), present on the course machines only.
inline QString courseDir() { return QStringLiteral(LSE_SHARED_DIR "/cs336"); }

inline QString missingFixtureMessage(const QString &path)
{
    return QStringLiteral("test fixture missing: %1 (tests/data/README.md says where it comes from; "
                          "regenerate with python3 tests/data/make_fixtures.py COURSE_DIR)")
        .arg(path);
}

}  // namespace lse::test

// Fails the current test function (a failure, not a skip) when `path` does not exist.
#define LSE_REQUIRE_FIXTURE(path) \
    QVERIFY2(QFileInfo::exists(path), qPrintable(lse::test::missingFixtureMessage(path)))
