// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <pybind11/pybind11.h>

#include <string_view>

namespace lse::python {

// A Python str of UTF-8 text whose bytes may not all be UTF-8 (a problem quoting a broken file):
// the invalid bytes become U+FFFD instead of raising UnicodeDecodeError.
inline pybind11::str utf8Text(std::string_view text)
{
    return pybind11::reinterpret_steal<pybind11::str>(
        PyUnicode_DecodeUTF8(text.data(), Py_ssize_t(text.size()), "replace"));
}

// [(field, rule, message), ...] of a problem list.
template <typename Problems>
pybind11::list problemTuples(const Problems &problems)
{
    pybind11::list out;
    for (const auto &problem : problems)
        out.append(pybind11::make_tuple(utf8Text(problem.field), utf8Text(problem.rule), utf8Text(problem.message)));
    return out;
}

// llm_explorer._engine.Tokenizer: a loaded BPE tokenizer (tokenizer_formats.h: vocab.json +
// merges.txt, a Hugging Face tokenizer.json or a .tiktoken file).
void bindTokenizer(pybind11::module_ &module);

}  // namespace lse::python
