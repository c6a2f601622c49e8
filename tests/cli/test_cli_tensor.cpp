// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli tensor`: steps[] equal core/tensors' chain (shape, strides, offset, contiguous,
// shares_storage, copied, error); an impossible op is the last step and exits 0; unreadable flags
// (including an --op that cannot be parsed) exit 2 naming the flag.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "cli_run.h"
#include "tensors/tensor_chain.h"

using lse::test::Run;
using lse::test::runCli;
namespace tensors = lse::tensors;

namespace {

QJsonObject parse(const QByteArray &text)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("not JSON: %s", qPrintable(error.errorString()));
    return document.object();
}

QJsonArray sizes(const tensors::Sizes &values)
{
    QJsonArray array;
    for (std::int64_t value : values)
        array.append(static_cast<double>(value));
    return array;
}

}  // namespace

class TestCliTensor : public QObject {
    Q_OBJECT
private slots:
    void stepsEqualCore()
    {
        const QStringList ops{"transpose(0,1)", "slice(2,0,4,2)", "unsqueeze(0)", "reshape(3,4)", "view(-1)",
                              "expand(2,-1)", "contiguous()"};
        QStringList arguments{"tensor", "--shape", "2,3,4", "--offset", "1", "--dtype-bytes", "2", "--json"};
        std::vector<tensors::TensorOp> parsed;
        for (const QString &op : ops) {
            arguments << "--op" << op;
            parsed.push_back(*tensors::parseTensorOp(op.toStdString()));
        }
        const Run run = runCli(arguments);
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.err.isEmpty());
        const QJsonObject object = parse(run.out);
        const tensors::TensorChain chain = tensors::runTensorChain(*tensors::makeView({2, 3, 4}, {}, 1), parsed, 2);
        const QJsonArray steps = object["steps"].toArray();
        QCOMPARE(steps.size(), qsizetype(chain.steps.size()));
        QCOMPARE(steps.size(), ops.size());
        for (qsizetype i = 0; i < steps.size(); ++i) {
            const QJsonObject step = steps[i].toObject();
            const tensors::ChainStep &expected = chain.steps[static_cast<std::size_t>(i)];
            QCOMPARE(step["op"].toString().toStdString(), expected.op);
            QCOMPARE(step["shape"].toArray(), sizes(expected.view->shape));
            QCOMPARE(step["strides"].toArray(), sizes(expected.view->strides));
            QCOMPARE(step["offset"].toDouble(), static_cast<double>(expected.view->offset));
            QCOMPARE(step["contiguous"].toBool(), expected.contiguous);
            QCOMPARE(step["shares_storage"].toBool(), expected.shares_storage);
            QCOMPARE(step["copied"].toBool(), expected.copied);
            QCOMPARE(step["bytes_read"].toDouble(), static_cast<double>(expected.copy_bytes_read));
            QVERIFY(step["error"].isNull());
        }
        // The strided slice cannot be flattened into 3×4 without a copy; 12 two-byte elements each way.
        QVERIFY(steps[3].toObject()["copied"].toBool());
        QCOMPARE(steps[3].toObject()["bytes_written"].toDouble(), 24.0);
        QVERIFY(!steps[3].toObject()["shares_storage"].toBool());
        QVERIFY(steps[2].toObject()["shares_storage"].toBool());
        QCOMPARE(object["start"].toObject()["storage_elements"].toDouble(), 25.0);
    }

    void impossibleViewIsTheLastStepAndExitsZero()
    {
        const Run run = runCli({"tensor", "--shape", "2,3,4", "--op", "transpose(0,1)", "--op", "view(6,4)", "--op",
                                "view(-1)", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonArray steps = parse(run.out)["steps"].toArray();
        QCOMPARE(steps.size(), 2);  // the chain stopped at the error
        const QJsonObject failed = steps[1].toObject();
        QVERIFY(failed["shape"].isNull());
        QVERIFY(failed["error"].toString().contains("cannot be merged"));
        QVERIFY(failed["error"].toString().contains("dimension 0"));

        const Run text = runCli({"tensor", "--shape", "2,3,4", "--op", "t()"});
        QCOMPARE(text.exit_code, 0);
        QVERIFY(text.out.contains("1. t()  error: t(): t() expects a tensor with at most 2 dimensions"));
    }

    void stridesAndOffsetAreUsed()
    {
        const Run run = runCli({"tensor", "--shape", "3,2", "--strides", "1,3", "--offset", "2", "--op", "view(6)",
                                "--op", "reshape(6)", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject object = parse(run.out);
        QCOMPARE(object["start"].toObject()["contiguous"].toBool(), false);
        QCOMPARE(object["start"].toObject()["storage_elements"].toDouble(), 8.0);
        QVERIFY(!object["steps"].toArray()[0].toObject()["error"].isNull());
    }

    void badFlagsExitTwoNamingTheFlag_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("flag");
        QTest::addRow("no shape") << QStringList{"tensor", "--op", "t()"} << "--shape";
        QTest::addRow("shape not integers") << QStringList{"tensor", "--shape", "2,x"} << "--shape";
        QTest::addRow("negative size") << QStringList{"tensor", "--shape", "2,-3"} << "--shape";
        QTest::addRow("strides count") << QStringList{"tensor", "--shape", "2,3", "--strides", "1"} << "--strides";
        QTest::addRow("offset") << QStringList{"tensor", "--shape", "2", "--offset", "-1"} << "--offset";
        QTest::addRow("dtype bytes") << QStringList{"tensor", "--shape", "2", "--dtype-bytes", "0"} << "--dtype-bytes";
        QTest::addRow("unknown op") << QStringList{"tensor", "--shape", "2", "--op", "frob(1)"} << "--op";
        QTest::addRow("op argument") << QStringList{"tensor", "--shape", "2", "--op", "view(2,y)"} << "--op";
        QTest::addRow("op arity") << QStringList{"tensor", "--shape", "2", "--op", "transpose(0)"} << "--op";
        QTest::addRow("too large") << QStringList{"tensor", "--shape", "1048576,1048576,4"} << "--shape";
    }

    void badFlagsExitTwoNamingTheFlag()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, flag);
        const Run run = runCli(arguments);
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(flag.toUtf8()), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliTensor)
#include "test_cli_tensor.moc"
