// SPDX-License-Identifier: GPL-3.0-or-later
// Writing output files so that a final name only ever holds a complete file: the bytes go to a
// temporary file beside it, every write() is checked (a full disk or a file-size limit shows up
// there, or at fsync/close on file systems that allocate late), and only then is the temporary
// renamed over the final name. Any failure leaves the old file as it was and reports the system's
// error text. QSaveFile is not used: on Qt 6.4 a write that fails while its buffer is flushed at
// commit() is not remembered, so commit() went on to rename a short file into place.
//
// Every file the programs produce goes through this writer, under one set of rules:
// - the target is a regular file or a new name: a rename over /dev/null, a FIFO or a socket would
//   replace the system's file with ours (rule "not_a_file");
// - the target is not one of the program's inputs (common/input_files.h; rule "same_file"), unless
//   the writer is told the file is its own to rewrite (a cache, the document being saved);
// - the temporary ("<target>.llm-explorer-partial-XXXXXX") is locked while written, removed on
//   failure, on destruction and on SIGINT/SIGTERM (common/interrupt_cleanup.h); temporaries a killed
//   run left in the folder are reported (common/stale_temporaries.h).
#pragma once

#include "common/problem.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lse {

// Whether a write may replace a file registered as one of the program's inputs: only for a file
// the program rewrites as its own (a cache it read, the document saved over itself).
enum class InputReplacement { Refused, AllowedForOwnFile };

class FileWriter {
public:
    // SyncToDisk: fsync before the rename (and the folder after), so that a power cut cannot leave a
    // renamed but empty file. Derived data that a rerun recreates may skip it (NoSync) for speed.
    enum class Durability { SyncToDisk, NoSync };

    explicit FileWriter(std::string path, Durability durability = Durability::SyncToDisk);
    FileWriter(const FileWriter &) = delete;
    FileWriter &operator=(const FileWriter &) = delete;
    ~FileWriter();  // removes the temporary file unless it was renamed into place

    // `path` may be replaced even though it is registered as an input: the writer's own file
    // (a cache it read before, the scenario document being saved over itself).
    void allowReplacingInput() { may_replace_input_ = true; }

    bool open();                                  // creates the temporary file beside the path
    bool write(const void *data, std::size_t size);  // all of it, or false
    bool finish();   // flushes (fsync), gives the usual permissions and closes; the file is complete
    bool replace();  // renames the finished temporary over the path (finishing it first if needed)
    void cancel();   // removes the temporary file; the path is untouched

    const std::string &path() const { return path_; }
    const std::string &targetPath() const { return target_; }  // path, or the file a link at path names
    const std::string &temporaryPath() const { return temp_path_; }
    // "cannot write 'out.json' (No space left on device)": what failed, with the system's text.
    const std::string &error() const { return error_; }
    const std::string &systemError() const { return system_error_; }  // "No space left on device"
    // The error as a problem {field: path, rule}: rule "unwritable" ("out.json: cannot write (File
    // too large)."), "not_a_file" or "same_file".
    Problem problem() const;

private:
    bool fail(const char *what, int error);
    bool refuse(std::string rule, std::string message);
    bool targetIsWritable();

    std::string path_;
    std::string target_;
    std::string temp_path_;
    Durability durability_;
    int fd_ = -1;
    int cleanup_slot_ = -1;
    bool may_replace_input_ = false;
    bool finished_ = false;
    bool replaced_ = false;
    std::string rule_ = "unwritable";
    std::string failed_action_;  // "cannot write"
    std::string system_error_;   // strerror's text
    std::string error_;
};

// One file written whole through FileWriter; a problem {field: path, rule} on failure.
Result<bool> writeFileReplacing(const std::string &path, std::string_view bytes,
                                InputReplacement replacement = InputReplacement::Refused);

// Why `path` cannot be an output, without writing anything: not a regular file, or one of the
// program's inputs; nothing when it can. For checks before long work (a training run's
// --checkpoint-dir, an Export All folder's files); the writer checks again when it opens.
std::optional<Problem> outputPathProblem(const std::string &path);

// Several files that belong together (vocab.json + merges.txt): every one is written and flushed
// to a temporary first; only when all are complete are they renamed into place, and if one rename
// fails the ones already renamed are put back, so the set is all new or all old.
Result<bool> writeFilesTogether(const std::vector<std::pair<std::string, std::string_view>> &files);

}  // namespace lse
