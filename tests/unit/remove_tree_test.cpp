// grader/files/remove_tree.h: what a run can leave in a folder the grader then removes: a tree
// deeper than PATH_MAX and than the open-file limit, folders closed to their owner, every kind of
// entry, links out of the tree and in loops, names of any bytes, a link in place of the folder.
// Each time the tree is gone, and what is outside it untouched.
#include "files/remove_tree.h"

#include <dirent.h>
#include <doctest/doctest.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/un.h>

#include <cstring>

#include "hostile_tree.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using gpulab::remove_tree;
using test::entry_exists;
using test::FolderFd;

// A folder outside the tree, which the tree's links name: nothing in it may change.
struct Outside {
  fs::path dir;
  explicit Outside(const fs::path& at) : dir(at) {
    test::write_file(dir / "keep.txt", "the grader's file");
    test::write_file(dir / "sub" / "deep.txt", "and another");
  }
};

// The names a run can give: any bytes but '/' and NUL.
const std::vector<std::string> kHostileNames = {
    "line\nbreak", "\xff\xfe not UTF-8", "\x1b[31mred", "-rf", " leading space", "*", "..."};

// Every kind of entry a run can leave, in `dir`; its links lead to `outside`.
void fill_hostile(int dir, const Outside& outside) {
  test::make_file_at(dir, "file", "bytes");
  REQUIRE(mkfifoat(dir, "fifo", 0600) == 0);
  test::make_node_at(dir, "socket-node", S_IFSOCK);
  REQUIRE(linkat(AT_FDCWD, (outside.dir / "keep.txt").c_str(), dir, "hard-link", 0) == 0);
  REQUIRE(symlinkat(outside.dir.c_str(), dir, "link-to-outside") == 0);
  REQUIRE(symlinkat((outside.dir / "keep.txt").c_str(), dir, "link-to-file") == 0);
  REQUIRE(symlinkat("..", dir, "link-to-parent") == 0);
  REQUIRE(symlinkat("loop-b", dir, "loop-a") == 0);
  REQUIRE(symlinkat("loop-a", dir, "loop-b") == 0);
  REQUIRE(symlinkat("self", dir, "self") == 0);
  REQUIRE(symlinkat("nowhere", dir, "dangling") == 0);
  for (const auto& name : kHostileNames) {
    test::make_file_at(dir, name, name);
    test::make_folder_at(dir, name + " folder");
  }
  test::make_file_at(dir, std::string(255, 'n'), "the longest name");
  if (geteuid() == 0)  // only root makes device nodes; a run as root's sandbox user cannot
    REQUIRE(mknodat(dir, "device", S_IFCHR | 0600, makedev(1, 3)) == 0);
}

}  // namespace

TEST_CASE("remove_tree removes a chain of 20 000 folders, its path far past PATH_MAX") {
  test::TempDir tmp(test::memory_temp_dir());
  constexpr int kDepth = 20000;  // "d/" each: 40 000 bytes of path, PATH_MAX is 4096
  test::make_chain(tmp / "run", kDepth);
  CHECK(remove_tree(tmp / "run") == "");
  CHECK_FALSE(entry_exists(tmp / "run"));
}

TEST_CASE("remove_tree holds a few descriptors, whatever the depth: past the open-file limit") {
  test::TempDir tmp(test::memory_temp_dir());
  constexpr int kDepth = 300;
  test::make_chain(tmp / "run", kDepth, 2);
  std::string left;
  {
    const test::LowOpenFileLimit low(5);
    REQUIRE(low.limit() < static_cast<rlim_t>(kDepth));
    left = remove_tree(tmp / "run");
  }
  CHECK(left == "");
  CHECK_FALSE(entry_exists(tmp / "run"));
}

TEST_CASE("remove_tree opens again, as their owner, the folders a run closed (chmod 000)") {
  test::TempDir tmp(test::memory_temp_dir());
  const fs::path top = tmp / "run";
  // Made and removed by the folders' owner, who has no privileges: root enters any folder.
  const int status = test::as_unprivileged(tmp.path(), [&] {
    test::make_chain(top, 3, 2);
    test::make_file_at(FolderFd(top).get(), "closed-empty", "");
    REQUIRE(mkdir((top / "closed-empty-folder").c_str(), 0) == 0);
    REQUIRE(mkdir((top / "write-only").c_str(), 0700) == 0);
    test::write_file(top / "write-only" / "x", "x");
    REQUIRE(chmod((top / "write-only").c_str(), 0200) == 0);
    for (const fs::path& closed : {top / "d" / "d" / "d", top / "d" / "d", top / "d", top})
      REQUIRE(chmod(closed.c_str(), 0) == 0);
    const std::string left = remove_tree(top);
    if (!left.empty()) fprintf(stderr, "%s\n", left.c_str());
    return left.empty() && !entry_exists(top) ? 0 : 1;
  });
  CHECK(status == 0);
  CHECK_FALSE(entry_exists(top));
}

TEST_CASE("remove_tree unlinks FIFOs, sockets, devices and links, and follows no link") {
  test::TempDir tmp(test::memory_temp_dir());
  const Outside outside(tmp / "outside");
  const std::string outside_before = test::fingerprint(outside.dir);
  const fs::path top = tmp / "run";
  fs::create_directories(top);
  {
    const FolderFd dir(top);
    fill_hostile(dir.get(), outside);
    fill_hostile(test::make_folder_at(dir.get(), "nested").get(), outside);
    // A socket a program bound, as a run's would be.
    const int s = socket(AF_UNIX, SOCK_STREAM, 0);
    REQUIRE(s >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string path = (top / "bound.sock").string();
    REQUIRE(path.size() < sizeof address.sun_path);
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    REQUIRE(bind(s, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
    close(s);
  }
  CHECK(remove_tree(top) == "");
  CHECK_FALSE(entry_exists(top));
  CHECK(test::fingerprint(outside.dir) == outside_before);
  struct stat kept {};
  REQUIRE(stat((outside.dir / "keep.txt").c_str(), &kept) == 0);
  CHECK(kept.st_nlink == 1);  // the hard links went, the file stayed
}

TEST_CASE("remove_tree on a link in place of the folder removes the link, not its target") {
  test::TempDir tmp(test::memory_temp_dir());
  const Outside outside(tmp / "outside");
  const std::string outside_before = test::fingerprint(outside.dir);
  for (const std::string named_as : {"out", "out/"}) {
    CAPTURE(named_as);
    fs::create_directory_symlink(outside.dir, tmp / "out");
    CHECK(remove_tree(tmp / named_as) == "");
    CHECK_FALSE(entry_exists(tmp / "out"));
    CHECK(test::fingerprint(outside.dir) == outside_before);
  }
}

TEST_CASE("remove_tree removes a wide folder and its many subfolders") {
  test::TempDir tmp(test::memory_temp_dir());
  const fs::path top = tmp / "run";
  fs::create_directories(top);
  {
    const FolderFd dir(top);
    for (int i = 0; i < 20000; ++i) test::make_file_at(dir.get(), std::to_string(i), "");
    for (int i = 0; i < 500; ++i) {
      const FolderFd sub = test::make_folder_at(dir.get(), "sub" + std::to_string(i));
      for (int j = 0; j < 3; ++j) test::make_file_at(sub.get(), std::to_string(j), "x");
    }
  }
  CHECK(remove_tree(top) == "");
  CHECK_FALSE(entry_exists(top));
}

TEST_CASE("remove_tree: a missing path is no problem; what stays is said, and the rest goes") {
  test::TempDir tmp(test::memory_temp_dir());
  CHECK(remove_tree(tmp / "never-made") == "");
  CHECK(remove_tree(tmp / "no-folder" / "under") == "");
  // Named by "." or "..": refused. Inside the test's own folder, so that a remover that took
  // them would remove nothing but that.
  test::make_chain(tmp / "kept", 1);
  CHECK(test::contains(remove_tree(tmp / "kept" / "."), "removes no folder named as"));
  CHECK(test::contains(remove_tree(tmp / "kept" / "d" / ".."), "removes no folder named as"));
  CHECK(entry_exists(tmp / "kept" / "d" / "bottom"));
  if (geteuid() != 0) {
    MESSAGE("not root: no entry can be made that its owner cannot remove");
    return;
  }
  // A folder of root's in the tree of a user without privileges, which that user can list but
  // not empty.
  const fs::path top = tmp / "run";
  test::make_chain(top, 2, 3);
  test::write_file(top / "root's" / "stays", "");
  fs::permissions(top / "root's",
                  fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec);
  for (const fs::path& p : {top, top / "d", top / "d" / "d"})
    REQUIRE(chown(p.c_str(), 65534, 65534) == 0);
  const int status = test::as_unprivileged(tmp.path(), [&] {
    const std::string left = remove_tree(top);
    if (!test::contains(left, "could not remove 1 entry of " + top.string() +
                                  ", 'root's/stays': Permission denied"))
      return 1;
    try {
      gpulab::remove_tree_or_throw(top);
      return 2;
    } catch (const std::runtime_error& e) {
      return e.what() == left ? 0 : 3;
    }
  });
  CHECK(status == 0);
  CHECK(entry_exists(top / "root's" / "stays"));
  CHECK_FALSE(entry_exists(top / "d"));  // the rest went
}
