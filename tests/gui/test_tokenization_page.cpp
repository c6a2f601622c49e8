// SPDX-License-Identifier: GPL-3.0-or-later
// The Tokenization page offscreen: training in a worker thread, merge replay, cancel, GPT-2 files
// and partial UTF-8 bytes, loading tokenizer.json / .tiktoken / Hugging Face cache entries in a
// worker, bad files that leave the selection alone, and tokenizer B's span view.

#include "../fixture_paths.h"
#include "background_timeout.h"
#include "bundled_tokenizers.h"
#include "pages/page_registry.h"
#include "pages/tokenizer/token_span_view.h"
#include "pages/tokenizer/tokenization_page.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/byte_unicode.h"
#include "tokenizer/pretokenizer.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QImage>
#include <QListWidget>
#include <QSignalSpy>
#include <QSlider>
#include <QHelpEvent>
#include <QTest>
#include <QTextCursor>
#include <QToolTip>

#include <memory>
#include <random>

using namespace lse;
using namespace lse::gui;

namespace {

bool writeAll(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A byte-level BPE with two merges (" t", " th"): " the" → {257, 101}.
QByteArray tinyTokenizerJson()
{
    QJsonObject vocab;
    for (int b = 0; b < 256; ++b)
        vocab.insert(QString::fromStdString(bytesToAlphabet(std::string(1, char(b)))), b);
    vocab.insert(QString::fromUtf8("\xc4\xa0t"), 256);
    vocab.insert(QString::fromUtf8("\xc4\xa0th"), 257);
    const QJsonObject model{{"type", "BPE"}, {"vocab", vocab},
                            {"merges", QJsonArray{QString::fromUtf8("\xc4\xa0 t"), QString::fromUtf8("\xc4\xa0t h")}}};
    const QJsonObject byteLevel{{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", true}};
    return QJsonDocument(QJsonObject{{"normalizer", QJsonValue()}, {"pre_tokenizer", byteLevel}, {"decoder", byteLevel},
                                     {"model", model}})
        .toJson();
}

QByteArray tinyTiktoken()
{
    QByteArray ranks;
    for (int b = 0; b < 256; ++b)
        ranks += QByteArray(1, char(b)).toBase64() + " " + QByteArray::number(b) + "\n";
    return ranks + QByteArray(" t").toBase64() + " 256\n" + QByteArray(" th").toBase64() + " 257\n";
}

// Restores an environment variable when the test ends, also when it fails.
class EnvOverride {
public:
    EnvOverride(const char *name, const QByteArray &value) : name_(name), had_(qEnvironmentVariableIsSet(name))
    {
        old_ = qgetenv(name);
        qputenv(name, value);
    }
    EnvOverride(const EnvOverride &) = delete;
    EnvOverride &operator=(const EnvOverride &) = delete;
    ~EnvOverride()
    {
        if (had_)
            qputenv(name_, old_);
        else
            qunsetenv(name_);
    }

private:
    const char *name_;
    bool had_;
    QByteArray old_;
};

}  // namespace

class TestTokenizationPage : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        parent_ = std::make_unique<QWidget>();
        parent_->resize(1280, 800);
        page_ = new TokenizationPage(parent_.get());
    }
    void cleanup() { parent_.reset(); }

    void createsWithId()
    {
        QCOMPARE(page_->id(), QStringLiteral("tokenization"));
        QVERIFY(!page_->title().isEmpty());
        QVERIFY(page_->text().contains(QStringLiteral("分词")));
        QVERIFY(!page_->currentIds().empty());
        bool listed = false;
        for (Page *page : createPages(parent_.get()))
            listed = listed || page->id() == QLatin1String("tokenization");
        QVERIFY(listed);
        page_->setPresentation(true);
        page_->setPresentation(false);
        page_->retranslate();
        QImage image(QSize(1024, 700), QImage::Format_ARGB32);
        page_->resize(1024, 700);
        page_->render(&image);
    }

    void trainsAndReplaysMerges()
    {
        QSignalSpy finished(page_, &TokenizationPage::trainingFinished);
        page_->startTraining(300);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kBackgroundWorkTimeoutMs);
        QCOMPARE(finished.front().front().toBool(), true);
        QCOMPARE(page_->trainState(), TokenizationPage::TrainState::Finished);
        const BpeTrainResult *trained = page_->trainedResult();
        QVERIFY(trained != nullptr);
        QVERIFY(!trained->merges.empty());
        QCOMPARE(std::size_t(page_->mergeList()->count()), trained->merges.size());
        QVERIFY(page_->mergeList()->item(0)->text().contains(QStringLiteral("→")));

        const std::string text = page_->text().toStdString();
        // No merges: one token per byte of every pre-token.
        page_->replaySlider()->setValue(0);
        QCOMPARE(page_->currentIds().size(), text.size());
        QVERIFY(page_->tokenLabels().join(QString()).contains(QStringLiteral("<e5>")));
        // All merges: the trained tokenizer's encoding.
        page_->replaySlider()->setValue(page_->replaySlider()->maximum());
        Result<BpeTokenizer> full = BpeTokenizer::fromTraining(*trained);
        QVERIFY(full.ok());
        const std::vector<std::uint32_t> expected = full.value().encode(text, full.value().specialTokens());
        const std::vector<std::int64_t> ids = page_->currentIds();
        QCOMPARE(ids.size(), expected.size());
        for (std::size_t i = 0; i < ids.size(); ++i)
            QCOMPARE(ids[i], std::int64_t(expected[i]));
        QVERIFY(ids.size() < text.size());
        // Halfway: between the two.
        page_->replaySlider()->setValue(page_->replaySlider()->maximum() / 2);
        QVERIFY(page_->currentIds().size() >= expected.size());
        QVERIFY(page_->currentIds().size() <= text.size());
        // A merged token's tooltip names the merge that formed it.
        page_->replaySlider()->setValue(page_->replaySlider()->maximum());
        bool has_merge = false;
        for (const TokenSpan &token : page_->spanView()->tokens())
            has_merge = has_merge || token.tooltip.contains(QStringLiteral("merge"));
        QVERIFY(has_merge);
        // The trained page renders (replay, merge list); kept in the temp folder for a look.
        page_->replaySlider()->setValue(page_->replaySlider()->maximum() / 3);
        parent_->show();
        page_->resize(1024, 1400);
        QImage image(page_->size(), QImage::Format_ARGB32);
        page_->render(&image);
        QVERIFY(image.save(QDir::temp().filePath(QStringLiteral("tokenization_trained.png"))));
        page_->replaySlider()->setValue(page_->replaySlider()->maximum());
        const auto [count, ratio] = page_->stats(0);
        QCOMPARE(count, expected.size());
        QVERIFY(ratio > 1.0);
    }

    void cancelStopsTraining()
    {
        // Many distinct words so that the merges run long enough to be cancelled.
        std::mt19937 rng(7);
        QString text;
        text.reserve(3'000'000);
        while (text.size() < 3'000'000) {
            const int length = 3 + int(rng() % 8);
            for (int i = 0; i < length; ++i)
                text += QChar(char16_t(u'a' + rng() % 26));
            text += QLatin1Char(' ');
        }
        page_->setText(text);
        // The span view shows a prefix of a huge text; the statistics count every token.
        QVERIFY(page_->spanView()->tokens().size() < page_->currentIds().size());
        QCOMPARE(page_->stats(0).first, page_->currentIds().size());
        QSignalSpy finished(page_, &TokenizationPage::trainingFinished);
        page_->startTraining(60000);
        QCOMPARE(page_->trainState(), TokenizationPage::TrainState::Running);
        QTest::qWait(50);
        page_->cancelTraining();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kBackgroundWorkTimeoutMs);
        QCOMPARE(finished.front().front().toBool(), false);
        QCOMPARE(page_->trainState(), TokenizationPage::TrainState::Cancelled);
        QVERIFY(page_->trainedResult() == nullptr);
        // The page still works: a small training succeeds afterwards.
        page_->setText(QStringLiteral("low lower lowest newer newest"));
        page_->startTraining(270);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 2, kBackgroundWorkTimeoutMs);
        QCOMPARE(page_->trainState(), TokenizationPage::TrainState::Finished);
    }

    void destroyWhileTraining()
    {
        QString text;
        for (int i = 0; i < 20000; ++i)
            text += QStringLiteral("word%1 ").arg(i * 7919 % 100003);
        page_->setText(text);
        page_->startTraining(50000);
        QTest::qWait(20);
        parent_.reset();  // joins the worker after cancelling it
    }

    void gpt2Files()
    {
        // The bundled GPT-2 folder of the source tree (vocab.json + merges.txt).
        const QString dir = lse::test::gpt2TokenizerDir();
        LSE_REQUIRE_FIXTURE(lse::test::gpt2VocabPath());
        QString error;
        QVERIFY2(page_->loadTokenizerDirectory(dir, &error), qPrintable(error));
        page_->setText(QStringLiteral("Hello world"));
        QCOMPARE(page_->currentIds(), (std::vector<std::int64_t>{15496, 995}));
        QCOMPARE(page_->tokenLabels(), (QStringList{"Hello", " world"}));
        // " world" was formed by a merge; the tooltip says which.
        QVERIFY(page_->spanView()->tokens().at(1).tooltip.contains(QStringLiteral("merge")));
        // A rare CJK character is split by GPT-2 into byte tokens: shown as hex, not garbage.
        page_->setText(QStringLiteral("龘"));
        const QStringList labels = page_->tokenLabels();
        QVERIFY(labels.size() > 1);
        for (const QString &label : labels) {
            QVERIFY2(label.startsWith('<') && label.endsWith('>'), qPrintable(label));
            QVERIFY(!label.contains(QChar(0xFFFD)));
        }
        QString bad_error;
        QVERIFY(!page_->loadTokenizerDirectory(QDir::tempPath() + QStringLiteral("/no-such-tokenizer"), &bad_error));
        QVERIFY(!bad_error.isEmpty());
    }

    void partialBytesLabelled()
    {
        QVERIFY(page_->selectTokenizer(0, TokenizationPage::Kind::Bytes));
        page_->setText(QStringLiteral("中 a"));
        QCOMPARE(page_->tokenLabels(), (QStringList{"<e4>", "<b8>", "<ad>", " ", "a"}));
        QVERIFY(page_->spanView()->isPartial(0));
        QVERIFY(!page_->spanView()->isPartial(4));
        QVERIFY(page_->spanView()->tokens().at(0).tooltip.contains(QStringLiteral("e4")));
        // Hovering the first token shows its tooltip (the position → token mapping of the view).
        parent_->show();
        QVERIFY(QTest::qWaitForWindowExposed(parent_.get()));
        TokenSpanView *view = page_->spanView();
        QTextCursor cursor(view->document());
        cursor.setPosition(1);
        const QPoint inside = view->cursorRect(cursor).center() - QPoint(2, 0);
        QCOMPARE(view->tokenAtPosition(view->cursorForPosition(inside).position() - 1), 0);
        QHelpEvent help(QEvent::ToolTip, inside, view->viewport()->mapToGlobal(inside));
        QCoreApplication::sendEvent(view->viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY(QToolTip::text().contains(QStringLiteral("e4")));
        QCOMPARE(TokenSpanView::displayBytes("\xe4\xbd", false), QStringLiteral("<e4 bd>"));
        QCOMPARE(TokenSpanView::displayBytes(" a\n", true), QStringLiteral("·a↵\n"));
        // Characters and words keep the character whole.
        QVERIFY(page_->selectTokenizer(0, TokenizationPage::Kind::Characters));
        QCOMPARE(page_->tokenLabels(), (QStringList{"中", " ", "a"}));
        QVERIFY(page_->selectTokenizer(1, TokenizationPage::Kind::Words));
        QCOMPARE(page_->stats(1).first, std::size_t(2));
    }

    void loadsTokenizerJsonAndTiktoken()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("hf"));
        QVERIFY(writeAll(dir.filePath("hf/tokenizer.json"), tinyTokenizerJson()));
        QVERIFY(writeAll(dir.filePath("small.tiktoken"), tinyTiktoken()));
        page_->setText(QStringLiteral(" the"));
        QSignalSpy loaded(page_, &TokenizationPage::tokenizerLoaded);
        int expected_signals = 0;
        for (const QString &path : {dir.filePath("hf/tokenizer.json"), dir.filePath("small.tiktoken"), dir.filePath("hf")}) {
            QVERIFY2(page_->loadTokenizerAsync(path), qPrintable(path));
            QVERIFY(page_->isLoading());
            ++expected_signals;
            QTRY_COMPARE(loaded.count(), expected_signals);
            QVERIFY2(loaded.back().front().toBool(), qPrintable(page_->message()));
            QVERIFY(!page_->isLoading());
            QCOMPARE(page_->currentIds(), (std::vector<std::int64_t>{257, 101}));
            QCOMPARE(page_->tokenLabels(), (QStringList{" th", "e"}));
            // The tooltip names the merge that formed " th" (the second), read from the file.
            QVERIFY2(page_->spanView()->tokens().at(0).tooltip.contains(QStringLiteral("merge 2")),
                     qPrintable(page_->spanView()->tokens().at(0).tooltip));
            QVERIFY(page_->picker(0)->currentText().startsWith(QStringLiteral("Loaded: ")));
            QVERIFY(page_->message().startsWith(QStringLiteral("Loaded ")));
        }
        // Each load stays in both pickers.
        QVERIFY(page_->picker(1)->findText(QStringLiteral("Loaded: small.tiktoken")) >= 0);
        QVERIFY(page_->picker(1)->findText(QStringLiteral("Loaded: hf")) >= 0);
    }

    void badFileKeepsPreviousTokenizer()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath("broken.json");
        QVERIFY(writeAll(bad, "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}"));
        QVERIFY(page_->selectTokenizer(0, TokenizationPage::Kind::Characters));
        page_->setText(QStringLiteral("中 a"));
        const QString before = page_->picker(0)->currentText();
        QSignalSpy loaded(page_, &TokenizationPage::tokenizerLoaded);
        QVERIFY(page_->loadTokenizerAsync(bad));
        QTRY_COMPARE(loaded.count(), 1);
        QCOMPARE(loaded.front().front().toBool(), false);
        QCOMPARE(page_->picker(0)->currentText(), before);
        QCOMPARE(page_->tokenLabels(), (QStringList{"中", " ", "a"}));
        QVERIFY2(page_->message().contains(bad) && page_->message().contains(QLatin1Char('[')), qPrintable(page_->message()));
        QCOMPARE(page_->picker(0)->findText(QStringLiteral("Loaded: broken.json")), -1);
        // The synchronous loader says the same.
        QString error;
        QVERIFY(!page_->loadTokenizerDirectory(dir.filePath("missing"), &error));
        QVERIFY(error.contains(QStringLiteral("missing")));
        QCOMPARE(page_->tokenLabels(), (QStringList{"中", " ", "a"}));
    }

    void huggingFaceCacheEntries()
    {
        QTemporaryDir hub;
        const QString good = hub.filePath("models--org--name");
        QVERIFY(QDir(hub.path()).mkpath("models--org--name/snapshots/abc"));
        QVERIFY(QDir(hub.path()).mkpath("models--org--name/refs"));
        QVERIFY(writeAll(good + "/snapshots/abc/tokenizer.json", tinyTokenizerJson()));
        QVERIFY(writeAll(good + "/refs/main", "abc"));
        QVERIFY(QDir(hub.path()).mkpath("models--org--broken/snapshots/def"));
        QVERIFY(writeAll(hub.filePath("models--org--broken/snapshots/def/tokenizer.json"), "{\"model\": 3}"));
        const EnvOverride env("HF_HUB_CACHE", QFile::encodeName(hub.path()));
        page_->refreshSources();
        QComboBox *picker = page_->picker(0);
        const int index = picker->findText(QStringLiteral("HF: org/name"));
        QVERIFY(index >= 0);
        QVERIFY(page_->picker(1)->findText(QStringLiteral("HF: org/name")) >= 0);
        page_->setText(QStringLiteral(" the"));
        const QString before = picker->currentText();

        // Choosing the entry loads it in the background; the previous tokenizer shows meanwhile.
        QSignalSpy loaded(page_, &TokenizationPage::tokenizerLoaded);
        picker->setCurrentIndex(index);
        QVERIFY(page_->isLoading());
        QCOMPARE(picker->currentText(), before);
        QTRY_COMPARE(loaded.count(), 1);
        QVERIFY2(loaded.front().front().toBool(), qPrintable(page_->message()));
        QCOMPARE(picker->currentText(), QStringLiteral("HF: org/name"));
        QCOMPARE(page_->currentIds(), (std::vector<std::int64_t>{257, 101}));

        // A broken entry: message naming the file, the selection stays.
        picker->setCurrentIndex(picker->findText(QStringLiteral("HF: org/broken")));
        QTRY_COMPARE(loaded.count(), 2);
        QCOMPARE(loaded.back().front().toBool(), false);
        QCOMPARE(picker->currentText(), QStringLiteral("HF: org/name"));
        QVERIFY2(page_->message().contains(QStringLiteral("tokenizer.json")), qPrintable(page_->message()));
        QCOMPARE(page_->currentIds(), (std::vector<std::int64_t>{257, 101}));
        // The loaded entry is kept across a rescan; choosing it again needs no load.
        page_->refreshSources();
        QCOMPARE(picker->currentText(), QStringLiteral("HF: org/name"));
        page_->picker(1)->setCurrentIndex(page_->picker(1)->findText(QStringLiteral("HF: org/name")));
        QVERIFY(!page_->isLoading());
        QCOMPARE(page_->spanViewB()->tokens().size(), std::size_t(2));
    }

    void courseGpt2Entry()
    {
        // $LSE_SHARED_DIR/cs336/tokenizer overrides the bundled copy when it has the files.
        QTemporaryDir shared;
        QVERIFY(QDir(shared.path()).mkpath("cs336/tokenizer"));
        const QString course = shared.filePath("cs336/tokenizer");
        {
            const EnvOverride env("LSE_SHARED_DIR", QFile::encodeName(shared.path()));
            QVERIFY(TokenizationPage::courseGpt2Dir() != course);  // no files yet
            QVERIFY(writeAll(course + "/gpt2_vocab.json", "{}"));
            QVERIFY(writeAll(course + "/gpt2_merges.txt", ""));
            QCOMPARE(TokenizationPage::courseGpt2Dir(), course);
        }
        // Without it (a fresh clone, an installed copy): the GPT-2 files bundled with the application,
        // byte-equal to resources/tokenizers/gpt2.
        const EnvOverride noShared("LSE_SHARED_DIR", QByteArray());
        const QString dir = TokenizationPage::courseGpt2Dir();
        QVERIFY(!dir.isEmpty());
        QCOMPARE(readAll(dir + "/vocab.json"), readAll(lse::test::gpt2VocabPath()));
        QCOMPARE(readAll(dir + "/merges.txt"), readAll(lse::test::gpt2MergesPath()));
        // A new page opens on GPT-2 as tokenizer A, its entry enabled, once it is shown: GPT-2
        // loads in the background on the first show (not in the constructor, issue 20).
        TokenizationPage fresh;
        const int index = fresh.picker(0)->findText(QStringLiteral("GPT-2 (bundled)"));
        QVERIFY(index >= 0);
        QVERIFY(fresh.picker(0)->model()->flags(fresh.picker(0)->model()->index(index, 0)).testFlag(Qt::ItemIsEnabled));
        QCOMPARE(fresh.courseTokenizerLoads(), 0);
        QVERIFY(fresh.isReady());
        QSignalSpy first_load(&fresh, &TokenizationPage::tokenizerLoaded);
        QSignalSpy ready(&fresh, &Page::ready);
        fresh.show();
        QVERIFY(!fresh.isReady());  // export and screenshots wait for it
        QVERIFY(first_load.wait(10000));
        QCOMPARE(first_load.at(0).at(0).toBool(), true);
        QCOMPARE(ready.count(), 1);
        QVERIFY(fresh.isReady());
        QCOMPARE(fresh.courseTokenizerLoads(), 1);
        QCOMPARE(fresh.picker(0)->currentText(), QStringLiteral("GPT-2 (bundled)"));
        QVERIFY2(fresh.message().contains(QStringLiteral("Loaded")), qPrintable(fresh.message()));
        fresh.setText(QStringLiteral("Hello world"));
        QCOMPARE(fresh.currentIds(), (std::vector<std::int64_t>{15496, 995}));
        QVERIFY(fresh.spanView()->tokens().at(1).tooltip.contains(QStringLiteral("merge")));
        // Choosing it again after another tokenizer needs no second load.
        QVERIFY(fresh.selectTokenizer(0, TokenizationPage::Kind::Words));
        QSignalSpy loaded(&fresh, &TokenizationPage::tokenizerLoaded);
        fresh.picker(0)->setCurrentIndex(index);
        QCOMPARE(loaded.count(), 0);
        QCOMPARE(fresh.currentIds(), (std::vector<std::int64_t>{15496, 995}));
    }

    // The lazy GPT-2 load does not override a tokenizer chosen before it ended, and a caller (a
    // lesson step) that selects GPT-2 before the page was shown gets it at once.
    void lazyGpt2KeepsAChoiceAndLoadsOnDemand()
    {
        QCOMPARE(page_->courseTokenizerLoads(), 0);
        QVERIFY(page_->selectTokenizer(0, TokenizationPage::Kind::Characters));
        QSignalSpy loaded(page_, &TokenizationPage::tokenizerLoaded);
        parent_->show();
        QVERIFY(loaded.wait(10000));
        QCOMPARE(page_->lessonSettings().value("tokenizer").toString(), QStringLiteral("characters"));
        QCOMPARE(page_->courseTokenizerLoads(), 1);

        TokenizationPage lesson_page;
        QString error;
        QVERIFY2(lesson_page.applyLessonSettings(QJsonObject{{"tokenizer", "gpt2"}, {"text", "Hello world"}}, &error),
                 qPrintable(error));
        QCOMPARE(lesson_page.courseTokenizerLoads(), 1);
        QCOMPARE(lesson_page.currentIds(), (std::vector<std::int64_t>{15496, 995}));
        // Shown afterwards: nothing is loaded a second time.
        lesson_page.show();
        QVERIFY(!lesson_page.isLoading());
        QCOMPARE(lesson_page.courseTokenizerLoads(), 1);
    }

    void bundledGpt2CopyIsRepaired()
    {
        QTemporaryDir cache;
        QString error;
        const QString dir = bundledGpt2Dir(cache.path(), &error);
        QCOMPARE(dir, cache.filePath("tokenizers/gpt2"));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QByteArray merges = readAll(lse::test::gpt2MergesPath());
        QCOMPARE(readAll(dir + "/merges.txt"), merges);
        // A cut or edited copy left by an earlier run is replaced, not loaded.
        QVERIFY(writeAll(dir + "/merges.txt", merges.left(1000)));
        QVERIFY(writeAll(dir + "/vocab.json", "{}"));
        QCOMPARE(bundledGpt2Dir(cache.path()), dir);
        QCOMPARE(readAll(dir + "/merges.txt"), merges);
        QCOMPARE(readAll(dir + "/vocab.json"), readAll(lse::test::gpt2VocabPath()));
        // A cache folder that cannot be created: empty, and the reason names the folder.
        const QString blocked = cache.filePath("file");
        QVERIFY(writeAll(blocked, "not a folder"));
        QVERIFY(bundledGpt2Dir(blocked, &error).isEmpty());
        QVERIFY2(error.contains(blocked), qPrintable(error));
    }

    void spanViewShowsTokenizerB()
    {
        QVERIFY(page_->selectTokenizer(0, TokenizationPage::Kind::Words));
        QVERIFY(page_->selectTokenizer(1, TokenizationPage::Kind::Bytes));
        page_->setText(QStringLiteral("ab 中"));
        QCOMPARE(page_->spanView()->tokens().size(), std::size_t(2));
        QCOMPARE(page_->spanViewB()->tokens().size(), std::size_t(6));
        QCOMPARE(page_->spanViewB()->label(3), QStringLiteral("<e4>"));
        QVERIFY(page_->spanViewB()->tokens().at(3).tooltip.contains(QStringLiteral("e4")));
        QCOMPARE(page_->stats(1).first, std::size_t(6));
        parent_->show();
        QVERIFY(page_->spanViewB()->isVisible());
        // Comparison off: B's view and its statistics go away; A is unchanged.
        page_->setCompare(false);
        QVERIFY(!page_->spanViewB()->isVisible());
        QVERIFY(!page_->picker(1)->isEnabled());
        QCOMPARE(page_->spanView()->tokens().size(), std::size_t(2));
        page_->setCompare(true);
        QVERIFY(page_->spanViewB()->isVisible());
        QCOMPARE(page_->spanViewB()->tokens().size(), std::size_t(6));
    }

private:
    std::unique_ptr<QWidget> parent_;
    TokenizationPage *page_ = nullptr;
};

QTEST_MAIN(TestTokenizationPage)
#include "test_tokenization_page.moc"
