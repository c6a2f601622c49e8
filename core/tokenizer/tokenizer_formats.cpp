// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenizer/tokenizer_formats.h"

#include "common/file_bytes.h"
#include "common/json_fields.h"
#include "tokenizer/byte_unicode.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace lse {
namespace {

const std::string kEndOfText = "<|endoftext|>";

Result<BpeTokenizer> problemAt(const std::string &file, const std::string &where, const std::string &rule,
                               const std::string &what)
{
    const std::string field = where.empty() ? file : file + ":" + where;
    return Result<BpeTokenizer>::failure(field, rule, field + ": " + what);
}


std::string quoted(const QString &s)
{
    std::string out = "\"";
    for (const char c : s.toStdString()) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

// Strict standard base64 (with '=' padding, length a multiple of 4).
bool decodeBase64(std::string_view in, std::string &out)
{
    out.clear();
    if (in.empty() || in.size() % 4 != 0)
        return false;
    const auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z')
            return c - 'A';
        if (c >= 'a' && c <= 'z')
            return c - 'a' + 26;
        if (c >= '0' && c <= '9')
            return c - '0' + 52;
        if (c == '+')
            return 62;
        if (c == '/')
            return 63;
        return -1;
    };
    for (std::size_t i = 0; i < in.size(); i += 4) {
        const bool last = i + 4 == in.size();
        int v[4];
        int pad = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = in[i + static_cast<std::size_t>(k)];
            if (c == '=' && last && k >= 2) {
                v[k] = 0;
                ++pad;
                continue;
            }
            if (pad > 0)
                return false;  // data after padding
            v[k] = value(c);
            if (v[k] < 0)
                return false;
        }
        const std::uint32_t n = (std::uint32_t(v[0]) << 18) | (std::uint32_t(v[1]) << 12) | (std::uint32_t(v[2]) << 6) |
                                std::uint32_t(v[3]);
        out.push_back(static_cast<char>((n >> 16) & 0xFF));
        if (pad < 2)
            out.push_back(static_cast<char>((n >> 8) & 0xFF));
        if (pad < 1)
            out.push_back(static_cast<char>(n & 0xFF));
    }
    return true;
}

bool isEmptyOrNull(const QJsonValue &v) { return v.isUndefined() || v.isNull() || (v.isString() && v.toString().isEmpty()); }

bool isByteLevel(const QJsonValue &v) { return v.isObject() && v.toObject().value("type").toString() == "ByteLevel"; }

}  // namespace

// --- tiktoken ---------------------------------------------------------------------------------

Result<BpeTokenizer> loadTiktoken(const std::string &path, const std::vector<std::string> &specialTokens, TiktokenInfo *info)
{
    const Result<QByteArray> data = readFileBytes(path, FileKind::Tokenizer);
    if (!data)
        return data.problems();
    const std::string_view text(data->constData(), static_cast<std::size_t>(data->size()));
    const std::size_t maxRanks = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
    std::vector<std::string> tokens;
    std::vector<std::size_t> lineOf;  // rank → line (0 = not seen)
    std::unordered_map<std::string, std::size_t> lineOfToken;
    std::size_t pos = 0, line = 0, count = 0;
    std::string bytes;
    while (pos < text.size()) {
        std::size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = text.size();
        std::string_view l = text.substr(pos, eol - pos);
        pos = eol + 1;
        ++line;
        if (!l.empty() && l.back() == '\r')
            l.remove_suffix(1);
        if (l.empty())
            continue;
        const std::string where = std::to_string(line);
        const std::size_t sp = l.find(' ');
        if (sp == std::string_view::npos || sp == 0 || sp + 1 >= l.size() || l.find(' ', sp + 1) != std::string_view::npos)
            return problemAt(path, where, "bad_line",
                             "expected \"base64-token rank\" (two fields separated by one space), got '" +
                                 std::string(l.substr(0, 80)) + "'.");
        if (!decodeBase64(l.substr(0, sp), bytes))
            return problemAt(path, where, "bad_base64", "'" + std::string(l.substr(0, std::min<std::size_t>(sp, 80))) +
                                                            "' is not valid base64.");
        const std::string_view rs = l.substr(sp + 1);
        std::size_t rank = 0;
        bool digits = rs.size() <= 10;
        for (const char c : rs) {
            if (c < '0' || c > '9') {
                digits = false;
                break;
            }
            rank = rank * 10 + static_cast<std::size_t>(c - '0');
        }
        if (!digits && rs.find_first_not_of("0123456789") == std::string_view::npos)
            return problemAt(path, where, "bad_rank", "rank " + std::string(rs.substr(0, 20)) + " is out of range.");
        if (!digits)
            return problemAt(path, where, "bad_rank", "rank '" + std::string(rs.substr(0, 20)) + "' is not a non-negative integer.");
        if (rank >= maxRanks)
            return problemAt(path, where, "bad_rank",
                             "rank " + std::to_string(rank) + " is out of range: a file of " + std::to_string(maxRanks) +
                                 " lines holds ranks 0.." + std::to_string(maxRanks - 1) + ".");
        if (rank >= tokens.size()) {
            tokens.resize(rank + 1);
            lineOf.resize(rank + 1, 0);
        }
        if (lineOf[rank] != 0)
            return problemAt(path, where, "duplicate_rank",
                             "rank " + std::to_string(rank) + " was already given on line " + std::to_string(lineOf[rank]) + ".");
        if (const auto [it, fresh] = lineOfToken.emplace(bytes, line); !fresh)
            return problemAt(path, where, "duplicate_token",
                             "the token was already given on line " + std::to_string(it->second) + ".");
        tokens[rank] = bytes;
        lineOf[rank] = line;
        ++count;
    }
    if (count == 0)
        return problemAt(path, "", "empty", "the file holds no ranks.");
    for (std::size_t r = 0; r < lineOf.size(); ++r)
        if (lineOf[r] == 0)
            return problemAt(path, "", "missing_rank",
                             "rank " + std::to_string(r) + " is missing (ranks must be 0.." + std::to_string(tokens.size() - 1) +
                                 ", each once); the file may be truncated or corrupt.");
    std::size_t unreachable = 0;
    const auto merges = mergesFromRanks(tokens, &unreachable);
    if (info)
        *info = {count, unreachable};
    Result<BpeTokenizer> r = BpeTokenizer::create(std::move(tokens), merges, specialTokens);
    if (!r.ok())
        return problemAt(path, "", r.problems().front().rule, r.problems().front().message);
    return r;
}

// --- Hugging Face tokenizer.json ----------------------------------------------------------------

namespace {

Result<BpeTokenizer> loadHfImpl(const std::string &path, const std::vector<std::string> &extraSpecials)
{
    const Result<QByteArray> data = readFileBytes(path, FileKind::Tokenizer);
    if (!data)
        return data.problems();
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(*data, &error);
    if (error.error != QJsonParseError::NoError) {
        const auto line = 1 + static_cast<std::size_t>(std::count(data->constData(), data->constData() + error.offset, '\n'));
        return problemAt(path, std::to_string(line), "bad_json", "invalid JSON: " + error.errorString().toStdString() + ".");
    }
    if (!doc.isObject())
        return problemAt(path, "", "bad_json", "expected a JSON object (a Hugging Face tokenizer.json).");
    const QJsonObject root = doc.object();
    const QJsonValue modelValue = root.value("model");
    if (!modelValue.isObject())
        return problemAt(path, "model", "missing", "expected an object describing the model (is this a tokenizer.json?).");
    const QJsonObject model = modelValue.toObject();
    const QJsonValue type = model.value("type");
    if (!type.isUndefined() && type.toString() != "BPE")
        return problemAt(path, "model.type", "unsupported",
                         "model type " + quoted(type.toString()) + " is not supported; only \"BPE\" is.");

    // Only byte-level BPE with the GPT-2 pre-tokenization can be reproduced exactly.
    if (!root.value("normalizer").isUndefined() && !root.value("normalizer").isNull())
        return problemAt(path, "normalizer", "unsupported",
                         "normalizers are not supported (the byte-level BPE here applies none).");
    const QJsonValue pre = root.value("pre_tokenizer");
    if (!isByteLevel(pre))
        return problemAt(path, "pre_tokenizer", "unsupported",
                         "only a ByteLevel pre-tokenizer (GPT-2 pattern) is supported, got " +
                             quoted(pre.isObject() ? pre.toObject().value("type").toString() : QString("none")) + ".");
    if (pre.toObject().value("add_prefix_space").toBool(false))
        return problemAt(path, "pre_tokenizer.add_prefix_space", "unsupported", "add_prefix_space true is not supported.");
    if (!pre.toObject().value("use_regex").toBool(true))
        return problemAt(path, "pre_tokenizer.use_regex", "unsupported",
                         "use_regex false (no GPT-2 pre-tokenization) is not supported.");
    const QJsonValue dec = root.value("decoder");
    if (!dec.isUndefined() && !dec.isNull() && !isByteLevel(dec))
        return problemAt(path, "decoder", "unsupported",
                         "only a ByteLevel decoder is supported, got " + quoted(dec.toObject().value("type").toString()) + ".");
    if (const QJsonValue d = model.value("dropout"); !d.isUndefined() && !d.isNull() && d.toDouble(0) != 0)
        return problemAt(path, "model.dropout", "unsupported", "BPE dropout is not supported.");
    for (const char *key : {"continuing_subword_prefix", "end_of_word_suffix"})
        if (!isEmptyOrNull(model.value(key)))
            return problemAt(path, std::string("model.") + key, "unsupported",
                             std::string(key) + " is not supported by byte-level BPE.");
    if (model.value("byte_fallback").toBool(false))
        return problemAt(path, "model.byte_fallback", "unsupported", "byte_fallback is not supported by byte-level BPE.");

    // Vocabulary.
    const QJsonValue vocabValue = model.value("vocab");
    if (!vocabValue.isObject())
        return problemAt(path, "model.vocab", "missing", "expected an object of token → id.");
    const QJsonObject vocab = vocabValue.toObject();
    const QJsonArray added = root.value("added_tokens").toArray();
    // Ids are dense, so none can reach the number of vocabulary entries plus added tokens.
    const auto tokenCount = static_cast<std::size_t>(vocab.size() + added.size());
    const auto limit = static_cast<double>(tokenCount);
    std::size_t size = static_cast<std::size_t>(vocab.size());
    for (qsizetype i = 0; i < added.size(); ++i) {
        const double id = added.at(i).toObject().value("id").toDouble(-1);
        if (id >= 0 && id < limit)
            size = std::max(size, static_cast<std::size_t>(id) + 1);
    }
    std::vector<std::string> tokens(size);
    std::vector<bool> seen(size, false);
    std::vector<QString> spelling(size);
    for (auto it = vocab.begin(); it != vocab.end(); ++it) {
        const std::string where = "model.vocab[" + quoted(it.key()) + "]";
        const std::optional<std::int64_t> v = jsonCountValue(it.value());
        if (!v || static_cast<std::uint64_t>(*v) >= size || seen[static_cast<std::size_t>(*v)])
            return problemAt(path, where, "bad_id",
                             "the id is not an unused integer in 0.." + std::to_string(size - 1) + ".");
        const auto bytes = alphabetToBytes(it.key().toStdString());
        if (!bytes)
            return problemAt(path, where, "bad_token", "the token is not spelled in GPT-2's byte-to-unicode alphabet.");
        const auto id = static_cast<std::size_t>(*v);
        tokens[id] = *bytes;
        spelling[id] = it.key();
        seen[id] = true;
    }

    // Added tokens: ids either in the vocabulary (same content) or new.
    std::vector<std::string> specials;
    for (qsizetype i = 0; i < added.size(); ++i) {
        const std::string where = "added_tokens[" + std::to_string(i) + "]";
        const QJsonObject a = added.at(i).toObject();
        const QJsonValue idv = a.value("id"), content = a.value("content");
        const std::optional<std::int64_t> v = jsonCountValue(idv);
        if (!v || static_cast<std::uint64_t>(*v) >= size)
            return problemAt(path, where + ".id", "bad_id", "expected an integer id in 0.." + std::to_string(tokenCount - 1) + " (model.vocab and added_tokens hold " +
                                 std::to_string(tokenCount) + " tokens and ids are dense).");
        if (!content.isString() || content.toString().isEmpty())
            return problemAt(path, where + ".content", "bad_token", "expected a non-empty string.");
        const auto id = static_cast<std::size_t>(*v);
        const std::string text = content.toString().toStdString();
        if (seen[id] && tokens[id] != text && spelling[id] != content.toString())
            return problemAt(path, where, "conflict",
                             "id " + std::to_string(id) + " is " + quoted(spelling[id]) + " in model.vocab but " +
                                 quoted(content.toString()) + " here.");
        tokens[id] = text;
        seen[id] = true;
        if (a.value("special").toBool(false))
            specials.push_back(text);
    }
    for (std::size_t id = 0; id < size; ++id)
        if (!seen[id])
            return problemAt(path, "model.vocab", "missing_id",
                             "no token has id " + std::to_string(id) + " (ids must be 0.." + std::to_string(size - 1) + ").");

    // Merges.
    const QJsonValue mergesValue = model.value("merges");
    if (!mergesValue.isArray())
        return problemAt(path, "model.merges", "missing", "expected an array of merges.");
    const QJsonArray mergesArray = mergesValue.toArray();
    std::vector<std::pair<std::string, std::string>> merges;
    merges.reserve(static_cast<std::size_t>(mergesArray.size()));
    for (qsizetype i = 0; i < mergesArray.size(); ++i) {
        const std::string where = "model.merges[" + std::to_string(i) + "]";
        const QJsonValue m = mergesArray.at(i);
        std::string left, right;
        if (m.isString()) {
            const std::string s = m.toString().toStdString();
            const std::size_t sp = s.find(' ');
            if (sp == std::string::npos || sp == 0 || sp + 1 >= s.size() || s.find(' ', sp + 1) != std::string::npos)
                return problemAt(path, where, "bad_merge",
                                 "expected two tokens separated by one space, got " + quoted(m.toString()) + ".");
            left = s.substr(0, sp);
            right = s.substr(sp + 1);
        } else if (m.isArray() && m.toArray().size() == 2 && m.toArray().at(0).isString() && m.toArray().at(1).isString()) {
            left = m.toArray().at(0).toString().toStdString();
            right = m.toArray().at(1).toString().toStdString();
        } else {
            return problemAt(path, where, "bad_merge", "expected \"left right\" or [\"left\", \"right\"].");
        }
        const auto l = alphabetToBytes(left), r = alphabetToBytes(right);
        if (!l || !r || l->empty() || r->empty())
            return problemAt(path, where, "bad_token", "the merge is not spelled in GPT-2's byte-to-unicode alphabet.");
        merges.emplace_back(*l, *r);
    }

    specials.insert(specials.end(), extraSpecials.begin(), extraSpecials.end());
    Result<BpeTokenizer> r = BpeTokenizer::create(std::move(tokens), merges, specials);
    if (!r.ok()) {
        const Problem &p = r.problems().front();
        if (p.field.rfind("merges[", 0) == 0)
            return problemAt(path, "model." + p.field, p.rule, p.message);
        return problemAt(path, "model.vocab", p.rule, p.message);
    }
    return r;
}

}  // namespace

Result<BpeTokenizer> loadHfTokenizerJson(const std::string &path) { return loadHfImpl(path, {}); }

// --- one entry point ----------------------------------------------------------------------------

namespace {

Result<BpeTokenizer> loadGpt2Files(const QString &vocab, const QString &merges, const std::vector<std::string> &extra)
{
    std::vector<std::string> specials;
    // A vocab.json that cannot be read is reported by loadGpt2 below, under the same rule.
    const Result<FileBytes> vocabBytes = mapFileBytes(vocab.toStdString(), FileKind::Tokenizer);
    if (vocabBytes && vocabBytes->view().find("\"<|endoftext|>\"") != std::string_view::npos)
        specials.push_back(kEndOfText);
    for (const auto &s : extra)
        specials.push_back(s);
    return BpeTokenizer::loadGpt2(vocab.toStdString(), merges.toStdString(), specials);
}

}  // namespace

Result<BpeTokenizer> loadTokenizer(const std::string &path, const std::vector<std::string> &extraSpecialTokens)
{
    const QString p = QString::fromStdString(path);
    const QFileInfo info(p);
    if (!info.exists())
        return Result<BpeTokenizer>::failure(path, "missing", path + ": no such file or directory.");
    if (info.isDir()) {
        const QDir dir(p);
        if (dir.exists("tokenizer.json")) {
            auto r = loadHfImpl(dir.filePath("tokenizer.json").toStdString(), extraSpecialTokens);
            if (r.ok() || !(dir.exists("vocab.json") && dir.exists("merges.txt")))
                return r;
            // An unsupported tokenizer.json: GPT-2 files beside it may still load.
            auto g = loadGpt2Files(dir.filePath("vocab.json"), dir.filePath("merges.txt"), extraSpecialTokens);
            return g.ok() ? std::move(g) : std::move(r);
        }
        if (dir.exists("vocab.json") && dir.exists("merges.txt"))
            return loadGpt2Files(dir.filePath("vocab.json"), dir.filePath("merges.txt"), extraSpecialTokens);
        const QStringList tk = dir.entryList({"*.tiktoken"}, QDir::Files, QDir::Name);
        if (tk.size() == 1) {
            std::vector<std::string> specials{kEndOfText};
            specials.insert(specials.end(), extraSpecialTokens.begin(), extraSpecialTokens.end());
            return loadTiktoken(dir.filePath(tk.front()).toStdString(), specials);
        }
        return Result<BpeTokenizer>::failure(
            path, "no_tokenizer",
            path + ": the directory holds no tokenizer.json, no vocab.json + merges.txt and " +
                (tk.isEmpty() ? std::string("no *.tiktoken file.") : std::string("several *.tiktoken files (pick one).")));
    }
    // Only a regular file of a sensible size is read: /dev/urandom or a FIFO would never end.
    if (std::optional<Problem> problem = regularFileProblem(path, FileKind::Tokenizer))
        return Problems{*problem};
    const QString name = info.fileName();
    if (name.endsWith(".tiktoken", Qt::CaseInsensitive)) {
        std::vector<std::string> specials{kEndOfText};
        specials.insert(specials.end(), extraSpecialTokens.begin(), extraSpecialTokens.end());
        return loadTiktoken(path, specials);
    }
    if (name == "vocab.json" || name == "merges.txt") {
        const QDir dir = info.dir();
        if (!dir.exists("vocab.json") || !dir.exists("merges.txt"))
            return Result<BpeTokenizer>::failure(path, "missing",
                                                 path + ": GPT-2 files need both vocab.json and merges.txt in one folder.");
        return loadGpt2Files(dir.filePath("vocab.json"), dir.filePath("merges.txt"), extraSpecialTokens);
    }
    // Anything else: JSON when it starts with '{', otherwise a rank file.
    QFile f(p);
    if (!f.open(QIODevice::ReadOnly))
        return Result<BpeTokenizer>::failure(path, "unreadable", path + ": cannot open (" + f.errorString().toStdString() + ").");
    const QByteArray head = f.read(64).trimmed();
    f.close();
    if (head.startsWith('{') || name.endsWith(".json", Qt::CaseInsensitive))
        return loadHfImpl(path, extraSpecialTokens);
    std::vector<std::string> specials{kEndOfText};
    specials.insert(specials.end(), extraSpecialTokens.begin(), extraSpecialTokens.end());
    return loadTiktoken(path, specials);
}

}  // namespace lse
