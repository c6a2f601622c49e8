// SPDX-License-Identifier: GPL-3.0-or-later
// Finds tokenizers in the user's Hugging Face hub cache, the layout huggingface_hub writes:
//   <hub>/models--ORG--NAME/snapshots/<revision>/{tokenizer.json | vocab.json + merges.txt | *.tiktoken}
//   <hub>/models--ORG--NAME/refs/main   (the revision "main" points at)
// <hub> is $HF_HUB_CACHE, else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else
// ~/.cache/huggingface/hub. Snapshot files are usually symbolic links into blobs/; a link whose
// blob is missing (an interrupted download) does not count.
#pragma once

#include <string>
#include <vector>

namespace lse {

struct HfCachedTokenizer {
    std::string name;      // repository id, "ORG/NAME" (or "NAME" for models without an organisation)
    std::string revision;  // snapshot folder name (a commit hash)
    std::string path;      // snapshot folder; pass to loadTokenizer()
    std::string format;    // "tokenizer.json", "vocab.json+merges.txt" or "tiktoken"
    bool isMain = false;   // refs/main names this revision
};

// The hub cache folder from the environment (it need not exist).
std::string hfHubCacheDir();

// Snapshots holding a tokenizer, sorted by name, then main revision first, then revision. An empty
// hubDir means hfHubCacheDir(). A missing or unreadable folder gives an empty list.
std::vector<HfCachedTokenizer> discoverHfTokenizers(const std::string &hubDir = {});

}  // namespace lse
