// SPDX-License-Identifier: GPL-3.0-or-later
// The files a program is reading from, so that its writer (FileWriter) never replaces one: an
// output named like an input (`--scenario s.json --screenshot s.json`, `--lesson l.json --handout
// l.json`) would otherwise destroy the input the run depends on.
//
// Two ways in, one registry:
// - a program whose every read is an input of its one run (the CLI) turns on
//   `everyFileReadIsAnInput`: each file a loader opens (readFileBytes, mapFileBytes, the streamed
//   text and token readers) is remembered for the rest of the process, by device and inode, so
//   "the files actually read" are the inputs — a tokenizer folder's ids.bin is not one;
// - a long-lived program (the GUI) holds an InputFileRegistration for as long as a file is live:
//   the open scenario, the lesson being shown, the training text in use. A file it read once and
//   let go of can be written again.
#pragma once

#include <optional>
#include <string>

namespace lse {

// What the registry knows of an input: the path it was read under and what it is ("the scenario",
// "--tokenizer").
struct RegisteredInput {
    std::string path;
    std::string description;
};

// Keeps `path` registered as an input until destroyed. Movable; a default-constructed one holds
// nothing. A path that does not exist registers nothing (there is no file to protect).
class InputFileRegistration {
public:
    InputFileRegistration() = default;
    InputFileRegistration(const std::string &path, std::string description);
    InputFileRegistration(InputFileRegistration &&other) noexcept;
    InputFileRegistration &operator=(InputFileRegistration &&other) noexcept;
    InputFileRegistration(const InputFileRegistration &) = delete;
    InputFileRegistration &operator=(const InputFileRegistration &) = delete;
    ~InputFileRegistration();

    bool holds() const { return id_ != 0; }

private:
    void release();
    unsigned long long id_ = 0;
};

// The CLI's rule: every file opened for reading from now on is an input until the process ends.
void setEveryFileReadIsAnInput(bool on);
bool everyFileReadIsAnInput();

// Called by the loaders with the descriptor they read from (so the file checked is the file read);
// registers it for good when everyFileReadIsAnInput() is on, does nothing otherwise.
void noteInputFileOpened(int fd, const std::string &path);

// The registered input that is the same file as `path` (same device and inode, so through links
// too), or nothing.
std::optional<RegisteredInput> registeredInputAt(const std::string &path);

}  // namespace lse
