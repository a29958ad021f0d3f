#include "hostile_archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "files/archive_name.h"

namespace test {

namespace {

struct WriterFree {
  void operator()(archive* a) const { archive_write_free(a); }
};
struct EntryFree {
  void operator()(archive_entry* e) const { archive_entry_free(e); }
};

void check(archive* a, int status, const std::string& what) {
  if (status < ARCHIVE_WARN)
    throw std::runtime_error(what + ": " +
                             (archive_error_string(a) ? archive_error_string(a) : "failed"));
}

void write_data(archive* a, const char* data, size_t n, const std::string& path) {
  if (n > 0 && archive_write_data(a, data, n) < 0) check(a, ARCHIVE_FATAL, "writing " + path);
}

mode_t type_of(HostileEntry::Kind kind) {
  switch (kind) {
    case HostileEntry::Kind::directory:
      return AE_IFDIR;
    case HostileEntry::Kind::symlink:
      return AE_IFLNK;
    case HostileEntry::Kind::fifo:
      return AE_IFIFO;
    case HostileEntry::Kind::char_device:
      return AE_IFCHR;
    default:
      return AE_IFREG;
  }
}

}  // namespace

void write_hostile_archive(const std::filesystem::path& out,
                           const std::vector<HostileEntry>& entries) {
  const std::string suffix = gpulab::archive_suffix(out.filename().string());
  if (suffix.empty()) throw std::runtime_error("not an archive name: " + out.string());
  std::unique_ptr<archive, WriterFree> a(archive_write_new());
  if (suffix == ".zip") {
    check(a.get(), archive_write_set_format_zip(a.get()), "zip format");
  } else {
    check(a.get(), archive_write_set_format_pax_restricted(a.get()), "tar format");
    check(a.get(), archive_write_add_filter_gzip(a.get()), "gzip");
  }
  check(a.get(), archive_write_open_filename(a.get(), out.c_str()), "creating " + out.string());
  for (const auto& h : entries) {
    std::unique_ptr<archive_entry, EntryFree> e(archive_entry_new());
    archive_entry_set_pathname(e.get(), h.path.c_str());
    archive_entry_set_filetype(e.get(), type_of(h.kind));
    archive_entry_set_perm(e.get(), h.kind == HostileEntry::Kind::directory ? 0755 : 0644);
    archive_entry_set_mtime(e.get(), 1577836800, 0);
    if (h.kind == HostileEntry::Kind::symlink) archive_entry_set_symlink(e.get(), h.target.c_str());
    if (h.kind == HostileEntry::Kind::hardlink)
      archive_entry_set_hardlink(e.get(), h.target.c_str());
    if (h.kind == HostileEntry::Kind::char_device) archive_entry_set_rdev(e.get(), makedev(1, 3));
    const bool data = h.kind == HostileEntry::Kind::file;
    archive_entry_set_size(e.get(), data ? static_cast<la_int64_t>(h.content.size() + h.zeros) : 0);
    check(a.get(), archive_write_header(a.get(), e.get()), "adding " + h.path);
    if (!data) continue;
    write_data(a.get(), h.content.data(), h.content.size(), h.path);
    const std::string block(64 * 1024, '\0');
    for (size_t left = h.zeros; left > 0;) {
      const size_t n = std::min(left, block.size());
      write_data(a.get(), block.data(), n, h.path);
      left -= n;
    }
  }
  check(a.get(), archive_write_close(a.get()), "closing " + out.string());
}

}  // namespace test
