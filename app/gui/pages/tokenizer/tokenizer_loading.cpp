// SPDX-License-Identifier: GPL-3.0-or-later
// The Tokenization page's tokenizers read from files: the course GPT-2 files, Hugging Face cache
// snapshots and files the user chose, loaded synchronously or in a worker thread.
#include "pages/tokenizer/tokenization_page.h"

#include "common/problem.h"
#include "pages/tokenizer/bpe_merge_parents.h"
#include "pages/tokenizer/tokenizer_merge_files.h"
#include "pages/tokenizer/tokenizer_picker_keys.h"
#include "pages/page_format.h"
#include "tokenizer/tokenizer_formats.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProgressBar>
#include <QPushButton>

#include <chrono>

namespace lse::gui {

TokenizationPage::LoadOutcome TokenizationPage::loadSlot(Source::Origin origin, const QString &path)
{
    const auto start = std::chrono::steady_clock::now();
    LoadOutcome out;
    const std::vector<std::string> endoftext{"<|endoftext|>"};
    std::optional<std::pair<QString, QString>> gpt2;  // GPT-2 files under names loadTokenizer() skips
    Result<BpeTokenizer> loaded = Result<BpeTokenizer>::failure(path.toStdString(), "missing",
                                                                path.toStdString() + ": no such file or directory.");
    if (origin == Source::Origin::Course) {
        gpt2 = gpt2FilesIn(path);
    } else {
        loaded = loadTokenizer(QFile::encodeName(path).toStdString());
        if (!loaded && QFileInfo(path).isDir())
            gpt2 = gpt2FilesIn(path);
    }
    if (gpt2)
        loaded = BpeTokenizer::loadGpt2(QFile::encodeName(gpt2->first).toStdString(),
                                        QFile::encodeName(gpt2->second).toStdString(), endoftext);
    if (!loaded) {
        out.error = QString::fromStdString(formatProblems(loaded.problems())).trimmed();
        return out;
    }
    auto slot = std::make_shared<BpeSlot>();
    slot->tokenizer = std::move(loaded.value());
    slot->vocab = slot->tokenizer->vocabSize();
    slot->parents = bpeMergeParents(gpt2 ? readMerges(gpt2->second) : tooltipMerges(path, *slot->tokenizer), slot->rank);
    out.slot = std::move(slot);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

bool TokenizationPage::startLoad(int side, const QString &key)
{
    if (load_worker_.joinable()) {
        const QString busy = loading_name_;
        setMessage([this, busy] { return tr("Still loading %1; choose again when it is done.").arg(busy); }, true);
        return false;
    }
    const Source *source = key == pending_file_key_ && pending_file_ ? &*pending_file_ : sourceOf(key);
    if (!source || source->path.isEmpty())
        return false;
    loading_name_ = source->name;
    load_busy_->show();
    load_button_->setEnabled(false);
    const QString name = source->name;
    setMessage([this, name] { return tr("Loading %1…").arg(name); }, false);
    load_worker_ = std::thread([this, side, key, origin = source->origin, path = source->path] {
        auto outcome = std::make_shared<LoadOutcome>(loadSlot(origin, path));
        QMetaObject::invokeMethod(this, [this, side, key, outcome] { finishLoad(side, key, *outcome); },
                                  Qt::QueuedConnection);
    });
    return true;
}

void TokenizationPage::finishLoad(int side, const QString &key, const LoadOutcome &outcome)
{
    if (load_worker_.joinable())
        load_worker_.join();
    load_busy_->hide();
    load_button_->setEnabled(true);
    const bool is_file = pending_file_ && key == pending_file_key_;
    Source *source = sourceOf(key);
    const QString name = is_file ? pending_file_->name : source ? source->name : key;
    const QString path = is_file ? pending_file_->path : source ? source->path : QString();
    if (!outcome.slot) {
        if (is_file)
            pending_file_.reset();
        const QString error = outcome.error;
        setMessage([this, name, error] { return tr("Could not load %1 (the previous tokenizer stays): %2").arg(name, error); },
                   true);
        emit tokenizerLoaded(false);
        emit ready();
        return;
    }
    if (is_file) {
        if (!source) {
            sources_.push_back(*pending_file_);
            source = &sources_.back();
        }
        pending_file_.reset();
        last_file_key_ = key;
    }
    if (!source) {  // a rescan dropped the entry while it loaded
        emit tokenizerLoaded(false);
        emit ready();
        return;
    }
    source->slot = outcome.slot;
    if (key == tokenizer_keys::kCourse)
        ++course_loads_;
    for (QComboBox *box : {picker_a_, picker_b_})
        fillPicker(box);
    // The lazy GPT-2 load (startCourseLoadOnce) shows it as tokenizer A, as the page always opened,
    // unless tokenizer A was chosen since the page was built.
    if (!(key == tokenizer_keys::kCourse && tokenizer_a_chosen_))
        selectKey(side, key);
    // A file loaded after training: show it against the trained tokenizer.
    if (is_file && trained_ && side == 0)
        selectKey(1, tokenizer_keys::kTrained);
    const auto vocab = static_cast<std::int64_t>(outcome.slot->vocab);
    const auto merges = static_cast<std::int64_t>(outcome.slot->tokenizer->mergeCount());
    const double seconds = outcome.seconds;
    setMessage(
        [this, name, path, vocab, merges, seconds] {
            return tr("Loaded %1 from %2: %3 tokens, %4 merges, in %5 s.")
                .arg(name, QDir::toNativeSeparators(path), format::integer(vocab), format::integer(merges),
                     format::decimal(seconds, 2));
        },
        false);
    emit tokenizerLoaded(true);
    emit ready();
}

namespace {

QString fileSourceName(const QString &path)
{
    const QFileInfo info(path);
    // The course folder and trained folders hold anonymous vocab.json/merges.txt: name them by folder.
    if (info.isDir() || info.fileName() == QLatin1String("vocab.json") || info.fileName() == QLatin1String("merges.txt") ||
        info.fileName() == QLatin1String("tokenizer.json"))
        return (info.isDir() ? QDir(path) : info.dir()).dirName();
    return info.fileName();
}

}  // namespace

bool TokenizationPage::loadTokenizerAsync(const QString &path)
{
    if (load_worker_.joinable())
        return startLoad(0, QString());  // says what is still loading
    const QString absolute = QFileInfo(path).absoluteFilePath();
    pending_file_key_ = QStringLiteral("file:") + absolute;
    pending_file_ = std::make_shared<Source>(Source{Source::Origin::File, pending_file_key_, fileSourceName(absolute),
                                                    absolute, nullptr});
    return startLoad(0, pending_file_key_);
}

bool TokenizationPage::loadTokenizerDirectory(const QString &path, QString *error)
{
    if (load_worker_.joinable()) {
        if (error)
            *error = tr("Another tokenizer is still loading.");
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    pending_file_key_ = QStringLiteral("file:") + absolute;
    pending_file_ = std::make_shared<Source>(Source{Source::Origin::File, pending_file_key_, fileSourceName(absolute),
                                                    absolute, nullptr});
    const LoadOutcome outcome = loadSlot(Source::Origin::File, absolute);
    finishLoad(0, pending_file_key_, outcome);
    if (!outcome.slot && error)
        *error = outcome.error;
    return static_cast<bool>(outcome.slot);
}

}  // namespace lse::gui
