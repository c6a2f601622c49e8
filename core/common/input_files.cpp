// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/input_files.h"

#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

#include <sys/stat.h>

namespace lse {

namespace {

struct Entry {
    unsigned long long id;  // 0: remembered for the rest of the process
    dev_t device;
    ino_t inode;
    RegisteredInput input;
};

struct Registry {
    std::mutex mutex;
    std::vector<Entry> entries;
    unsigned long long next_id = 1;
};

Registry &registry()
{
    static Registry instance;
    return instance;
}

std::atomic<bool> g_every_read_is_an_input{false};

void add(unsigned long long id, const struct stat &st, const std::string &path, std::string description)
{
    Registry &r = registry();
    const std::lock_guard lock(r.mutex);
    for (const Entry &e : r.entries)
        if (e.id == 0 && id == 0 && e.device == st.st_dev && e.inode == st.st_ino)
            return;  // already remembered for good
    r.entries.push_back(Entry{id, st.st_dev, st.st_ino, RegisteredInput{path, std::move(description)}});
}

}  // namespace

InputFileRegistration::InputFileRegistration(const std::string &path, std::string description)
{
    struct stat st {};
    if (path.empty() || ::stat(path.c_str(), &st) != 0)
        return;
    {
        Registry &r = registry();
        const std::lock_guard lock(r.mutex);
        id_ = r.next_id++;
    }
    add(id_, st, path, std::move(description));
}

InputFileRegistration::InputFileRegistration(InputFileRegistration &&other) noexcept : id_(std::exchange(other.id_, 0)) {}

InputFileRegistration &InputFileRegistration::operator=(InputFileRegistration &&other) noexcept
{
    if (this != &other) {
        release();
        id_ = std::exchange(other.id_, 0);
    }
    return *this;
}

InputFileRegistration::~InputFileRegistration() { release(); }

void InputFileRegistration::release()
{
    if (id_ == 0)
        return;
    Registry &r = registry();
    const std::lock_guard lock(r.mutex);
    std::erase_if(r.entries, [this](const Entry &e) { return e.id == id_; });
    id_ = 0;
}

void setEveryFileReadIsAnInput(bool on) { g_every_read_is_an_input.store(on); }

bool everyFileReadIsAnInput() { return g_every_read_is_an_input.load(); }

void noteInputFileOpened(int fd, const std::string &path)
{
    if (!everyFileReadIsAnInput())
        return;
    struct stat st {};
    // Only regular files can be replaced by a rename; a device or FIFO read as input is refused by
    // the writer's own rule for non-regular targets.
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        add(0, st, path, "an input of this run");
}

std::optional<RegisteredInput> registeredInputAt(const std::string &path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return std::nullopt;
    Registry &r = registry();
    const std::lock_guard lock(r.mutex);
    // The most specific description wins: a registration names the role ("the lesson shown").
    // An entry counts only while its own path still names that file: once the file read is
    // deleted, the system may give its inode number to a new file (an output), which is no input.
    const Entry *found = nullptr;
    for (const Entry &e : r.entries) {
        if (e.device != st.st_dev || e.inode != st.st_ino || (found && found->id != 0))
            continue;
        struct stat still {};
        if (::stat(e.input.path.c_str(), &still) == 0 && still.st_dev == e.device && still.st_ino == e.inode)
            found = &e;
    }
    return found ? std::optional<RegisteredInput>(found->input) : std::nullopt;
}

}  // namespace lse
