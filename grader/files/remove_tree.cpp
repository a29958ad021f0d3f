#include "files/remove_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include "text/safe_text.h"
#include "unique_fd.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

// A folder of the tree, opened as itself: never through a link.
constexpr int kFolderFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
// Times one folder is read before it is left as it is, when each time it was emptied something
// new was in it: a writer in another thread of gpulab (temporaries.h), which stops once the
// folder is gone.
constexpr int kReadsPerFolder = 3;
// What the log line shows of the first entry left: the end of its path, the part that tells.
constexpr size_t kShownPathBytes = 200;

// A folder on the way from the top down to the one being emptied: its name in its parent,
// which folder it is (so that it is known again from its child through ".."), its subfolders
// still to empty, the entries left behind before it was entered (more once it is emptied:
// something under it stayed, so it stays too), and how often it was read.
struct Folder {
  std::string name;
  dev_t device = 0;
  ino_t inode = 0;
  std::vector<std::string> subfolders;
  size_t left_before = 0;
  int reads = 0;
};

class TreeRemover {
 public:
  TreeRemover(int top_parent, std::string top_name)
      : top_parent_(top_parent), top_name_(std::move(top_name)) {}

  void remove() {
    enter(top_parent_, top_name_, 0);
    while (!path_.empty()) {
      Folder& folder = path_.back();
      if (folder.subfolders.empty()) {
        leave();
        continue;
      }
      const std::string name = std::move(folder.subfolders.back());
      folder.subfolders.pop_back();
      enter(current_.get(), name, 0);
    }
  }

  // "" when nothing was left; else the log line.
  std::string left_line(const fs::path& top) const {
    if (left_ == 0) return {};
    std::string line = "could not remove " +
                       (left_ == 1 ? std::string("1 entry") : std::to_string(left_) + " entries") +
                       " of " + safe_text(top.string()) + ", " + (left_ == 1 ? "" : "the first ");
    line += first_left_.empty() ? std::string("the folder itself")
                                : "'" + quote_tail(first_left_, kShownPathBytes) + "'";
    return line + ": " + first_why_;
  }

 private:
  // Makes `name` in `parent` the folder being emptied, and empties it of all but its
  // subfolders that hold something; removes it instead where it is no folder.
  void enter(int parent, const std::string& name, int reads) {
    struct stat st {};
    if (fstatat(parent, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno != ENOENT) left(name, errno);
      return;
    }
    if (!S_ISDIR(st.st_mode)) {
      unlink_entry(parent, name);
      return;
    }
    if (path_.empty() && reads == 0) device_ = st.st_dev;
    if (st.st_dev != device_) {
      left(name, "another file system is mounted there");
      return;
    }
    // A run under the grader's own user can take its folders' permissions away; their owner
    // can give them back. Where that fails, opening or emptying the folder says why (so the
    // result is not looked at, which a C library that marks it must-use is told).
    if ((st.st_mode & S_IRWXU) != S_IRWXU) {
      const int given_back =
          fchmodat(parent, name.c_str(), (st.st_mode & 07777) | S_IRWXU, AT_SYMLINK_NOFOLLOW);
      (void)given_back;
    }
    UniqueFd opened(openat(parent, name.c_str(), kFolderFlags));
    struct stat self {};
    if (!opened.valid() || fstat(opened.get(), &self) != 0) {
      if (errno != ENOENT) left(name, errno);
      return;
    }
    path_.push_back(Folder{name, self.st_dev, self.st_ino, {}, left_, reads + 1});
    current_ = std::move(opened);
    read_current();
  }

  // Removes the current folder's entries, but for subfolders that hold something: those are
  // kept to be entered.
  void read_current() {
    Folder& folder = path_.back();
    const int listing = dup(current_.get());
    DIR* dir = listing >= 0 ? fdopendir(listing) : nullptr;
    if (!dir) {
      if (listing >= 0) close(listing);
      left("", errno);
      return;
    }
    for (;;) {
      errno = 0;
      const dirent* entry = readdir(dir);
      if (!entry) {
        if (errno != 0) left("", errno);
        break;
      }
      const std::string name = entry->d_name;
      if (name == "." || name == "..") continue;
      if (entry->d_type != DT_DIR && entry->d_type != DT_UNKNOWN) {
        unlink_entry(current_.get(), name);
        continue;
      }
      if (unlinkat(current_.get(), name.c_str(), AT_REMOVEDIR) == 0 || errno == ENOENT) continue;
      if (errno == ENOTEMPTY || errno == EEXIST)
        folder.subfolders.push_back(name);
      else if (errno == ENOTDIR)  // DT_UNKNOWN, and no folder
        unlink_entry(current_.get(), name);
      else
        left(name, errno);
    }
    closedir(dir);
  }

  // The current folder is emptied: back to its parent, and removed there.
  void leave() {
    const Folder done = std::move(path_.back());
    path_.pop_back();
    UniqueFd parent;
    if (!path_.empty()) {
      parent = UniqueFd(openat(current_.get(), "..", kFolderFlags));
      struct stat st {};
      if (!parent.valid() || fstat(parent.get(), &st) != 0 || st.st_dev != path_.back().device ||
          st.st_ino != path_.back().inode) {
        // Moved while it was emptied: nothing a finished run leaves can do that. What is left
        // is left, rather than removed in a place that is not the tree's.
        left(done.name, "it was moved while it was being removed");
        path_.clear();
        return;
      }
    }
    current_.reset();
    const int parent_fd = path_.empty() ? top_parent_ : parent.get();
    current_ = std::move(parent);
    if (unlinkat(parent_fd, done.name.c_str(), AT_REMOVEDIR) == 0 || errno == ENOENT) return;
    const int error = errno;
    const bool stayed_under = left_ > done.left_before;
    if ((error == ENOTEMPTY || error == EEXIST) && !stayed_under && done.reads < kReadsPerFolder)
      enter(parent_fd, done.name, done.reads);  // something was added since it was read
    else if (!stayed_under)
      left(done.name, error);
  }

  void unlink_entry(int parent, const std::string& name) {
    if (unlinkat(parent, name.c_str(), 0) == 0 || errno == ENOENT) return;
    if (errno == EISDIR && !path_.empty() && parent == current_.get())  // a folder after all
      path_.back().subfolders.push_back(name);
    else
      left(name, errno);
  }

  void left(const std::string& name, int error) { left(name, std::string(std::strerror(error))); }

  // The entry `name` of the current folder ("": the folder itself) stays, for `why`.
  void left(const std::string& name, const std::string& why) {
    if (left_++ > 0) return;
    first_why_ = why;
    for (size_t i = 1; i < path_.size(); ++i) first_left_ += path_[i].name + "/";
    if (!path_.empty()) first_left_ += name;  // else `name` is the top, shown as "the folder"
    if (!first_left_.empty() && first_left_.back() == '/') first_left_.pop_back();
  }

  const int top_parent_;
  const std::string top_name_;
  std::vector<Folder> path_;  // from the top down to the folder being emptied
  UniqueFd current_;          // the folder being emptied, path_.back()
  dev_t device_ = 0;          // the top's file system
  size_t left_ = 0;           // entries that stay
  std::string first_left_, first_why_;
};

}  // namespace

std::string remove_tree(const fs::path& path) noexcept {
  try {
    const fs::path top = path.has_filename() ? path : path.parent_path();  // "runs/" is "runs"
    const std::string name = top.filename().string();
    if (name.empty() || name == "." || name == "..")
      return "gpulab removes no folder named as " + safe_text(path.string()) +
             ": name it by its own name";
    // The path up to the tree is gpulab's own (its work folder, a folder it was told to use).
    const fs::path parent = top.has_parent_path() ? top.parent_path() : fs::path(".");
    const UniqueFd parent_fd(open(parent.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!parent_fd.valid())
      return errno == ENOENT || errno == ENOTDIR
                 ? std::string()
                 : "could not remove " + safe_text(top.string()) + ": " + std::strerror(errno);
    TreeRemover remover(parent_fd.get(), name);
    remover.remove();
    return remover.left_line(top);
  } catch (...) {  // out of memory: the tree's names did not fit
    return "could not remove " + safe_text(path.string()) + ": out of memory";
  }
}

void remove_tree_or_throw(const fs::path& path) {
  if (std::string left = remove_tree(path); !left.empty()) throw std::runtime_error(left);
}

}  // namespace gpulab
