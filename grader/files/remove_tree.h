// Removing a folder that student code could have written: a run's output folder, a build's
// folder, the grading's work folder that holds them. Whatever a run left there is removed as
// plain entries, never read and never followed: a symbolic link is removed, not what it names
// (a link in place of the folder itself too); a folder the run closed (chmod 000) is opened
// again by its owner first; FIFOs, sockets, device nodes and hard links are unlinked like files;
// names are bytes, whatever they hold. The walk is a loop, not a recursion, and holds a few
// descriptors whatever the depth (down with openat, back up through "..", checked against the
// folder it came from), so a tree deeper than the open-file limit or than PATH_MAX is removed
// like any other, in time and memory that grow with the tree alone. It stays on the folder's
// file system: another one mounted inside is left, and said so.
#pragma once

#include <filesystem>
#include <string>

namespace gpulab {

// Removes `path` and everything under it; a missing path is no problem. Never throws. Returns
// "" when nothing is left, else one line for a log that says what is left and why:
// "could not remove 2 entries of /tmp/gpulab-x/runs: the first, a/b: Permission denied".
std::string remove_tree(const std::filesystem::path& path) noexcept;

// remove_tree(path) for a folder that is made again in its place and must hold nothing of
// before (an earlier run's outputs would be read as the new run's): throws std::runtime_error
// with remove_tree's line where anything stays.
void remove_tree_or_throw(const std::filesystem::path& path);

}  // namespace gpulab
