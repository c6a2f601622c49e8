// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenizer_binding.h"

#include "tokenizer/tokenizer_formats.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace py = pybind11;

namespace lse::python {

namespace {

// One loaded tokenizer and the special tokens given at load, which encode() splits out by default
// (as `llm-explorer-cli tokenize --special TOK` does).
struct Tokenizer {
    BpeTokenizer bpe;
    std::vector<std::string> special;

    std::vector<std::uint32_t> encode(const std::string &text, const std::optional<std::vector<std::string>> &allowed)
    {
        const std::vector<std::string> &use = allowed ? *allowed : special;
        checkAllowed(use);
        py::gil_scoped_release release;
        return bpe.encode(text, use);
    }

    // Documents split over `threads` threads (0: every core), each with its own copy of the
    // tokenizer (BpeTokenizer is not thread-safe; copies share the model), without the GIL.
    std::vector<std::vector<std::uint32_t>> encodeBatch(const std::vector<std::string> &texts,
                                                        const std::optional<std::vector<std::string>> &allowed,
                                                        int threads)
    {
        const std::vector<std::string> &use = allowed ? *allowed : special;
        checkAllowed(use);
        if (threads < 0)
            throw py::value_error("encode_batch: threads must be 0 (every core) or more, got " + std::to_string(threads));
        std::vector<std::vector<std::uint32_t>> out(texts.size());
        py::gil_scoped_release release;
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const std::size_t workers = std::min<std::size_t>(texts.size(), threads == 0 ? cores : unsigned(threads));
        if (workers <= 1) {
            for (std::size_t i = 0; i < texts.size(); ++i)
                bpe.encodeInto(texts[i], use, out[i]);
            return out;
        }
        std::vector<std::thread> pool;
        for (std::size_t w = 0; w < workers; ++w)
            pool.emplace_back([&, w, copy = bpe]() mutable {
                for (std::size_t i = w; i < texts.size(); i += workers)
                    copy.encodeInto(texts[i], use, out[i]);
            });
        for (std::thread &thread : pool)
            thread.join();
        return out;
    }

    void checkAllowed(const std::vector<std::string> &allowed) const
    {
        const std::vector<std::string> &known = bpe.specialTokens();
        for (const std::string &token : allowed)
            if (std::find(known.begin(), known.end(), token) == known.end())
                throw py::value_error("allowed_special: '" + token
                                      + "' is not a special token of this tokenizer (give it to from_files(special=...))");
    }

    std::string decode(const std::vector<std::uint32_t> &ids) const
    {
        for (std::uint32_t id : ids)
            if (id >= bpe.vocabSize())
                throw py::value_error("decode: id " + std::to_string(id) + " is outside the vocabulary of "
                                      + std::to_string(bpe.vocabSize()) + " tokens");
        return bpe.decode(ids);
    }
};

}  // namespace

void bindTokenizer(py::module_ &module)
{
    py::class_<Tokenizer>(module, "Tokenizer", "The project's byte-level BPE tokenizer (GPT-2 style).")
        .def_property_readonly("vocab_size", [](const Tokenizer &t) { return t.bpe.vocabSize(); })
        .def_property_readonly("special_tokens", [](const Tokenizer &t) {
            py::list out;
            for (const std::string &token : t.bpe.specialTokens())
                out.append(utf8Text(token));
            return out;
        })
        .def("encode", &Tokenizer::encode, py::arg("text"), py::arg("allowed_special") = py::none())
        .def("encode_batch", &Tokenizer::encodeBatch, py::arg("texts"), py::arg("allowed_special") = py::none(),
             py::arg("threads") = 0)
        .def("decode", &Tokenizer::decode, py::arg("ids"))
        .def("token_bytes", [](const Tokenizer &t, std::uint32_t id) {
            if (id >= t.bpe.vocabSize())
                throw py::value_error("token_bytes: id " + std::to_string(id) + " is outside the vocabulary");
            const std::string_view bytes = t.bpe.tokenBytes(id);
            return py::bytes(bytes.data(), bytes.size());
        }, py::arg("id"));
    // (tokenizer or None, [(field, rule, message), ...]): the Python side raises ProblemError.
    module.def("load_tokenizer", [](const std::string &path, const std::vector<std::string> &special) {
        Result<BpeTokenizer> loaded = [&] {
            py::gil_scoped_release release;
            return loadTokenizer(path, special);
        }();
        if (!loaded)
            return py::make_tuple(py::none(), problemTuples(loaded.problems()));
        return py::make_tuple(py::cast(Tokenizer{std::move(loaded.value()), special}), py::list());
    }, py::arg("path"), py::arg("special"));
}

}  // namespace lse::python
