// SPDX-License-Identifier: GPL-3.0-or-later
// `llm-explorer-cli lessons`: the list has one line per shipped lesson with its id first; --show fills
// each figure from the engine (the number printed is estimate --json's for that step's scenario);
// --check accepts a good file and refuses a broken one with the step and field named, exit status 2.
#include "cli_run.h"

#include "lessons/lesson_catalog.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using lse::test::runCli;

namespace {

const char *const kLesson = R"json({
  "format": "llm-explorer-lesson", "version": 1, "id": "cli-test",
  "title": {"en": "Test", "zh_CN": "测试"}, "lecture": "none",
  "steps": [
    {"page": "time", "scenario_changes": [{"field": "training.flops_model", "value": "6nd"},
                                          {"field": "cluster.peak_flops_per_second_override", "value": 1.979e15}],
     "text": {"en": "It takes {time.days}.", "zh_CN": "需要 {time.days}。"},
     "question": {"en": "How long?"}, "answer": {"en": "{time.days}"}},
    {"page": "memory", "scenario_changes": [{"field": "cluster.gpus", "value": 512}],
     "text": {"en": "Memory {memory.total_gb}."}}
  ]
})json";

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

}  // namespace

class TestCliLessons : public QObject {
    Q_OBJECT
private slots:
    void listsEveryShippedLessonIdFirst()
    {
        const lse::test::Run run = runCli({"lessons"});
        QCOMPARE(run.exit_code, 0);
        const QStringList lines = QString::fromUtf8(run.out).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), int(lse::builtinLessons().size()));
        for (std::size_t i = 0; i < lse::builtinLessons().size(); ++i)
            QCOMPARE(lines[int(i)].section('\t', 0, 0), QString::fromStdString(lse::builtinLessons()[i].id));
    }

    void showFillsFiguresFromTheEngine()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, "l.json", kLesson);
        const lse::test::Run run = runCli({"lessons", "--show", path, "--step", "1", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject step = QJsonDocument::fromJson(run.out).object().value("steps").toArray().at(0).toObject();
        // The same scenario through estimate: 6ND at the sparse peak.
        const QJsonObject estimate =
            lse::test::estimateJson({"--flops-model", "6nd", "--peak-tflops", "1979"});
        const double days = estimate.value("time").toObject().value("days").toDouble();
        QVERIFY(days > 1);
        // Written as the pages write days (issue 28 item 18): whole days from 100 on.
        const QString expected =
            QStringLiteral("It takes %1 days.").arg(QLocale(QLocale::English).toString(days, 'f', days >= 100 ? 0 : 1));
        QCOMPARE(step.value("text").toString(), expected);
        QCOMPARE(step.value("answer").toString(), expected.mid(9, expected.size() - 10));

        const lse::test::Run chinese = runCli({"lessons", "--show", path, "--step", "1", "--json", "--lang", "zh_CN"});
        QCOMPARE(chinese.exit_code, 0);
        const QString text = QJsonDocument::fromJson(chinese.out).object().value("steps").toArray().at(0).toObject().value("text").toString();
        QVERIFY2(text.startsWith(QStringLiteral("需要 ")) && text.endsWith(QStringLiteral(" 天。")), qPrintable(text));
    }

    void stepOutOfRangeIsRefused()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, "l.json", kLesson);
        for (const QString &step : {QStringLiteral("0"), QStringLiteral("3"), QStringLiteral("x")}) {
            const lse::test::Run run = runCli({"lessons", "--show", path, "--step", step});
            QCOMPARE(run.exit_code, 2);
            QVERIFY2(run.err.contains("--step") && run.err.contains("1 to 2"), run.err.constData());
        }
        const lse::test::Run unknown = runCli({"lessons", "--show", "no-such-lesson"});
        QCOMPARE(unknown.exit_code, 2);
        QVERIFY(unknown.err.contains("--show"));
    }

    void checkNamesTheStepAndField()
    {
        QTemporaryDir dir;
        const QString good = writeFile(dir, "good.json", kLesson);
        const lse::test::Run ok = runCli({"lessons", "--check", good});
        QVERIFY2(ok.exit_code == 0, ok.err.constData());

        QByteArray broken = kLesson;
        broken.replace("\"cluster.gpus\"", "\"cluster.gpu_count\"");
        broken.replace("{memory.total_gb}", "{memory.everything}");
        const QString bad = writeFile(dir, "bad.json", broken);
        const lse::test::Run run = runCli({"lessons", "--check", bad});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("steps[1].scenario_changes[0].field"), run.err.constData());
        QVERIFY2(run.err.contains("steps[1].text.en"), run.err.constData());

        const QString binary = writeFile(dir, "binary.json", QByteArray("\0\1\2", 3));
        const lse::test::Run refused = runCli({"lessons", "--check", binary});
        QCOMPARE(refused.exit_code, 2);
        QVERIFY(refused.err.contains("binary.json"));
    }
};

QTEST_GUILESS_MAIN(TestCliLessons)
#include "test_cli_lessons.moc"
