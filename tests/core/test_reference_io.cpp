// SPDX-License-Identifier: GPL-3.0-or-later
// File formats of the reference transformer: the .npy/.npz reader against the CS336 fixtures and
// hand-built archives (stored and deflated members, zip64 fields), truncated and corrupt copies that
// must give problems rather than crashes; safetensors write/read round trips and corrupt headers;
// the memory-mapped token-id file and its batch sampling.
#include "reference/npz.h"
#include "reference/safetensors.h"
#include "reference/token_data.h"

#include "../fixture_paths.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <random>

using namespace lse;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(std::vector<std::int64_t>)

namespace {

// The reduced CS336 fixtures of tests/data (tests/data/README.md).
QString cs336Dir() { return QStringLiteral(LSE_TEST_DATA_DIR "/cs336"); }

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

std::string_view view(const QByteArray &bytes) { return {bytes.constData(), static_cast<std::size_t>(bytes.size())}; }

// Bitwise CRC-32, deliberately not the reader's table-driven form, so the two check each other.
std::uint32_t slowCrc32(const QByteArray &bytes)
{
    std::uint32_t crc = 0xFFFFFFFFu;
    for (const char ch : bytes) {
        crc ^= static_cast<unsigned char>(ch);
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

void putU16(QByteArray &out, std::uint32_t v)
{
    out.append(static_cast<char>(v & 0xFFu));
    out.append(static_cast<char>((v >> 8) & 0xFFu));
}

void putU32(QByteArray &out, std::uint32_t v)
{
    putU16(out, v & 0xFFFFu);
    putU16(out, v >> 16);
}

struct Member {
    QByteArray name;
    QByteArray content;
    int compressionLevel = -2;  // -2: stored (method 0); otherwise deflated at this qCompress level
};

// A minimal zip writer for test archives. Deflated members reuse Qt's zlib: qCompress returns a
// 4-byte size, a 2-byte zlib header, the raw DEFLATE stream and a 4-byte Adler-32 (RFC 1950).
QByteArray makeZip(const std::vector<Member> &members, bool zip64Sizes = false)
{
    QByteArray zip, directory;
    for (const Member &m : members) {
        QByteArray data = m.content;
        std::uint32_t method = 0;
        if (m.compressionLevel != -2) {
            const QByteArray z = qCompress(m.content, m.compressionLevel);
            data = z.mid(6, z.size() - 10);
            method = 8;
        }
        const auto offset = static_cast<std::uint32_t>(zip.size());
        const std::uint32_t crc = slowCrc32(m.content);
        auto header = [&](QByteArray &out, bool central) {
            putU32(out, central ? 0x02014b50u : 0x04034b50u);
            if (central)
                putU16(out, 20);
            putU16(out, zip64Sizes ? 45 : 20);
            putU16(out, 0);  // flags
            putU16(out, method);
            putU16(out, 0);
            putU16(out, 0);
            putU32(out, crc);
            putU32(out, zip64Sizes ? 0xFFFFFFFFu : static_cast<std::uint32_t>(data.size()));
            putU32(out, zip64Sizes ? 0xFFFFFFFFu : static_cast<std::uint32_t>(m.content.size()));
            putU16(out, static_cast<std::uint32_t>(m.name.size()));
            putU16(out, zip64Sizes ? 20 : 0);
            if (central) {
                putU16(out, 0);
                putU16(out, 0);
                putU16(out, 0);
                putU32(out, 0);
                putU32(out, offset);
            }
            out.append(m.name);
            if (zip64Sizes) {  // zip64 extra: original size, then compressed size (APPNOTE 4.5.3)
                putU16(out, 1);
                putU16(out, 16);
                putU32(out, static_cast<std::uint32_t>(m.content.size()));
                putU32(out, 0);
                putU32(out, static_cast<std::uint32_t>(data.size()));
                putU32(out, 0);
            }
        };
        header(zip, false);
        zip.append(data);
        header(directory, true);
    }
    const auto directoryOffset = static_cast<std::uint32_t>(zip.size());
    zip.append(directory);
    putU32(zip, 0x06054b50u);
    putU16(zip, 0);
    putU16(zip, 0);
    putU16(zip, static_cast<std::uint32_t>(members.size()));
    putU16(zip, static_cast<std::uint32_t>(members.size()));
    putU32(zip, static_cast<std::uint32_t>(directory.size()));
    putU32(zip, directoryOffset);
    putU16(zip, 0);
    return zip;
}

// An .npy image: version 1.0 (or 2.0) preamble, the given header dict padded to 64 bytes, data.
QByteArray makeNpy(const QByteArray &dict, const QByteArray &data, int major = 1)
{
    const int preamble = major == 1 ? 10 : 12;
    QByteArray header = dict;
    while ((preamble + header.size() + 1) % 64 != 0)
        header.append(' ');
    header.append('\n');
    QByteArray out("\x93NUMPY", 6);
    out.append(static_cast<char>(major));
    out.append('\0');
    if (major == 1)
        putU16(out, static_cast<std::uint32_t>(header.size()));
    else
        putU32(out, static_cast<std::uint32_t>(header.size()));
    return out + header + data;
}

QByteArray floatBytes(const std::vector<float> &values)
{
    return QByteArray(reinterpret_cast<const char *>(values.data()), static_cast<qsizetype>(values.size() * sizeof(float)));
}

bool hasRule(const Problems &problems, const std::string &rule)
{
    for (const Problem &p : problems)
        if (p.rule == rule)
            return true;
    return false;
}

}  // namespace

class TestReferenceIo : public QObject {
    Q_OBJECT
private slots:
    // ---- npz / npy ------------------------------------------------------------------------------

    void npzReadsEveryFixture_data()
    {
        QTest::addColumn<QString>("path");
        for (const char *folder : {"model-2024", "nn-utils"}) {
            const QDir dir(cs336Dir() + "/" + folder);
            for (const QString &name : dir.entryList({"*.npz"}, QDir::Files, QDir::Name))
                QTest::addRow("%s/%s", folder, qPrintable(name)) << dir.filePath(name);
        }
        // No fixture at all: one row that fails naming the folder.
        if (QDir(cs336Dir() + "/model-2024").entryList({"*.npz"}, QDir::Files).isEmpty())
            QTest::addRow("absent") << cs336Dir() + "/model-2024/*.npz";
    }

    void npzReadsEveryFixture()
    {
        QFETCH(QString, path);
        LSE_REQUIRE_FIXTURE(path);
        const auto arrays = readNpz(path.toStdString());
        QVERIFY2(arrays.ok(), formatProblems(arrays.problems()).c_str());
        QVERIFY(!arrays->empty());
        for (const auto &[name, array] : *arrays) {
            QVERIFY2(array.dtype == "<f4" || array.dtype == "<i8" || array.dtype == "|b1", name.c_str());
            QVERIFY(!array.fortranOrder);
            const std::size_t itemSize = array.dtype == "<f4" ? 4 : array.dtype == "<i8" ? 8 : 1;
            QCOMPARE(array.data.size(), static_cast<std::size_t>(array.elementCount()) * itemSize);
            QCOMPARE(array.toDouble().size(), static_cast<std::size_t>(array.elementCount()));
        }
    }

    void npzFixtureShapes_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<std::string>("member");
        QTest::addColumn<std::string>("dtype");
        QTest::addColumn<std::vector<std::int64_t>>("shape");
        using S = std::vector<std::int64_t>;
        // Inputs and outputs keep the first 2 of the course's 8 batch items (tests/data/README.md).
        QTest::addRow("rmsnorm in_features") << "model-2024/in_features.npz" << std::string("array") << std::string("<f4") << S{2, 128, 64};
        QTest::addRow("rmsnorm weight") << "model-2024/rmsnorm_weights.npz" << std::string("weight") << std::string("<f4") << S{64};
        QTest::addRow("lm in_indices") << "model-2024/in_indices.npz" << std::string("array") << std::string("<i8") << S{2, 64};
        QTest::addRow("lm in_indices_truncated") << "model-2024/in_indices_truncated.npz" << std::string("array") << std::string("<i8") << S{2, 60};
        QTest::addRow("lm logits") << "model-2024/transformer_lm_expected_output.npz" << std::string("array") << std::string("<f4") << S{2, 64, 100};
        QTest::addRow("lm q_proj") << "model-2024/transformer_lm_weights.npz" << std::string("layers.1.attn.q_proj.weight") << std::string("<f4") << S{128, 128};
        QTest::addRow("ffn w1") << "model-2024/positionwise_feedforward_weights.npz" << std::string("w1.weight") << std::string("<f4") << S{128, 64};
        QTest::addRow("attention Q") << "model-2024/scaled_dot_product_attention_Q.npz" << std::string("array") << std::string("<f4") << S{2, 16, 32, 64};
        QTest::addRow("attention mask") << "model-2024/scaled_dot_product_attention_mask.npz" << std::string("array") << std::string("|b1") << S{32, 32};
        QTest::addRow("mhsa q head") << "model-2024/unbatched_multihead_self_attention_weights.npz" << std::string("q_heads.1.weight") << std::string("<f4") << S{32, 64};
        QTest::addRow("adamw W0") << "nn-utils/adamw_inputs.npz" << std::string("adamw_W0") << std::string("<f4") << S{2, 3};
        QTest::addRow("adamw x") << "nn-utils/adamw_inputs.npz" << std::string("adamw_x") << std::string("<f4") << S{1000, 3};
    }

    void npzFixtureShapes()
    {
        QFETCH(QString, file);
        QFETCH(std::string, member);
        QFETCH(std::string, dtype);
        QFETCH(std::vector<std::int64_t>, shape);
        LSE_REQUIRE_FIXTURE(cs336Dir() + "/" + file);
        const auto arrays = readNpz((cs336Dir() + "/" + file).toStdString());
        QVERIFY2(arrays.ok(), formatProblems(arrays.problems()).c_str());
        const auto it = arrays->find(member);
        QVERIFY2(it != arrays->end(), member.c_str());
        QCOMPARE(it->second.dtype, dtype);
        QCOMPARE(it->second.shape, shape);
    }

    void npzFixtureValues()
    {
        for (const char *file : {"scaled_dot_product_attention_mask", "in_indices", "rmsnorm_weights"})
            LSE_REQUIRE_FIXTURE(cs336Dir() + "/model-2024/" + file + ".npz");
        // The mask is the causal upper triangle, True = masked out (README).
        const auto mask = readNpz((cs336Dir() + "/model-2024/scaled_dot_product_attention_mask.npz").toStdString());
        QVERIFY(mask.ok());
        const std::vector<std::int64_t> m = mask->at("array").toInt64();
        QCOMPARE(m.size(), std::size_t(32 * 32));
        for (int i = 0; i < 32; ++i)
            for (int j = 0; j < 32; ++j)
                QCOMPARE(m[static_cast<std::size_t>(i * 32 + j)], std::int64_t(j > i ? 1 : 0));
        // Token ids index a 100-entry vocabulary.
        const auto ids = readNpz((cs336Dir() + "/model-2024/in_indices.npz").toStdString());
        QVERIFY(ids.ok());
        for (const std::int64_t id : ids->at("array").toInt64())
            QVERIFY(id >= 0 && id < 100);
        // float32 data converts exactly to double.
        const auto w = readNpz((cs336Dir() + "/model-2024/rmsnorm_weights.npz").toStdString());
        QVERIFY(w.ok());
        const std::vector<float> f = w->at("weight").toFloat();
        const std::vector<double> d = w->at("weight").toDouble();
        for (std::size_t i = 0; i < f.size(); ++i)
            QCOMPARE(static_cast<double>(f[i]), d[i]);
    }

    void npzTruncatedCopiesGiveProblems()
    {
        LSE_REQUIRE_FIXTURE(cs336Dir() + "/nn-utils/adamw_inputs.npz");
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QByteArray full = readAll(cs336Dir() + "/nn-utils/adamw_inputs.npz");
        QVERIFY(full.size() > 1000);
        const QString path = tmp.filePath("cut.npz");
        // Every prefix length near the structures (headers, directory, end record), and a stride
        // through the data.
        for (qsizetype n = 0; n < full.size(); n += (n < 300 || n > full.size() - 300) ? 1 : 97) {
            QVERIFY(writeAll(path, full.left(n)));
            const auto r = readNpz(path.toStdString());
            QVERIFY2(!r.ok(), qPrintable(QString("prefix of %1 bytes was accepted").arg(n)));
            QVERIFY(!r.problems().empty());
            QVERIFY(r.problems().front().message.find(path.toStdString()) != std::string::npos);
        }
    }

    void npzCorruptCopiesGiveProblems()
    {
        LSE_REQUIRE_FIXTURE(cs336Dir() + "/model-2024/rmsnorm_weights.npz");
        QTemporaryDir tmp;
        const QByteArray full = readAll(cs336Dir() + "/model-2024/rmsnorm_weights.npz");
        const QString path = tmp.filePath("bad.npz");
        // Flipping any single byte must never crash; where it lands in the member it must be
        // caught (the CRC-32 covers the whole .npy image).
        const qsizetype memberStart = 30 + qsizetype(std::strlen("weight.npy"));
        const qsizetype memberEnd = memberStart + 384;
        for (qsizetype i = 0; i < full.size(); ++i) {
            QByteArray bad = full;
            bad[i] = static_cast<char>(bad[i] ^ 0x5A);
            QVERIFY(writeAll(path, bad));
            const auto r = readNpz(path.toStdString());
            if (i >= memberStart && i < memberEnd) {
                QVERIFY2(!r.ok(), qPrintable(QString("corrupt byte %1 not detected").arg(i)));
                QVERIFY(hasRule(r.problems(), "checksum"));
            }
        }
        QVERIFY(writeAll(path, QByteArray("PK\x03\x04 this is not really a zip")));
        QVERIFY(!readNpz(path.toStdString()).ok());
        const auto missing = readNpz(tmp.filePath("missing.npz").toStdString());
        QVERIFY(!missing.ok());
        QCOMPARE(missing.problems().front().rule, std::string("unreadable"));
    }

    void npzStoredDeflatedAndZip64_data()
    {
        QTest::addColumn<int>("level");
        QTest::addColumn<bool>("zip64");
        QTest::addRow("stored") << -2 << false;
        QTest::addRow("deflate level 0 (stored blocks)") << 0 << false;
        QTest::addRow("deflate level 1") << 1 << false;
        QTest::addRow("deflate level 9") << 9 << false;
        QTest::addRow("stored zip64 sizes") << -2 << true;
        QTest::addRow("deflate zip64 sizes") << 6 << true;
    }

    void npzStoredDeflatedAndZip64()
    {
        QFETCH(int, level);
        QFETCH(bool, zip64);
        // A smooth signal compresses with dynamic Huffman blocks; the tiny array uses fixed codes.
        std::vector<float> big(3000);
        for (std::size_t i = 0; i < big.size(); ++i)
            big[i] = static_cast<float>(i % 17) * 0.25f - static_cast<float>(i / 300);
        const std::vector<float> small = {1.5f, -2.0f};
        const QByteArray bigNpy = makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (1000, 3), }", floatBytes(big));
        const QByteArray smallNpy = makeNpy("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", floatBytes(small), 2);
        const QByteArray zip = makeZip({{"big.npy", bigNpy, level}, {"small.npy", smallNpy, level}, {"dir/", {}, -2}}, zip64);
        QTemporaryDir tmp;
        const QString path = tmp.filePath("made.npz");
        QVERIFY(writeAll(path, zip));
        const auto arrays = readNpz(path.toStdString());
        QVERIFY2(arrays.ok(), formatProblems(arrays.problems()).c_str());
        QCOMPARE(arrays->size(), std::size_t(2));
        QCOMPARE(arrays->at("big").shape, (std::vector<std::int64_t>{1000, 3}));
        QCOMPARE(arrays->at("big").toFloat(), big);
        QCOMPARE(arrays->at("small").toFloat(), small);
        QVERIFY(arrays->at("small").fortranOrder);
        if (level > 0) {
            // A damaged deflate stream is reported (the inflater or the CRC catches it).
            for (int i = 60; i < 200; i += 7) {
                QByteArray bad = zip;
                bad[i] = static_cast<char>(bad[i] ^ 0x21);
                QVERIFY(writeAll(path, bad));
                QVERIFY(!readNpz(path.toStdString()).ok());
            }
        }
    }

    void npyHeaders_data()
    {
        QTest::addColumn<QByteArray>("image");
        QTest::addColumn<std::string>("rule");  // empty: must parse
        const QByteArray f2 = floatBytes({1.0f, 2.0f});
        QTest::addRow("v1 ok") << makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f2) << std::string();
        QTest::addRow("v2 ok") << makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f2, 2) << std::string();
        QTest::addRow("v3 ok") << makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f2, 3) << std::string();
        QTest::addRow("double quotes, py2 long") << makeNpy("{\"shape\": (1L, 2L), \"descr\": \"<f4\", \"fortran_order\": False}", f2) << std::string();
        QTest::addRow("scalar") << makeNpy("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", QByteArray(8, '\0')) << std::string();
        QTest::addRow("empty array") << makeNpy("{'descr': '<i8', 'fortran_order': False, 'shape': (0, 5), }", {}) << std::string();
        QTest::addRow("short") << QByteArray("\x93NUMPY\x01", 7) << std::string("truncated");
        QTest::addRow("bad magic") << QByteArray("\x93NUMPX\x01\x00\x00\x00", 10) << std::string("format");
        QTest::addRow("version 4") << makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f2, 4) << std::string("unsupported");
        QTest::addRow("header too long") << QByteArray("\x93NUMPY\x01\x00\xff\x00{", 11) << std::string("truncated");
        QTest::addRow("missing shape") << makeNpy("{'descr': '<f4', 'fortran_order': False, }", f2) << std::string("header");
        QTest::addRow("shape list") << makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': [2], }", f2) << std::string("header");
        QTest::addRow("negative dim") << makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", f2) << std::string("header");
        QTest::addRow("unterminated") << makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,", f2) << std::string("header");
        QTest::addRow("duplicate key") << makeNpy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f2) << std::string("header");
        QTest::addRow("structured") << makeNpy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", f2) << std::string("header");
        QTest::addRow("big endian") << makeNpy("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", f2) << std::string("unsupported");
        QTest::addRow("complex") << makeNpy("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", f2) << std::string("unsupported");
        QTest::addRow("fewer data bytes") << makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", f2) << std::string("truncated");
        QTest::addRow("extra data bytes") << makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", f2) << std::string("format");
        QTest::addRow("huge shape") << makeNpy("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", f2) << std::string("header");
        QTest::addRow("overflowing dim") << makeNpy("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }", f2) << std::string("header");
    }

    void npyHeaders()
    {
        QFETCH(QByteArray, image);
        QFETCH(std::string, rule);
        const auto r = parseNpy(view(image), "test.npy");
        if (rule.empty()) {
            QVERIFY2(r.ok(), formatProblems(r.problems()).c_str());
            QCOMPARE(static_cast<std::size_t>(r->elementCount()) * (r->dtype == "<f4" ? 4u : 8u), r->data.size());
        } else {
            QVERIFY(!r.ok());
            QCOMPARE(r.problems().front().rule, rule);
            QCOMPARE(r.problems().front().field, std::string("test.npy"));
            QVERIFY(r.problems().front().message.rfind("test.npy: ", 0) == 0);
        }
    }

    void npyConversions()
    {
        const std::int64_t i64[] = {-3, 1LL << 40};
        const auto a = parseNpy(view(makeNpy("{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }",
                                             QByteArray(reinterpret_cast<const char *>(i64), sizeof i64))),
                                "x");
        QVERIFY(a.ok());
        QCOMPARE(a->toInt64(), (std::vector<std::int64_t>{-3, 1LL << 40}));
        QCOMPARE(a->toDouble(), (std::vector<double>{-3.0, 1099511627776.0}));
        const auto b = parseNpy(view(makeNpy("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", QByteArray("\x00\x01\x02", 3))), "b");
        QVERIFY(b.ok());
        QCOMPARE(b->toFloat(), (std::vector<float>{0.0f, 1.0f, 1.0f}));
        const std::uint16_t u16[] = {65535, 7};
        const auto c = parseNpy(view(makeNpy("{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }",
                                             QByteArray(reinterpret_cast<const char *>(u16), sizeof u16))),
                                "c");
        QVERIFY(c.ok());
        QCOMPARE(c->toInt64(), (std::vector<std::int64_t>{65535, 7}));
    }

    void npzDeflatedMemberClaimingAHugeSizeIsAProblem()
    {
        // Found by fuzz_npz: the reader reserved the uncompressed size the zip header states before
        // inflating, so a 200-byte archive claiming 512 GB aborted (std::bad_alloc, or ASan's
        // out-of-memory report) instead of being refused.
        const QByteArray npy = makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", floatBytes({1, 2}));
        QByteArray zip = makeZip({{"a.npy", npy, 6}}, /*zip64Sizes=*/true);
        const std::uint64_t claimed = std::uint64_t(1) << 39;  // under the reader's 2^40 plausibility cap
        const int nameBytes = 5;
        // The end-of-central-directory record (22 bytes, no comment) gives the directory's offset.
        const auto directory = static_cast<int>(static_cast<unsigned char>(zip[zip.size() - 6]) |
                                                static_cast<unsigned char>(zip[zip.size() - 5]) << 8);
        // The zip64 extra field's first value is the original size, in the local and central headers.
        for (const int at : {30 + nameBytes + 4, directory + 46 + nameBytes + 4})
            for (int i = 0; i < 8; ++i)
                zip[at + i] = static_cast<char>((claimed >> (8 * i)) & 0xFFu);
        QTemporaryDir tmp;
        const QString path = tmp.filePath("claims-512GB.npz");
        QVERIFY(writeAll(path, zip));
        const auto arrays = readNpz(path.toStdString());
        QVERIFY(!arrays.ok());
        QCOMPARE(arrays.problems().front().field, path.toStdString() + ":a.npy");
        QCOMPARE(arrays.problems().front().rule, std::string("format"));
        QVERIFY2(arrays.problems().front().message.find("the header states") != std::string::npos,
                 arrays.problems().front().message.c_str());
    }

    void npzArchiveProblems()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath("x.npz");
        const QByteArray good = makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", floatBytes({1, 2}));
        const QByteArray bad = makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }", floatBytes({1, 2}));
        // Every broken member is reported, each naming the archive and the member.
        QVERIFY(writeAll(path, makeZip({{"ok.npy", good}, {"bad.npy", bad}, {"bad2.npy", "not npy"}})));
        auto r = readNpz(path.toStdString());
        QVERIFY(!r.ok());
        QCOMPARE(r.problems().size(), std::size_t(2));
        QCOMPARE(r.problems()[0].field, path.toStdString() + ":bad.npy");
        QCOMPARE(r.problems()[1].field, path.toStdString() + ":bad2.npy");
        QVERIFY(writeAll(path, makeZip({{"a.npy", good}, {"a.npy", good}})));
        r = readNpz(path.toStdString());
        QVERIFY(!r.ok());
        QCOMPARE(r.problems().front().rule, std::string("duplicate"));
        // An empty archive is a valid zip with no arrays.
        QVERIFY(writeAll(path, makeZip({})));
        r = readNpz(path.toStdString());
        QVERIFY(r.ok());
        QVERIFY(r->empty());
    }

    // ---- safetensors --------------------------------------------------------------------------

    void safetensorsRoundTrip_data()
    {
        QTest::addColumn<int>("variant");
        QTest::addRow("one F32 matrix") << 0;
        QTest::addRow("mixed dtypes, given order, metadata") << 1;
        QTest::addRow("scalar and empty tensors") << 2;
        QTest::addRow("no tensors, metadata only") << 3;
        QTest::addRow("no tensors at all") << 4;
    }

    void safetensorsRoundTrip()
    {
        QFETCH(int, variant);
        std::vector<SafeTensor> tensors;
        std::map<std::string, std::string> metadata;
        const std::vector<float> w = {1.5f, -2.25f, 3.0f, 0.0f, -0.0f, 1e-30f};
        const std::vector<double> d = {3.141592653589793, -1e300, 5e-324};
        const std::vector<std::int64_t> ids = {-1, 0, std::int64_t(1) << 62};
        switch (variant) {
        case 0:
            tensors.push_back(makeF32Tensor("layers.0.attn.q_proj.weight", w.data(), {2, 3}));
            break;
        case 1:
            // Odd byte counts first: the buffer is tiled in the given order, not re-sorted.
            tensors.push_back(SafeTensor{"zeta.mask", "U8", {3}, {1, 0, 1}});
            tensors.push_back(makeF64Tensor("alpha", d.data(), {3}));
            tensors.push_back(makeI64Tensor("optimizer.step", ids.data(), {3, 1}));
            tensors.push_back(makeF32Tensor("beta", w.data(), {6}));
            metadata = {{"format", "pt"}, {"step", "1200"}, {"config", "{\"d_model\": 64}"}, {"unicode", "αβγ"}};
            break;
        case 2:
            tensors.push_back(makeF32Tensor("scalar", w.data(), {}));
            tensors.push_back(makeF32Tensor("empty", w.data(), {0, 4}));
            tensors.push_back(makeF32Tensor("after", w.data() + 1, {1}));
            break;
        case 3:
            metadata = {{"note", "empty"}};
            break;
        default:
            break;
        }
        QTemporaryDir tmp;
        const QString path = tmp.filePath("model.safetensors");
        const auto written = writeSafetensors(path.toStdString(), tensors, metadata);
        QVERIFY2(written.ok(), formatProblems(written.problems()).c_str());

        // Layout: 8-byte little-endian length, then JSON padded so the data starts 8-aligned.
        const QByteArray raw = readAll(path);
        QVERIFY(raw.size() >= 8);
        std::uint64_t headerLength = 0;
        for (int i = 7; i >= 0; --i)
            headerLength = (headerLength << 8) | static_cast<unsigned char>(raw[i]);
        QCOMPARE((8 + headerLength) % 8, std::uint64_t(0));
        QCOMPARE(raw.at(8), '{');

        const auto read = readSafetensors(path.toStdString());
        QVERIFY2(read.ok(), formatProblems(read.problems()).c_str());
        QCOMPARE(read->metadata, metadata);
        QCOMPARE(read->tensors.size(), tensors.size());
        std::size_t dataBytes = 0;
        for (std::size_t i = 0; i < tensors.size(); ++i) {
            QCOMPARE(read->tensors[i].name, tensors[i].name);
            QCOMPARE(read->tensors[i].dtype, tensors[i].dtype);
            QCOMPARE(read->tensors[i].shape, tensors[i].shape);
            QVERIFY(read->tensors[i].bytes == tensors[i].bytes);
            QVERIFY(read->find(tensors[i].name) == &read->tensors[i]);
            dataBytes += tensors[i].bytes.size();
        }
        QCOMPARE(static_cast<std::uint64_t>(raw.size()), 8 + headerLength + dataBytes);
        QVERIFY(read->find("missing") == nullptr);
        if (variant == 0) {
            QCOMPARE(safeTensorToFloat(read->tensors[0]), w);
            std::vector<float> out(6);
            QVERIFY(copySafeTensorTo(read->tensors[0], out.data(), 6));
            QCOMPARE(out, w);
            QVERIFY(!copySafeTensorTo(read->tensors[0], out.data(), 5));
            QCOMPARE(read->tensors[0].elementCount(), std::int64_t(6));
        }
    }

    void safetensorsWriteRejects_data()
    {
        QTest::addColumn<int>("variant");
        QTest::addColumn<std::string>("rule");
        QTest::addRow("duplicate name") << 0 << std::string("duplicate");
        QTest::addRow("reserved name") << 1 << std::string("name");
        QTest::addRow("empty name") << 2 << std::string("name");
        QTest::addRow("unknown dtype") << 3 << std::string("dtype");
        QTest::addRow("bytes do not match shape") << 4 << std::string("size");
        QTest::addRow("negative dimension") << 5 << std::string("shape");
        QTest::addRow("folder does not exist") << 6 << std::string("unwritable");
    }

    void safetensorsWriteRejects()
    {
        QFETCH(int, variant);
        QFETCH(std::string, rule);
        const float v[4] = {1, 2, 3, 4};
        std::vector<SafeTensor> tensors = {makeF32Tensor("a", v, {4})};
        QTemporaryDir tmp;
        QString path = tmp.filePath("x.safetensors");
        switch (variant) {
        case 0: tensors.push_back(makeF32Tensor("a", v, {2})); break;
        case 1: tensors.push_back(makeF32Tensor("__metadata__", v, {2})); break;
        case 2: tensors.push_back(makeF32Tensor("", v, {2})); break;
        case 3: tensors[0].dtype = "F33"; break;
        case 4: tensors[0].shape = {5}; break;
        case 5: tensors[0].shape = {-1, -4}; break;
        default: path = tmp.filePath("no/such/dir/x.safetensors"); break;
        }
        // An existing file survives a refused or failed write untouched.
        QVERIFY(writeAll(path, "old") || variant == 6);
        const auto r = writeSafetensors(path.toStdString(), tensors, {});
        QVERIFY(!r.ok());
        QCOMPARE(r.problems().front().rule, rule);
        QVERIFY(r.problems().front().message.find(path.toStdString()) != std::string::npos);
        if (variant != 6)
            QCOMPARE(readAll(path), QByteArray("old"));
    }

    void safetensorsCorruptHeaders_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("bufferBytes");
        QTest::addColumn<std::string>("rule");  // empty: must parse
        QTest::addRow("valid") << QByteArray(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})") << 8 << std::string();
        QTest::addRow("valid, keys in another order, spaces")
            << QByteArray(R"({ "__metadata__" : {"k":"v"}, "b":{"data_offsets":[4,12],"shape":[1,2],"dtype":"F32"}, "a":{"shape":[],"dtype":"I32","data_offsets":[0,4]} }   )")
            << 12 << std::string();
        QTest::addRow("not json") << QByteArray("{nope}") << 0 << std::string("json");
        QTest::addRow("array") << QByteArray("[1,2]") << 0 << std::string("header");
        QTest::addRow("entry not an object") << QByteArray(R"({"a":5})") << 0 << std::string("entry");
        QTest::addRow("missing dtype") << QByteArray(R"({"a":{"shape":[2],"data_offsets":[0,8]}})") << 8 << std::string("dtype");
        QTest::addRow("unknown dtype") << QByteArray(R"({"a":{"dtype":"Q8","shape":[2],"data_offsets":[0,8]}})") << 8 << std::string("dtype");
        QTest::addRow("negative dim") << QByteArray(R"({"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})") << 8 << std::string("shape");
        QTest::addRow("fractional dim") << QByteArray(R"({"a":{"dtype":"F32","shape":[2.5],"data_offsets":[0,8]}})") << 8 << std::string("shape");
        QTest::addRow("string dim") << QByteArray(R"({"a":{"dtype":"F32","shape":["2"],"data_offsets":[0,8]}})") << 8 << std::string("shape");
        QTest::addRow("huge shape") << QByteArray(R"({"a":{"dtype":"F32","shape":[4294967296,4294967296,4294967296],"data_offsets":[0,8]}})") << 8 << std::string("shape");
        QTest::addRow("offsets reversed") << QByteArray(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[8,0]}})") << 8 << std::string("offsets");
        QTest::addRow("offsets missing") << QByteArray(R"({"a":{"dtype":"F32","shape":[2]}})") << 8 << std::string("offsets");
        QTest::addRow("offsets past the end") << QByteArray(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})") << 7 << std::string("truncated");
        QTest::addRow("size vs shape") << QByteArray(R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})") << 8 << std::string("size");
        QTest::addRow("overlap") << QByteArray(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})") << 8 << std::string("overlap");
        QTest::addRow("hole at start") << QByteArray(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})") << 8 << std::string("hole");
        QTest::addRow("trailing bytes") << QByteArray(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})") << 8 << std::string("hole");
        // The JSON parser keeps one copy of a repeated key, so the other copy's bytes are a hole.
        QTest::addRow("duplicate name") << QByteArray(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})") << 8 << std::string("hole");
        QTest::addRow("metadata not strings") << QByteArray(R"({"__metadata__":{"k":1}})") << 0 << std::string("metadata");
        QTest::addRow("metadata not an object") << QByteArray(R"({"__metadata__":"x"})") << 0 << std::string("metadata");
    }

    void safetensorsCorruptHeaders()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, bufferBytes);
        QFETCH(std::string, rule);
        QByteArray file;
        const auto n = static_cast<std::uint64_t>(json.size());
        for (int i = 0; i < 8; ++i)
            file.append(static_cast<char>((n >> (8 * i)) & 0xFFu));
        file += json + QByteArray(bufferBytes, '\x11');
        const auto r = parseSafetensors(view(file), "ckpt.safetensors");
        if (rule.empty()) {
            QVERIFY2(r.ok(), formatProblems(r.problems()).c_str());
            return;
        }
        QVERIFY(!r.ok());
        QCOMPARE(r.problems().front().rule, rule);
        QVERIFY(r.problems().front().message.rfind("ckpt.safetensors", 0) == 0);
    }

    void safetensorsBadLengthAndTruncation()
    {
        // Header lengths that are absurd or point past the end.
        QByteArray huge(8, '\xff');
        QCOMPARE(parseSafetensors(view(huge + "{}"), "f").problems().front().rule, std::string("header"));
        QByteArray tooLong("\x40\x00\x00\x00\x00\x00\x00\x00{}", 10);
        QCOMPARE(parseSafetensors(view(tooLong), "f").problems().front().rule, std::string("truncated"));
        QCOMPARE(parseSafetensors(view(QByteArray("\x02\x00", 2)), "f").problems().front().rule, std::string("truncated"));

        // Every prefix of a real file is refused; every single-byte corruption is survived.
        QTemporaryDir tmp;
        const QString path = tmp.filePath("m.safetensors");
        const float v[6] = {1, 2, 3, 4, 5, 6};
        QVERIFY(writeSafetensors(path.toStdString(), {makeF32Tensor("w", v, {2, 3}), makeF32Tensor("b", v, {2})}, {{"k", "v"}}).ok());
        const QByteArray full = readAll(path);
        for (qsizetype cut = 0; cut < full.size(); ++cut)
            QVERIFY2(!parseSafetensors(view(full.left(cut)), "m").ok(), qPrintable(QString("prefix %1 accepted").arg(cut)));
        for (qsizetype i = 0; i < full.size(); ++i) {
            QByteArray bad = full;
            bad[i] = static_cast<char>(bad[i] ^ 0x44);
            (void)parseSafetensors(view(bad), "m");
        }
        const auto missing = readSafetensors(tmp.filePath("missing.safetensors").toStdString());
        QCOMPARE(missing.problems().front().rule, std::string("unreadable"));
    }

    // The header alone (what loading a model from a checkpoint reads) gives the same tensors,
    // metadata and problems as the whole file, and reads a chosen tensor's values.
    void safetensorsHeaderReadsChosenTensors()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath("m.safetensors");
        const float w[6] = {1, 2, 3, 4, 5, 6}, b[2] = {-1, 0.5f};
        QVERIFY(writeSafetensors(path.toStdString(), {makeF32Tensor("w", w, {2, 3}), makeF32Tensor("b", b, {2})}, {{"k", "v"}}).ok());
        Result<SafetensorsHeader> header = readSafetensorsHeader(path.toStdString());
        QVERIFY2(header.ok(), formatProblems(header.problems()).c_str());
        const Result<SafetensorsFile> whole = readSafetensors(path.toStdString());
        QVERIFY(whole.ok());
        QCOMPARE(header.value().layout.metadata, whole.value().metadata);
        QCOMPARE(header.value().layout.tensors.size(), whole.value().tensors.size());
        const SafeTensor *found = header.value().layout.find("b");
        QVERIFY(found && found->bytes.empty());
        QCOMPARE(found->shape, (std::vector<std::int64_t>{2}));
        float into[2] = {0, 0};
        QCOMPARE(header.value().readF32Into(*found, into, 2).value(), true);
        QCOMPARE(into[0], -1.0f);
        QCOMPARE(into[1], 0.5f);
        QCOMPARE(header.value().readF32Into(*found, into, 3).value(), false);  // a wrong count is refused, not read

        // Every prefix of the file is refused by the header reader too (the data buffer's size
        // is the file's), with the rule the whole-file parser gives.
        const QByteArray full = readAll(path);
        for (qsizetype cut = 0; cut < full.size(); ++cut) {
            const QString cutPath = tmp.filePath(QString("cut%1.safetensors").arg(cut));
            QFile out(cutPath);
            QVERIFY(out.open(QIODevice::WriteOnly));
            QCOMPARE(out.write(full.left(cut)), cut);
            out.close();
            const auto fromHeader = readSafetensorsHeader(cutPath.toStdString());
            QVERIFY2(!fromHeader.ok(), qPrintable(QString("prefix %1 accepted").arg(cut)));
            QCOMPARE(fromHeader.problems().front().rule, parseSafetensors(view(full.left(cut)), "m").problems().front().rule);
        }
        QCOMPARE(readSafetensorsHeader(tmp.path().toStdString()).problems().front().rule, std::string("not_a_file"));
    }

    // ---- token data ---------------------------------------------------------------------------

    void tokenFileOpenAndRead_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addRow("uint16") << int(TokenDtype::U16);
        QTest::addRow("uint32") << int(TokenDtype::U32);
    }

    void tokenFileOpenAndRead()
    {
        QFETCH(int, dtype);
        const auto type = static_cast<TokenDtype>(dtype);
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("tokens.bin").toStdString();
        std::vector<std::uint32_t> ids = {0, 1, 65535, 42, 7};
        if (type == TokenDtype::U32)
            ids.push_back(100000);
        QVERIFY(writeTokenFile(path, ids, type).ok());
        QCOMPARE(QFileInfo(QString::fromStdString(path)).size(), qint64(ids.size()) * tokenDtypeSize(type));
        const auto file = TokenFile::open(path, type);
        QVERIFY2(file.ok(), formatProblems(file.problems()).c_str());
        QCOMPARE(file->tokenCount(), std::int64_t(ids.size()));
        QCOMPARE(file->dtype(), type);
        QCOMPARE(file->path(), path);
        for (std::size_t i = 0; i < ids.size(); ++i)
            QCOMPARE(file->at(static_cast<std::int64_t>(i)), ids[i]);
        QVERIFY(file->validateIds(type == TokenDtype::U32 ? 100001 : 65536).ok());
        const auto bad = file->validateIds(50);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.problems().front().rule, std::string("vocab"));
        QVERIFY(bad.problems().front().message.find("token 2 has id 65535") != std::string::npos);
        QCOMPARE(parseTokenDtype(tokenDtypeName(type)), std::optional<TokenDtype>(type));
    }

    void tokenFileProblems()
    {
        QTemporaryDir tmp;
        const QString odd = tmp.filePath("odd.bin");
        QVERIFY(writeAll(odd, QByteArray(7, '\1')));
        auto r = TokenFile::open(odd.toStdString(), TokenDtype::U16);
        QVERIFY(!r.ok());
        QCOMPARE(r.problems().front().rule, std::string("size"));
        QVERIFY(r.problems().front().message.find("7 bytes") != std::string::npos);
        QVERIFY(!TokenFile::open(odd.toStdString(), TokenDtype::U32).ok());
        r = TokenFile::open(tmp.filePath("missing.bin").toStdString(), TokenDtype::U16);
        QCOMPARE(r.problems().front().rule, std::string("unreadable"));
        QVERIFY(!writeTokenFile(tmp.filePath("big.bin").toStdString(), {70000}, TokenDtype::U16).ok());
        QVERIFY(!parseTokenDtype("int8"));

        // An empty file opens, but no batch fits in it.
        const QString empty = tmp.filePath("empty.bin");
        QVERIFY(writeAll(empty, {}));
        const auto e = TokenFile::open(empty.toStdString(), TokenDtype::U16);
        QVERIFY(e.ok());
        QCOMPARE(e->tokenCount(), std::int64_t(0));
        std::int32_t in[4], out[4];
        std::mt19937_64 rng(1);
        QCOMPARE(e->sampleBatch(1, 4, rng, in, out).problems().front().rule, std::string("too-short"));
        QCOMPARE(e->windowCount(4), std::int64_t(0));
    }

    void tokenFileSampleBatch_data()
    {
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("context");
        QTest::addColumn<bool>("fits");
        QTest::addRow("one start only (n = ctx + 1)") << 5 << 4 << true;
        QTest::addRow("n = ctx: too short") << 4 << 4 << false;
        QTest::addRow("eight starts") << 12 << 4 << true;
        QTest::addRow("context 1") << 3 << 1 << true;
        QTest::addRow("long file") << 5000 << 16 << true;
    }

    void tokenFileSampleBatch()
    {
        QFETCH(int, tokens);
        QFETCH(int, context);
        QFETCH(bool, fits);
        // Token i has id i, so each row tells where it started.
        std::vector<std::uint32_t> ids(static_cast<std::size_t>(tokens));
        for (int i = 0; i < tokens; ++i)
            ids[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(i);
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("t.bin").toStdString();
        QVERIFY(writeTokenFile(path, ids, TokenDtype::U16).ok());
        const auto file = TokenFile::open(path, TokenDtype::U16);
        QVERIFY(file.ok());
        const int batch = 8;
        std::vector<std::int32_t> in(static_cast<std::size_t>(batch * context)), out(in.size());
        std::mt19937_64 rng(1234);
        const auto r = file->sampleBatch(batch, context, rng, in.data(), out.data());
        if (!fits) {
            QVERIFY(!r.ok());
            QCOMPARE(r.problems().front().rule, std::string("too-short"));
            QVERIFY(r.problems().front().message.find("needs at least 5") != std::string::npos);
            return;
        }
        QVERIFY(r.ok());
        // Starts are uniform over the closed range [0, n − ctx − 1]: with enough draws every
        // start appears, none outside it, and the counts are roughly equal.
        const int starts = tokens - context;
        std::vector<int> seen(static_cast<std::size_t>(starts), 0);
        const int rounds = starts <= 16 ? 2000 : 20;
        for (int round = 0; round < rounds; ++round) {
            QVERIFY(file->sampleBatch(batch, context, rng, in.data(), out.data()).ok());
            for (int b = 0; b < batch; ++b) {
                const std::int32_t s = in[static_cast<std::size_t>(b * context)];
                QVERIFY(s >= 0 && s < starts);
                ++seen[static_cast<std::size_t>(s)];
                for (int t = 0; t < context; ++t) {
                    QCOMPARE(in[static_cast<std::size_t>(b * context + t)], s + t);
                    QCOMPARE(out[static_cast<std::size_t>(b * context + t)], s + t + 1);
                }
            }
        }
        if (starts <= 16) {
            const double mean = double(rounds * batch) / starts;
            for (const int count : seen)
                QVERIFY2(std::abs(count - mean) < 0.2 * mean, qPrintable(QString("count %1, mean %2").arg(count).arg(mean)));
        }
        // The same seed gives the same batch.
        std::vector<std::int32_t> in2(in.size()), out2(in.size());
        std::mt19937_64 a(99), b(99);
        QVERIFY(file->sampleBatch(batch, context, a, in.data(), out.data()).ok());
        QVERIFY(file->sampleBatch(batch, context, b, in2.data(), out2.data()).ok());
        QCOMPARE(in, in2);
        QCOMPARE(out, out2);
    }

    void tokenFileSequentialBatch()
    {
        std::vector<std::uint32_t> ids(21);
        for (std::uint32_t i = 0; i < 21; ++i)
            ids[i] = 1000 + i;
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("v.bin").toStdString();
        QVERIFY(writeTokenFile(path, ids, TokenDtype::U32).ok());
        const auto file = TokenFile::open(path, TokenDtype::U32);
        QVERIFY(file.ok());
        // 21 tokens hold (21 − 1) / 5 = 4 windows of 5 inputs (the last target is token 20).
        QCOMPARE(file->windowCount(5), std::int64_t(4));
        std::int32_t in[20], out[20];
        QVERIFY(file->sequentialBatch(0, 4, 5, in, out).ok());
        for (int i = 0; i < 20; ++i) {
            QCOMPARE(in[i], 1000 + i);
            QCOMPARE(out[i], 1001 + i);
        }
        QVERIFY(file->sequentialBatch(10, 2, 5, in, out).ok());
        QCOMPARE(in[0], 1010);
        QCOMPARE(out[9], 1020);
        const auto past = file->sequentialBatch(11, 2, 5, in, out);
        QVERIFY(!past.ok());
        QCOMPARE(past.problems().front().rule, std::string("range"));
        QVERIFY(!file->sequentialBatch(-1, 1, 5, in, out).ok());
        QVERIFY(!file->sequentialBatch(0, 0, 5, in, out).ok());
        QVERIFY(!file->sequentialBatch(0, 1, 0, in, out).ok());
    }
};

QTEST_GUILESS_MAIN(TestReferenceIo)
#include "test_reference_io.moc"
