// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenizer/bpe_tokenizer.h"

#include "common/file_bytes.h"
#include "tokenizer/bpe_trainer.h"
#include "tokenizer/byte_unicode.h"
#include "tokenizer/unicode.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QSaveFile>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>

namespace lse {
namespace {

constexpr std::size_t kCacheLimit = 1 << 18;  // distinct pre-tokens kept before the cache is reset

inline std::uint64_t pairKey(std::uint32_t a, std::uint32_t b) { return (std::uint64_t(a) << 32) | b; }

template <typename T>
Result<T> fileProblem(const std::string &file, std::size_t line, const std::string &rule, const std::string &what)
{
    std::string where = file;
    if (line > 0)
        where += ":" + std::to_string(line);
    return Result<T>::failure(where, rule, where + ": " + what);
}


std::string jsonEscape(std::string_view s)
{
    std::string out;
    for (const char c : s) {
        if (c == '"' || c == '\\') {
            out.push_back('\\');
            out.push_back(c);
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
            out += buf;
        } else {
            out.push_back(c);
        }
    }
    return out;
}


}  // namespace

// --- construction -------------------------------------------------------------------------------

Result<BpeTokenizer> BpeTokenizer::create(std::vector<std::string> tokens,
                                          const std::vector<std::pair<std::string, std::string>> &merges,
                                          const std::vector<std::string> &specialTokens)
{
    auto model = std::make_shared<BpeModel>();
    model->tokens = std::move(tokens);
    if (model->tokens.size() >= std::numeric_limits<std::uint32_t>::max())
        return Result<BpeTokenizer>::failure("vocab", "too_large", "The vocabulary is too large.");
    for (std::size_t id = 0; id < model->tokens.size(); ++id)
        model->ids.emplace(model->tokens[id], static_cast<std::uint32_t>(id));
    for (const auto &special : specialTokens) {
        if (special.empty() ||
            std::find(model->specialTokens.begin(), model->specialTokens.end(), special) != model->specialTokens.end())
            continue;
        auto it = model->ids.find(special);
        if (it == model->ids.end()) {
            const auto id = static_cast<std::uint32_t>(model->tokens.size());
            model->tokens.push_back(special);
            it = model->ids.emplace(special, id).first;
        }
        model->specialTokens.push_back(special);
        model->specialIds.push_back(it->second);
    }
    for (int b = 0; b < 256; ++b) {
        const auto it = model->ids.find(std::string(1, static_cast<char>(static_cast<unsigned char>(b))));
        if (it == model->ids.end())
            return Result<BpeTokenizer>::failure("vocab", "missing_byte",
                                                 "The vocabulary has no token for the byte " + std::to_string(b) +
                                                     "; a byte-level BPE needs all 256.");
        model->byteIds[b] = it->second;
    }
    model->merges.reserve(merges.size());
    for (std::size_t rank = 0; rank < merges.size(); ++rank) {
        const auto &[l, r] = merges[rank];
        const auto li = model->ids.find(l), ri = model->ids.find(r), mi = model->ids.find(l + r);
        if (li == model->ids.end() || ri == model->ids.end() || mi == model->ids.end()) {
            const std::string which = li == model->ids.end()   ? "left part '" + bytesToAlphabet(l) + "'"
                                      : ri == model->ids.end() ? "right part '" + bytesToAlphabet(r) + "'"
                                                               : "merged token '" + bytesToAlphabet(l + r) + "'";
            return Result<BpeTokenizer>::failure("merges[" + std::to_string(rank) + "]", "unknown_token",
                                                 "Merge " + std::to_string(rank + 1) + ": the " + which +
                                                     " is not in the vocabulary.");
        }
        model->merges.emplace_back(li->second, ri->second);
        model->mergeRank.emplace(pairKey(li->second, ri->second),
                                 std::make_pair(static_cast<std::uint32_t>(rank), mi->second));
    }
    return BpeTokenizer(std::move(model));
}

Result<BpeTokenizer> BpeTokenizer::fromTraining(const BpeTrainResult &trained)
{
    std::vector<std::string> specials(trained.vocab.begin(),
                                      trained.vocab.begin() + static_cast<std::ptrdiff_t>(trained.specialCount));
    return create(trained.vocab, trained.merges, specials);
}

Result<BpeTokenizer> BpeTokenizer::loadGpt2(const std::string &vocabPath, const std::string &mergesPath,
                                            const std::vector<std::string> &specialTokens)
{
    // vocab.json
    const Result<QByteArray> vocabData = readFileBytes(vocabPath);
    if (!vocabData)
        return vocabData.problems();
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(*vocabData, &error);
    if (error.error != QJsonParseError::NoError) {
        const auto line = 1 + static_cast<std::size_t>(
                                  std::count(vocabData->constData(), vocabData->constData() + error.offset, '\n'));
        return fileProblem<BpeTokenizer>(vocabPath, line, "bad_json",
                                         "invalid JSON: " + error.errorString().toStdString() + ".");
    }
    if (!doc.isObject())
        return fileProblem<BpeTokenizer>(vocabPath, 1, "bad_json", "expected a JSON object of token → id.");
    const QJsonObject obj = doc.object();
    std::vector<std::string> tokens(static_cast<std::size_t>(obj.size()));
    std::vector<bool> seen(tokens.size(), false);
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const std::string key = it.key().toStdString();
        const double v = it.value().toDouble(-1);
        if (!it.value().isDouble() || v < 0 || v != static_cast<double>(static_cast<std::int64_t>(v)) ||
            v >= static_cast<double>(tokens.size()) || seen[static_cast<std::size_t>(v)])
            return fileProblem<BpeTokenizer>(vocabPath, 0, "bad_id",
                                             "token '" + key + "' has an id that is not an unused integer in 0.." +
                                                 std::to_string(tokens.size() - 1) + ".");
        const auto bytes = alphabetToBytes(key);
        if (!bytes)
            return fileProblem<BpeTokenizer>(vocabPath, 0, "bad_token",
                                             "token '" + key + "' is not spelled in GPT-2's byte-to-unicode alphabet.");
        const auto id = static_cast<std::size_t>(v);
        tokens[id] = *bytes;
        seen[id] = true;
    }

    // merges.txt
    const Result<QByteArray> mergesData = readFileBytes(mergesPath);
    if (!mergesData)
        return mergesData.problems();
    const std::string_view text(mergesData->constData(), static_cast<std::size_t>(mergesData->size()));
    std::vector<std::pair<std::string, std::string>> merges;
    std::vector<std::size_t> mergeLines;  // line of each merge, for messages
    std::size_t pos = 0, line = 0;
    while (pos < text.size()) {
        std::size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = text.size();
        std::string_view l = text.substr(pos, eol - pos);
        pos = eol + 1;
        ++line;
        if (!l.empty() && l.back() == '\r')
            l.remove_suffix(1);
        if (l.empty() || (line == 1 && l.substr(0, 8) == "#version"))
            continue;
        const std::size_t sp = l.find(' ');
        if (sp == std::string_view::npos || sp == 0 || sp + 1 >= l.size() || l.find(' ', sp + 1) != std::string_view::npos)
            return fileProblem<BpeTokenizer>(mergesPath, line, "bad_merge",
                                             "expected two tokens separated by one space, got '" + std::string(l) + "'.");
        const auto left = alphabetToBytes(l.substr(0, sp));
        const auto right = alphabetToBytes(l.substr(sp + 1));
        if (!left || !right)
            return fileProblem<BpeTokenizer>(mergesPath, line, "bad_token",
                                             "'" + std::string(l) + "' is not spelled in GPT-2's byte-to-unicode alphabet.");
        merges.emplace_back(*left, *right);
        mergeLines.push_back(line);
    }
    Result<BpeTokenizer> r = create(std::move(tokens), merges, specialTokens);
    if (!r.ok()) {
        Problem p = r.problems().front();
        if (p.field.rfind("merges[", 0) == 0) {
            const std::size_t rank = std::stoul(p.field.substr(7));
            return fileProblem<BpeTokenizer>(mergesPath, mergeLines[rank], p.rule, p.message);
        }
        p.message = vocabPath + ": " + p.message;
        p.field = vocabPath;
        return Problems{p};
    }
    return r;
}

Result<bool> BpeTokenizer::saveGpt2(const std::string &vocabPath, const std::string &mergesPath) const
{
    std::string vocab = "{";
    for (std::size_t id = 0; id < model_->tokens.size(); ++id) {
        vocab += id == 0 ? "\n" : ",\n";
        vocab += "  \"" + jsonEscape(bytesToAlphabet(model_->tokens[id])) + "\": " + std::to_string(id);
    }
    vocab += "\n}\n";
    std::string merges = "#version: 0.2\n";
    for (const auto &[l, r] : model_->merges)
        merges += bytesToAlphabet(model_->tokens[l]) + " " + bytesToAlphabet(model_->tokens[r]) + "\n";
    for (const auto &[path, data] : {std::make_pair(vocabPath, &vocab), std::make_pair(mergesPath, &merges)}) {
        QSaveFile f(QString::fromStdString(path));
        if (!f.open(QIODevice::WriteOnly) ||
            f.write(data->data(), static_cast<qint64>(data->size())) != static_cast<qint64>(data->size()) || !f.commit())
            return Result<bool>::failure(path, "unwritable", path + ": cannot write (" + f.errorString().toStdString() + ").");
    }
    return true;
}

// --- encoding -----------------------------------------------------------------------------------

void BpeTokenizer::encodePretoken(std::string_view piece, std::vector<std::uint32_t> &out)
{
    const BpeModel &m = *model_;
    if (piece.size() == 1) {
        out.push_back(m.byteIds[static_cast<unsigned char>(piece[0])]);
        return;
    }
    if (const auto it = cache_.find(piece); it != cache_.end()) {
        const auto *p = cacheIds_.data() + it->second.first;
        out.insert(out.end(), p, p + it->second.second);
        return;
    }
    auto &s = scratch_;
    s.clear();
    for (const char c : piece)
        s.push_back(m.byteIds[static_cast<unsigned char>(c)]);
    while (s.size() > 1) {
        std::uint32_t bestRank = std::numeric_limits<std::uint32_t>::max();
        std::uint32_t bestId = 0, a = 0, b = 0;
        for (std::size_t i = 0; i + 1 < s.size(); ++i) {
            const auto it = m.mergeRank.find(pairKey(s[i], s[i + 1]));
            if (it != m.mergeRank.end() && it->second.first < bestRank) {
                bestRank = it->second.first;
                bestId = it->second.second;
                a = s[i];
                b = s[i + 1];
            }
        }
        if (bestRank == std::numeric_limits<std::uint32_t>::max())
            break;
        std::size_t w = 0;
        for (std::size_t i = 0; i < s.size();) {
            if (i + 1 < s.size() && s[i] == a && s[i + 1] == b) {
                s[w++] = bestId;
                i += 2;
            } else {
                s[w++] = s[i++];
            }
        }
        s.resize(w);
    }
    if (cache_.size() >= kCacheLimit) {
        cache_.clear();
        cacheIds_.clear();
    }
    cache_.emplace(std::string(piece), std::make_pair(static_cast<std::uint32_t>(cacheIds_.size()),
                                                      static_cast<std::uint32_t>(s.size())));
    cacheIds_.insert(cacheIds_.end(), s.begin(), s.end());
    out.insert(out.end(), s.begin(), s.end());
}

void BpeTokenizer::encodeOrdinary(std::string_view text, std::vector<std::uint32_t> &out)
{
    forEachPretoken(text, [&](std::size_t b, std::size_t e) { encodePretoken(text.substr(b, e - b), out); });
}

SpecialTokenMatcher BpeTokenizer::matcherFor(const std::vector<std::string> &allowedSpecial) const
{
    std::vector<std::string> allowed;
    for (const auto &s : allowedSpecial)
        if (std::find(model_->specialTokens.begin(), model_->specialTokens.end(), s) != model_->specialTokens.end())
            allowed.push_back(s);
    return SpecialTokenMatcher(std::move(allowed));
}

void BpeTokenizer::encodeInto(std::string_view text, const std::vector<std::string> &allowedSpecial,
                              std::vector<std::uint32_t> &out)
{
    const SpecialTokenMatcher matcher = matcherFor(allowedSpecial);
    matcher.split(
        text, [&](std::size_t b, std::size_t e) { encodeOrdinary(text.substr(b, e - b), out); },
        [&](std::size_t, std::size_t, std::size_t t) { out.push_back(model_->ids.find(matcher.tokens()[t])->second); });
}

std::vector<std::uint32_t> BpeTokenizer::encode(std::string_view text, const std::vector<std::string> &allowedSpecial)
{
    std::vector<std::uint32_t> out;
    out.reserve(text.size() / 3 + 1);
    encodeInto(text, allowedSpecial, out);
    return out;
}

std::vector<EncodedToken> BpeTokenizer::encodeWithOffsets(std::string_view text,
                                                          const std::vector<std::string> &allowedSpecial)
{
    std::vector<EncodedToken> out;
    std::vector<std::uint32_t> ids;
    const SpecialTokenMatcher matcher = matcherFor(allowedSpecial);
    matcher.split(
        text,
        [&](std::size_t b, std::size_t e) {
            const std::string_view piece = text.substr(b, e - b);
            forEachPretoken(piece, [&](std::size_t pb, std::size_t pe) {
                ids.clear();
                encodePretoken(piece.substr(pb, pe - pb), ids);
                std::size_t at = b + pb;
                for (const std::uint32_t id : ids) {
                    const std::size_t len = model_->tokens[id].size();
                    out.push_back({id, at, at + len});
                    at += len;
                }
            });
        },
        [&](std::size_t b, std::size_t e, std::size_t t) {
            out.push_back({model_->ids.find(matcher.tokens()[t])->second, b, e});
        });
    return out;
}

Result<std::size_t> BpeTokenizer::encodeStream(std::istream &in, const std::vector<std::string> &allowedSpecial,
                                               const IdSink &sink, std::size_t chunkBytes)
{
    const SpecialTokenMatcher matcher = matcherFor(allowedSpecial);
    const std::size_t holdBack = matcher.empty() ? 0 : matcher.maxLength() - 1;
    chunkBytes = std::max<std::size_t>(chunkBytes, 1);
    std::string buf;
    std::vector<std::uint32_t> ids;
    std::vector<ByteSpan> spans;
    std::size_t total = 0;
    const auto flush = [&] {
        if (!ids.empty())
            sink(ids.data(), ids.size());
        total += ids.size();
        ids.clear();
    };
    for (;;) {
        const std::size_t old = buf.size();
        buf.resize(old + chunkBytes);
        in.read(buf.data() + old, static_cast<std::streamsize>(chunkBytes));
        buf.resize(old + static_cast<std::size_t>(in.gcount()));
        if (in.bad())
            return Result<std::size_t>::failure("input", "unreadable", "Reading the input failed.");
        if (in.eof() || in.gcount() == 0) {
            encodeInto(buf, allowedSpecial, ids);
            flush();
            return total;
        }
        // Special tokens that start before `limit` are entirely in the buffer.
        const std::string_view text(buf);
        const std::size_t limit = text.size() > holdBack ? text.size() - holdBack : 0;
        const std::size_t avail = text.size() - incompleteUtf8Tail(text);
        std::size_t pos = 0;
        while (!matcher.empty()) {
            const auto m = matcher.find(text, pos);
            if (m.begin == std::string_view::npos || m.begin >= limit)
                break;
            encodeOrdinary(text.substr(pos, m.begin - pos), ids);
            ids.push_back(model_->ids.find(matcher.tokens()[m.token])->second);
            pos = m.begin + m.length;
        }
        // Cut the ordinary text at the start of a pre-token k that is not the last one, after a
        // pre-token k-1 that is not whitespace: pre-tokens before it are then final.
        std::size_t cut = pos;
        if (avail > pos) {
            const std::string_view piece = text.substr(pos, avail - pos);
            spans.clear();
            forEachPretoken(piece, [&](std::size_t b, std::size_t e) { spans.push_back({b, e}); });
            for (std::size_t k = spans.size() >= 2 ? spans.size() - 2 : 0; k >= 1; --k) {
                if (pos + spans[k].begin > limit)
                    continue;
                const ByteSpan prev = spans[k - 1];
                std::uint32_t len = 0;
                const CharClass first = classAt(piece, prev.begin, len);
                bool whitespace = first == CharClass::Space;
                if (whitespace && piece[prev.begin] == ' ' && prev.end - prev.begin > 1) {
                    std::uint32_t l2 = 0;
                    whitespace = classAt(piece, prev.begin + 1, l2) == CharClass::Space;
                }
                if (!whitespace) {
                    cut = pos + spans[k].begin;
                    break;
                }
            }
        }
        encodeOrdinary(text.substr(pos, cut - pos), ids);
        buf.erase(0, cut);
        flush();
    }
}

Result<std::size_t> BpeTokenizer::encodeFile(const std::string &path, const std::vector<std::string> &allowedSpecial,
                                             const IdSink &sink, std::size_t chunkBytes)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Result<std::size_t>::failure(path, "unreadable", path + ": cannot open.");
    return encodeStream(in, allowedSpecial, sink, chunkBytes);
}

// --- decoding -----------------------------------------------------------------------------------

std::string BpeTokenizer::decodeBytes(const std::vector<std::uint32_t> &ids) const
{
    std::string out;
    for (const std::uint32_t id : ids)
        if (id < model_->tokens.size())
            out += model_->tokens[id];
    return out;
}

std::string BpeTokenizer::decode(const std::vector<std::uint32_t> &ids) const
{
    std::string bytes;
    for (const std::uint32_t id : ids)
        bytes += id < model_->tokens.size() ? model_->tokens[id] : std::string("\xEF\xBF\xBD");
    return repairUtf8(bytes);
}

}  // namespace lse
