// SPDX-License-Identifier: GPL-3.0-or-later
// Every page and tab in Chinese: no visible label, button, group box, tab or table header is English
// only, except names and units (an explicit, reviewed allow-list below), and no visible text holds an
// untranslated English sentence (issue 28 item 23: the Tensors view's error text, the ablation
// variant "No norm").

#include "main_window.h"
#include "pages/page.h"

#include <QAbstractButton>
#include <QAbstractItemModel>
#include <QFile>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTabBar>
#include <QTableView>
#include <QTest>
#include <QTextDocument>

using namespace lse::gui;

namespace {

QString plainText(const QString &text)
{
    if (!Qt::mightBeRichText(text))
        return text.simplified();
    QTextDocument document;
    document.setHtml(text);
    return document.toPlainText().simplified();
}

// Texts that stay as they are in Chinese: names of models, formats, operators and libraries, units,
// symbols and numbers. Reviewed one by one; a new entry needs a reason.
const QList<QRegularExpression> &allowed()
{
    static const QList<QRegularExpression> patterns = [] {
        const QStringList sources = {
            // numbers, units, symbols, formulas: digits, punctuation, SI units, Greek letters
            "^[\\d\\s.,:;+\\-−×·/=()%<>≤≥~≈^*|_\\[\\]{}'\"#@!?&…–—→←↑↓✓✗≠√πΨαβγδσμ]*$",
            "^[\\d\\s.,×·/()%~≈+\\-−]*(k|K|M|G|T|P|E|Z|Y)?(B|iB|FLOP|FLOPs|FLOP/s|FLOP/B|B/s|bit|bits|s|ms|µs|us|ns|GB|MB|KB|TB|GiB|MiB|KiB|W|Hz)?(/token|/s|/GPU)?$",
            // model, accelerator and dataset names and ids
            "^(Llama|GPT|Gemma|Qwen|Mistral|Mixtral|BERT|T5|PaLM|OPT|Chinchilla|Gopher|Falcon|DeepSeek|Phi|Pythia|BLOOM|Jurassic|Megatron|MT-NLG|Grok|Nemotron|Yi|Baichuan|OLMo|StarCoder|Switch|GLaM|LaMDA|Jamba|DBRX|Claude|Kimi|MiniMax)[\\w\\s.\\-()/+×]*$",
            "^(NVIDIA|AMD|Google|Intel|H100|H200|A100|B200|MI300X|TPU|RTX)[\\w\\s.\\-()/+]*$",
            // hardware catalog ids, the key `--gpu` takes (the Validation table's Accelerator column)
            "^(a100|h100|h200|b200|mi300x|tpu|rtx)[a-z0-9\\-]*$",
            "^(cs336|reference|tiny|small|ablation)[\\w\\-.]*$",
            "^[\\w.\\-]+\\.(json|txt|md|bin|safetensors|npz|tiktoken|model|csv|png|pdf|svg)$",
            // number formats and dtypes, norms, activations, positional encodings, optimizers
            "^(fp|bf|tf|int|uint|e\\dm\\d|fp8-e\\dm\\d)[\\d\\w\\-()+ ]*$",
            "^(FP|BF|TF|INT)\\d+[\\w\\-()+ ]*$",
            "^(RMSNorm|LayerNorm|SwiGLU|GeGLU|GELU|ReLU|SiLU|RoPE|ALiBi|NoPE|MHA|GQA|MQA|MoE|AdamW|Adam|SGD|Adafactor|ZeRO[\\s\\-]?\\d?|FlashAttention|NCCL|MPI|BPE|GPT-2|tiktoken|Eigen|OpenMP|CUDA|HBM|SRAM|NVLink|InfiniBand|PCIe|SM|L1|L2|MFU|HFU|KV|QKV|TP|PP|DP|CP|EP|SP|GEMM|GEMV|SGEMM|STREAM|ubatch|Tensor Core)s?[\\w\\s\\-/().,+·×]*$",
            // the parallel degrees and short symbols used as column names
            "^(dp|tp|pp|cp|ep|v|sp|mb|b|s|h|a|L|V|N|D|C|E|k|n|m|p|t|#|Ψ|K|I|d_model|d_ff|d_head|head_dim|n_kv|Top-k|top-k|d_ff / d_model|MoE)$",
            // operators of the engine's and PyTorch's op lists (code names)
            "^[a-z][a-z0-9]*(_[a-z0-9]+)+$",  // snake_case: token_embedding, mlp_up, optimizer_step
            "^[a-z][a-z0-9_]*\\(.*\\)$",     // a call as typed: view(6, 4)
            "^(rope|softmax|dropout|gelu|relu|silu|swiglu|geglu|embedding|layernorm|rmsnorm|residual|logits|bias)$",  // one-word operators
            "^(transpose|permute|view|reshape|slice|narrow|expand|flatten|unsqueeze|squeeze|contiguous|t|T)\\b.*$",
            // numbers with units, signs and percentages ("24.9 GB / 80.0 GB", "69.0 B (+0.0019%)",
            // "1.17549E-38 (2^−126)", "132 SM", "Gen5 x16 · 63.0 GB/s")
            "^[\\d\\s.,:+\\-−±×·/()%^Ee]*( ?(k|K|M|G|T|P)?(B|kB|MB|GB|TB|FLOP|FLOPs|FLOP/s|B/s|GB/s|s|ms|µs|SM)\\b[\\d\\s.,:+\\-−±×·/()%^]*)*$",
            "^Gen\\d x\\d+ · .*$",
            // a peak with its number format ("989.4 TFLOP/s BF16")
            "^[\\d.,]+ (G|T|P)FLOP/s (FP|BF|TF|INT)\\d+$",
            "^[\\d.]+ ?(B|M|G|T) (SM|elements|parameters)?$",
            // run and preset ids ("narayanan21_t1_1.7B", "korthikanti22_t5_22B_full")
            "^[a-z][a-z0-9_]*[0-9][a-z0-9_.]*[A-Za-z0-9_]*$",
            // column units and degree triples
            "^(tp/pp/dp|token/s|tokens/s|GB/s|GFLOP/s|FLOP/B)$",
            // organisations and architectures of the atlas (proper names)
            "^(OpenAI|EleutherAI|DeepMind|Meta|BigScience|TII|Microsoft|Alibaba|Allen AI|xAI|Mistral AI|NVIDIA|Google|Anthropic|Cohere|Databricks|AI21|Baidu|Tsinghua|Zhipu|Moonshot|01\\.AI|Stability AI|MosaicML|Snowflake|Apple|IBM|Salesforce|Tencent|ByteDance|DeepSeek|Amazon|LMSYS|Reka|Together|Hugging Face|Stanford|Berkeley)$",
            "^(Transformer|MLP|LLaMA|GeLU|GELU)( .*)?$",
            // NCCL collectives (names of operations)
            "^(all-gather|reduce-scatter|all-reduce|all-to-all|send/recv|broadcast|reduce|gather|scatter)$",
            // a variant's changes as key=value settings
            "^[a-z_]+=[\\w.\\-]+( [a-z_]+=[\\w.\\-]+)*$",
            // citations: author et al. year, paper and document names
            "^.*\\bet al\\.?\\s*\\d{4}.*$",
            "^(IEEE|OCP|arXiv|PyTorch|Hugging Face|Megatron-LM|DeepSpeed|vLLM|NVIDIA|CS336|nccl-tests)\\b.*$",
        };
        QList<QRegularExpression> list;
        for (const QString &source : sources)
            list << QRegularExpression(source);
        return list;
    }();
    return patterns;
}

bool isAllowed(const QString &text)
{
    for (const QRegularExpression &pattern : allowed())
        if (pattern.match(text).hasMatch())
            return true;
    return false;
}

// English only: every character ASCII (or typographic punctuation) and at least one letter.
bool englishOnly(const QString &text)
{
    bool letter = false;
    for (const QChar c : text) {
        if (c.unicode() >= 0x2E80)  // CJK and beyond
            return false;
        letter = letter || (c.isLetter() && c.unicode() < 0x80);
    }
    return letter;
}

// An English sentence inside a translated text: six or more lowercase English words in a row.
bool holdsEnglishSentence(const QString &text)
{
    static const QRegularExpression sentence("(?:\\b[a-z][a-z']+\\b[ ,]+){5}\\b[a-z][a-z']+\\b");
    return sentence.match(text).hasMatch();
}

}  // namespace

class TestZhCnLabels : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // What lupdate reports as unfinished is what a user sees in English: none is left.
    void translationFilesHaveNothingUnfinished()
    {
        for (const char *name : {"llm_explorer_zh_CN.ts", "llm_explorer_en.ts"}) {
            QFile file(QStringLiteral(LSE_SOURCE_DIR "/resources/translations/") + QLatin1String(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray ts = file.readAll();
            QCOMPARE(ts.count("type=\"unfinished\""), 0);
            QCOMPARE(ts.count("<numerusform></numerusform>"), 0);
        }
    }

    void everyVisibleTextIsTranslated()
    {
        QVERIFY(MainWindow::installLanguage("zh_CN"));
        const auto restore = qScopeGuard([] { MainWindow::installLanguage("en"); });
        MainWindow window(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QStringList found;
        const auto check = [&](const QString &id, const QString &kind, const QString &raw) {
            QString text = plainText(raw);
            if (kind == QLatin1String("button"))
                text.remove(QRegularExpression(QStringLiteral("&(?=\\S)")));  // the mnemonic marker
            if (text.isEmpty())
                return;
            if (englishOnly(text) && !isAllowed(text))
                found << QString("%1: %2 “%3”").arg(id, kind, text.left(120));
            else if (holdsEnglishSentence(text) && !isAllowed(text))
                found << QString("%1: %2 holds English: “%3”").arg(id, kind, text.left(160));
        };
        for (const QString &id : window.pageAndSectionIds()) {
            QVERIFY(window.selectPage(id));
            Page *page = window.currentPage();
            QTRY_VERIFY_WITH_TIMEOUT(page->isReady(), 60000);
            QCoreApplication::processEvents();
            for (const QLabel *label : page->findChildren<QLabel *>())
                if (label->isVisibleTo(page))
                    check(id, "label", label->text());
            for (const QAbstractButton *button : page->findChildren<QAbstractButton *>())
                if (button->isVisibleTo(page))
                    check(id, "button", button->text());
            for (const QGroupBox *box : page->findChildren<QGroupBox *>())
                if (box->isVisibleTo(page))
                    check(id, "group", box->title());
            for (const QTabBar *tabs : page->findChildren<QTabBar *>())
                if (tabs->isVisibleTo(page))
                    for (int i = 0; i < tabs->count(); ++i)
                        check(id, "tab", tabs->tabText(i));
            for (const QTableView *table : page->findChildren<QTableView *>()) {
                if (!table->isVisibleTo(page) || !table->model())
                    continue;
                const QAbstractItemModel *model = table->model();
                for (int column = 0; column < model->columnCount(); ++column)
                    if (!table->isColumnHidden(column))
                        check(id, "header", model->headerData(column, Qt::Horizontal).toString());
                // Cells that are words (a variant's name, a status), not numbers or names.
                for (int row = 0; row < std::min(model->rowCount(), 40); ++row)
                    for (int column = 0; column < model->columnCount(); ++column)
                        check(id, "cell", model->index(row, column).data().toString());
            }
        }
        found.removeDuplicates();
        for (const QString &line : std::as_const(found))
            qWarning("%s", qPrintable(line));
        QVERIFY2(found.isEmpty(), qPrintable(QString("%1 untranslated texts (listed above)").arg(found.size())));
    }
};

QTEST_MAIN(TestZhCnLabels)
#include "test_zh_cn_labels.moc"
