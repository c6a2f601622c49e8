// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <pybind11/pybind11.h>

namespace lse::python {

// llm_explorer._engine.Tokenizer: a loaded BPE tokenizer (tokenizer_formats.h: vocab.json +
// merges.txt, a Hugging Face tokenizer.json or a .tiktoken file).
void bindTokenizer(pybind11::module_ &module);

}  // namespace lse::python
