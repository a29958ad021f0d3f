#include "files/archive_writer.h"

#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>

#include <memory>
#include <stdexcept>

#include "files/archive_name.h"

namespace gpulab {

namespace {

// 2020-01-01T00:00:00Z: zip cannot store times before 1980, and a fixed one keeps archives
// of the same files identical.
constexpr time_t kTimestamp = 1577836800;

struct ArchiveCloser {
  void operator()(archive* a) const { archive_write_free(a); }
};
struct EntryFreer {
  void operator()(archive_entry* e) const { archive_entry_free(e); }
};

void check(archive* a, int status, const std::string& what) {
  if (status != ARCHIVE_OK)
    throw std::runtime_error(what + ": " +
                             (archive_error_string(a) ? archive_error_string(a) : "failed"));
}

}  // namespace

void write_archive(const std::filesystem::path& out, const std::vector<ArchiveFile>& files) {
  const std::string suffix = archive_suffix(out.filename().string());
  if (suffix.empty())
    throw std::runtime_error("cannot tell the archive format from " + out.string() +
                             ": name it .zip or .tar.gz");
  if (out.has_parent_path()) std::filesystem::create_directories(out.parent_path());
  const std::string tmp = out.string() + ".tmp" + std::to_string(getpid());
  {
    std::unique_ptr<archive, ArchiveCloser> a(archive_write_new());
    if (suffix == ".zip") {
      check(a.get(), archive_write_set_format_zip(a.get()), "zip format");
    } else {
      check(a.get(), archive_write_set_format_pax_restricted(a.get()), "tar format");
      check(a.get(), archive_write_add_filter_gzip(a.get()), "gzip");
    }
    check(a.get(), archive_write_open_filename(a.get(), tmp.c_str()), "creating " + tmp);
    for (const auto& f : files) {
      std::unique_ptr<archive_entry, EntryFreer> e(archive_entry_new());
      archive_entry_set_pathname(e.get(), f.path.c_str());
      archive_entry_set_filetype(e.get(), AE_IFREG);
      archive_entry_set_perm(e.get(), f.executable ? 0755 : 0644);
      archive_entry_set_size(e.get(), static_cast<la_int64_t>(f.content.size()));
      archive_entry_set_mtime(e.get(), kTimestamp, 0);
      archive_entry_set_uid(e.get(), 0);
      archive_entry_set_gid(e.get(), 0);
      check(a.get(), archive_write_header(a.get(), e.get()), "adding " + f.path);
      if (!f.content.empty() && archive_write_data(a.get(), f.content.data(), f.content.size()) !=
                                    static_cast<la_ssize_t>(f.content.size()))
        check(a.get(), ARCHIVE_FATAL, "writing " + f.path);
    }
    check(a.get(), archive_write_close(a.get()), "closing " + tmp);
  }
  std::filesystem::rename(tmp, out);
}

}  // namespace gpulab
