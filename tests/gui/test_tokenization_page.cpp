// SPDX-License-Identifier: GPL-3.0-or-later
// The Tokenization page offscreen: training in a worker thread, merge replay, cancel, GPT-2 files
// and partial UTF-8 bytes.

#include "pages/page_registry.h"
#include "pages/tokenization/token_span_view.h"
#include "pages/tokenization_page.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/pretokenizer.h"

#include <QDir>
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
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 30000);
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
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60000);
        QCOMPARE(finished.front().front().toBool(), false);
        QCOMPARE(page_->trainState(), TokenizationPage::TrainState::Cancelled);
        QVERIFY(page_->trainedResult() == nullptr);
        // The page still works: a small training succeeds afterwards.
        page_->setText(QStringLiteral("low lower lowest newer newest"));
        page_->startTraining(270);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 2, 30000);
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
        const QString dir = QStringLiteral(LSE_SHARED_DIR) + QStringLiteral("/cs336/tokenizer");
        if (!QDir(dir).exists(QStringLiteral("gpt2_vocab.json")))
            QSKIP(qPrintable(QStringLiteral("GPT-2 files not found in %1").arg(dir)));
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

private:
    std::unique_ptr<QWidget> parent_;
    TokenizationPage *page_ = nullptr;
};

QTEST_MAIN(TestTokenizationPage)
#include "test_tokenization_page.moc"
