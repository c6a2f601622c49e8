// SPDX-License-Identifier: GPL-3.0-or-later
// The test data kept in the project (tests/data/README.md): tests/data/fixtures.json, written by
// tests/data/make_fixtures.py, lists every CS336 fixture and how it was made from the course file
// ("copy", or "batch": the first batch_kept items of axis 0 of every array). Checked here:
//  - always: the folder holds exactly the listed files (a missing one fails, naming it; an unlisted
//    one fails too, so nothing unreviewed slips in), sliced arrays have batch_kept rows, and the
//    bundled GPT-2 files exist;
//  - when the course folder (LSE_SHARED_DIR/cs336) exists: each fixture equals its course file, or is
//    exactly the stated slice of it, and the bundled GPT-2 files equal the course's. Without the
//    course folder only this cross-check skips.
#include "reference/npz.h"

#include "../fixture_paths.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <cstring>

using namespace lse;

namespace {

QString manifestPath() { return QStringLiteral(LSE_TEST_DATA_DIR "/fixtures.json"); }

QJsonObject manifest()
{
    QFile f(manifestPath());
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// "" when `fixture` is exactly the first `kept` rows of every array of `course`, else what differs.
QString sliceMismatch(const std::map<std::string, NpyArray> &fixture, const std::map<std::string, NpyArray> &course,
                      std::int64_t kept)
{
    if (fixture.size() != course.size())
        return QStringLiteral("%1 arrays, the course file has %2").arg(fixture.size()).arg(course.size());
    for (const auto &[name, full] : course) {
        const auto it = fixture.find(name);
        if (it == fixture.end())
            return QStringLiteral("no array %1").arg(QString::fromStdString(name));
        const NpyArray &part = it->second;
        if (part.dtype != full.dtype || part.fortranOrder || full.shape.empty() || part.shape.size() != full.shape.size() ||
            !std::equal(part.shape.begin() + 1, part.shape.end(), full.shape.begin() + 1) || part.shape[0] != kept)
            return QStringLiteral("%1: dtype or shape is not the first %2 rows").arg(QString::fromStdString(name)).arg(kept);
        if (part.data.size() > full.data.size() || !std::equal(part.data.begin(), part.data.end(), full.data.begin()))
            return QStringLiteral("%1: values differ from the course file's first %2 rows").arg(QString::fromStdString(name)).arg(kept);
    }
    return {};
}

}  // namespace

class TestFixtureProvenance : public QObject {
    Q_OBJECT
private slots:
    void folderHoldsExactlyTheListedFixtures()
    {
        LSE_REQUIRE_FIXTURE(manifestPath());
        const QJsonArray fixtures = manifest().value("fixtures").toArray();
        QVERIFY2(!fixtures.isEmpty(), qPrintable(manifestPath() + ": no fixtures listed"));
        QStringList listed;
        for (const QJsonValue &entry : fixtures) {
            const QString file = entry.toObject().value("file").toString();
            LSE_REQUIRE_FIXTURE(lse::test::fixturePath(file));
            listed << file;
        }
        const QDir root(lse::test::fixturePath(QString()));
        QDirIterator it(root.path(), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString file = root.relativeFilePath(it.next());
            QVERIFY2(listed.contains(file),
                     qPrintable(QStringLiteral("%1 is not in %2: add it to FIXTURES in tests/data/make_fixtures.py")
                                    .arg(root.filePath(file), manifestPath())));
        }
        for (const QJsonValue &entry : manifest().value("gpt2").toArray())
            LSE_REQUIRE_FIXTURE(QStringLiteral(LSE_SOURCE_DIR "/") + entry.toObject().value("resource").toString());
    }

    void slicedFixturesKeepTheStatedBatch()
    {
        LSE_REQUIRE_FIXTURE(manifestPath());
        const std::int64_t kept = manifest().value("batch_kept").toInteger();
        QVERIFY(kept > 0);
        int sliced = 0;
        for (const QJsonValue &entry : manifest().value("fixtures").toArray()) {
            const QJsonObject o = entry.toObject();
            if (o.value("made_by").toString() != QLatin1String("batch"))
                continue;
            const QString path = lse::test::fixturePath(o.value("file").toString());
            const auto arrays = readNpz(path.toStdString());
            QVERIFY2(arrays.ok(), formatProblems(arrays.problems()).c_str());
            for (const auto &[name, array] : *arrays)
                QVERIFY2(!array.shape.empty() && array.shape[0] == kept, qPrintable(path + ":" + QString::fromStdString(name)));
            ++sliced;
        }
        QVERIFY(sliced > 0);
    }

    void fixturesMatchTheCourse_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("course");
        QTest::addColumn<QString>("madeBy");
        // Without the course folder one row stands for the whole cross-check, and skips.
        if (!QFileInfo::exists(lse::test::courseDir())) {
            QTest::addRow("course folder absent") << QString() << QString() << QString();
            return;
        }
        for (const QJsonValue &entry : manifest().value("fixtures").toArray()) {
            const QJsonObject o = entry.toObject();
            const QString file = o.value("file").toString();
            QTest::addRow("%s", qPrintable(file)) << lse::test::fixturePath(file) << lse::test::courseDir() + "/" + file
                                                  << o.value("made_by").toString();
        }
        for (const QJsonValue &entry : manifest().value("gpt2").toArray()) {
            const QJsonObject o = entry.toObject();
            const QString resource = o.value("resource").toString();
            QTest::addRow("%s", qPrintable(resource)) << QStringLiteral(LSE_SOURCE_DIR "/") + resource
                                                      << lse::test::courseDir() + "/" + o.value("course_file").toString()
                                                      << QStringLiteral("copy");
        }
    }

    void fixturesMatchTheCourse()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, course);
        QFETCH(QString, madeBy);
        if (!QFileInfo::exists(lse::test::courseDir()))
            QSKIP(qPrintable(QStringLiteral("course folder %1 absent (configure with -DLSE_SHARED_DIR=...): only this "
                                            "cross-check of the fixtures against it is skipped")
                                 .arg(lse::test::courseDir())));
        LSE_REQUIRE_FIXTURE(fixture);
        QVERIFY2(QFileInfo::exists(course), qPrintable("the course folder has no " + course));
        if (madeBy == QLatin1String("copy")) {
            QVERIFY2(readAll(fixture) == readAll(course), qPrintable(fixture + " differs from " + course));
            return;
        }
        QCOMPARE(madeBy, QStringLiteral("batch"));
        const auto part = readNpz(fixture.toStdString());
        const auto full = readNpz(course.toStdString());
        QVERIFY2(part.ok(), formatProblems(part.problems()).c_str());
        QVERIFY2(full.ok(), formatProblems(full.problems()).c_str());
        const QString mismatch = sliceMismatch(*part, *full, manifest().value("batch_kept").toInteger());
        QVERIFY2(mismatch.isEmpty(), qPrintable(fixture + ": " + mismatch));
    }

    // The comparison itself: a slice that starts anywhere but row 0, or a changed value, is caught.
    void sliceCheckRejectsOtherRows()
    {
        NpyArray full;
        full.dtype = "<f4";
        full.shape = {4, 2};
        for (int i = 0; i < 8; ++i) {
            const float v = float(i);
            unsigned char bytes[4];
            std::memcpy(bytes, &v, 4);
            full.data.insert(full.data.end(), bytes, bytes + 4);
        }
        NpyArray first = full;
        first.shape = {2, 2};
        first.data.resize(16);
        const std::map<std::string, NpyArray> course{{"array", full}};
        QVERIFY(sliceMismatch({{"array", first}}, course, 2).isEmpty());
        NpyArray later = first;
        std::copy(full.data.begin() + 16, full.data.end(), later.data.begin());
        QVERIFY(!sliceMismatch({{"array", later}}, course, 2).isEmpty());
        QVERIFY(!sliceMismatch({{"array", first}}, course, 3).isEmpty());
        QVERIFY(!sliceMismatch({{"other", first}}, course, 2).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestFixtureProvenance)
#include "test_fixture_provenance.moc"
