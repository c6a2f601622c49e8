// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenizer_binding.h"

#include "tokenizer/tokenizer_formats.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
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
    // The copies encode_batch's other threads use (BpeTokenizer is not thread-safe; copies share
    // the model). Kept between calls so that their pre-token caches stay warm, as bpe's does: made
    // afresh per call they started every batch cold, and a notebook that encodes batch after batch
    // ran 2 threads at 1.0-1.2x one (issue 35).
    std::vector<BpeTokenizer> workerCopies;
    // One call at a time on this object: encode releases the GIL, and two Python threads encoding
    // with the same tokenizer would otherwise write its caches at once.
    std::unique_ptr<std::mutex> busy = std::make_unique<std::mutex>();

    // A Python int for every id, made once (with the GIL): a list of ids then takes a reference
    // to each instead of allocating an int per id. Allocating them took most of encode_batch's
    // time once the encoding ran on two threads (1.5M ids for 4.2 MB: ~40 ms, under the GIL).
    std::vector<py::object> idObjects;

    py::list idList(const std::vector<std::uint32_t> &ids)
    {
        if (idObjects.empty()) {
            idObjects.reserve(bpe.vocabSize());
            for (std::size_t id = 0; id < bpe.vocabSize(); ++id)
                idObjects.push_back(py::reinterpret_steal<py::object>(PyLong_FromSize_t(id)));
        }
        py::list list(ids.size());
        for (std::size_t k = 0; k < ids.size(); ++k)
            PyList_SET_ITEM(list.ptr(), Py_ssize_t(k), idObjects[ids[k]].inc_ref().ptr());
        return list;
    }

    py::list encode(const std::string &text, const std::optional<std::vector<std::string>> &allowed)
    {
        const std::vector<std::string> &use = allowed ? *allowed : special;
        checkAllowed(use);
        std::vector<std::uint32_t> ids;
        {
            py::gil_scoped_release release;
            const std::lock_guard<std::mutex> lock(*busy);
            ids = bpe.encode(text, use);
        }
        return idList(ids);
    }

    // Documents split over `threads` threads (0: every core), without the GIL: this thread with
    // bpe, the others with workerCopies.
    py::list encodeBatch(const py::object &documents, const std::optional<std::vector<std::string>> &allowed,
                         int threads)
    {
        const std::vector<std::string> &use = allowed ? *allowed : special;
        checkAllowed(use);
        if (threads < 0)
            throw py::value_error("encode_batch: threads must be 0 (every core) or more, got " + std::to_string(threads));
        // The documents' UTF-8 bytes are read where Python keeps them (a str caches its UTF-8 form;
        // an ASCII str is its own), not copied into strings first: the items are held until the
        // encoding ends.
        if (py::isinstance<py::str>(documents) || py::isinstance<py::bytes>(documents) || !py::isinstance<py::sequence>(documents))
            throw py::type_error("encode_batch: texts must be a sequence of str (or bytes), got " +
                                 std::string(py::str(py::type::of(documents).attr("__name__"))));
        const auto sequence = py::reinterpret_borrow<py::sequence>(documents);
        std::vector<py::object> items;
        std::vector<std::string_view> texts;
        items.reserve(sequence.size());
        texts.reserve(sequence.size());
        for (std::size_t i = 0; i < sequence.size(); ++i) {
            items.push_back(sequence[i]);
            PyObject *item = items.back().ptr();
            Py_ssize_t length = 0;
            if (PyUnicode_Check(item)) {
                const char *utf8 = PyUnicode_AsUTF8AndSize(item, &length);
                if (!utf8)
                    throw py::error_already_set();  // a lone surrogate: UnicodeEncodeError
                texts.emplace_back(utf8, std::size_t(length));
            } else if (PyBytes_Check(item)) {
                char *bytes = nullptr;
                if (PyBytes_AsStringAndSize(item, &bytes, &length) != 0)
                    throw py::error_already_set();
                texts.emplace_back(bytes, std::size_t(length));
            } else {
                throw py::type_error("encode_batch: texts[" + std::to_string(i) + "] is a " +
                                     std::string(py::str(py::type::of(items.back()).attr("__name__"))) + ", not a str");
            }
        }
        const std::vector<std::vector<std::uint32_t>> out = [&] {
            py::gil_scoped_release release;
            return encodeWithoutTheGil(texts, use, threads);
        }();
        py::list lists(out.size());
        for (std::size_t i = 0; i < out.size(); ++i)
            PyList_SET_ITEM(lists.ptr(), Py_ssize_t(i), idList(out[i]).release().ptr());
        return lists;
    }

    std::vector<std::vector<std::uint32_t>> encodeWithoutTheGil(const std::vector<std::string_view> &texts,
                                                                const std::vector<std::string> &use, int threads)
    {
        std::vector<std::vector<std::uint32_t>> out(texts.size());
        const std::lock_guard<std::mutex> lock(*busy);
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const std::size_t workers = std::min<std::size_t>(texts.size(), threads == 0 ? cores : unsigned(threads));
        const auto encodeShare = [&](BpeTokenizer &tokenizer, std::size_t first) {
            for (std::size_t i = first; i < texts.size(); i += std::max<std::size_t>(workers, 1))
                tokenizer.encodeInto(texts[i], use, out[i]);
        };
        if (workers <= 1) {
            encodeShare(bpe, 0);
            return out;
        }
        while (workerCopies.size() + 1 < workers)
            workerCopies.push_back(bpe);
        std::vector<std::thread> pool;
        for (std::size_t w = 1; w < workers; ++w)
            pool.emplace_back([&, w] { encodeShare(workerCopies[w - 1], w); });
        encodeShare(bpe, 0);
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
