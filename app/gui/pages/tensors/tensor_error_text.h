// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <string>

namespace lse::gui {

// Why a tensor op is impossible (core/tensors writes it in English: "view(6, 4): view size is not
// compatible … dimension 0 (size 3, stride 4) cannot be merged with …") in the user's language.
// Each of the core's message forms has a translated template with the same numbers; a message of
// an unknown form is shown as it is (test_tensor_views_section checks every form the ops produce).
QString tensorErrorText(const std::string &error);
// True when `error` is of a form tensorErrorText() translates.
bool isKnownTensorError(const std::string &error);

}  // namespace lse::gui
