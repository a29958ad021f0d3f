// Reading a submitted .zip or .tar.gz one entry at a time with libarchive, extracting nothing:
// the intake (intake.h) looks at each entry's name and kind and reads only the data it keeps.
// Only the zip and tar formats and the gzip filter are enabled, so nothing else in libarchive
// ever parses student bytes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

struct archive;

namespace gpulab {

enum class ArchiveFormat { zip, tar_gz };

// What an entry is. Links and special files are named so the intake can refuse them.
enum class EntryKind { file, directory, symlink, hardlink, special };

struct ArchiveEntry {
  std::string path;  // as stored in the archive, unchecked
  EntryKind kind = EntryKind::file;
  int64_t declared_size = -1;  // from the entry's header, where it has one; never trusted alone
};

// The archive cannot be read: corrupt, encrypted, not of its format. The message is libarchive's
// and fit for the student.
class ArchiveError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ArchiveReader {
 public:
  ArchiveReader(const std::filesystem::path& file, ArchiveFormat format);
  ~ArchiveReader();
  ArchiveReader(const ArchiveReader&) = delete;
  ArchiveReader& operator=(const ArchiveReader&) = delete;

  // The next entry's header; false at the end of the archive.
  bool next(ArchiveEntry& entry);
  // The current entry's data, decompressed as it is read and never more than `limit` + 1 bytes
  // of it (a header may understate what a zip bomb inflates to). False when it holds more than
  // `limit` bytes.
  bool read(size_t limit, std::string& data);

 private:
  struct archive* a_ = nullptr;
};

}  // namespace gpulab
