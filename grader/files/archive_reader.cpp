#include "files/archive_reader.h"

#include <archive.h>
#include <archive_entry.h>

namespace gpulab {

namespace {

std::string error_of(struct archive* a) {
  const char* e = archive_error_string(a);
  return e ? e : "unknown error";
}

EntryKind kind_of(struct archive_entry* e) {
  // A tar hard link has a target and often the type of a regular file: look at the target first.
  if (archive_entry_hardlink(e)) return EntryKind::hardlink;
  switch (archive_entry_filetype(e)) {
    case AE_IFREG:
      return EntryKind::file;
    case AE_IFDIR:
      return EntryKind::directory;
    case AE_IFLNK:
      return EntryKind::symlink;
    default:
      return EntryKind::special;
  }
}

}  // namespace

ArchiveReader::ArchiveReader(const std::filesystem::path& file, ArchiveFormat format)
    : a_(archive_read_new()) {
  if (!a_) throw std::runtime_error("libarchive could not allocate a reader");
  if (format == ArchiveFormat::zip) {
    archive_read_support_format_zip(a_);
  } else {
    archive_read_support_filter_gzip(a_);
    archive_read_support_format_tar(a_);
  }
  if (archive_read_open_filename(a_, file.c_str(), 64 * 1024) != ARCHIVE_OK) {
    const std::string why = error_of(a_);
    archive_read_free(a_);
    a_ = nullptr;
    throw ArchiveError(why);
  }
}

ArchiveReader::~ArchiveReader() {
  if (a_) archive_read_free(a_);
}

bool ArchiveReader::next(ArchiveEntry& entry) {
  struct archive_entry* e = nullptr;
  const int r = archive_read_next_header(a_, &e);
  if (r == ARCHIVE_EOF) return false;
  if (r != ARCHIVE_OK && r != ARCHIVE_WARN) throw ArchiveError(error_of(a_));
  const char* name = archive_entry_pathname(e);
  if (!name) name = archive_entry_pathname_utf8(e);
  if (!name) throw ArchiveError("an entry's name cannot be read");
  entry.path = name;
  entry.kind = kind_of(e);
  entry.declared_size = archive_entry_size_is_set(e) ? archive_entry_size(e) : -1;
  return true;
}

bool ArchiveReader::read(size_t limit, std::string& data) {
  data.clear();
  char buf[64 * 1024];
  for (;;) {
    const la_ssize_t n = archive_read_data(a_, buf, sizeof buf);
    if (n < 0) throw ArchiveError(error_of(a_));
    if (n == 0) return true;
    data.append(buf, static_cast<size_t>(n));
    if (data.size() > limit) return false;
  }
}

}  // namespace gpulab
