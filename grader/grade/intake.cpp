#include "grade/intake.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "files/archive_name.h"
#include "files/archive_reader.h"
#include "text/joined_words.h"
#include "text/nearest_name.h"
#include "text/safe_text.h"

namespace gpulab {

namespace {

namespace fs = std::filesystem;

// A refusal on its way out, caught once in take_in_submission.
struct Refusal {
  std::string reason;
};

// Wrapping folders looked through at most (a/b/c/scan.cu is fine, deeper nesting is not).
constexpr size_t kMaxWrapping = 8;

std::string limit_text(size_t bytes) {
  if (bytes % (size_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes >> 10) + " KiB";
}

// An entry's name as the student wrote it, quoted, with control characters escaped and a very
// long name cut: it is untrusted text going into a report.
std::string shown(const std::string& name) {
  return "\"" + quote_head(name, 160) + "\"";
}

// Entries of a submission as a report lists them: the first ten, each quoted as a name, then
// how many more, unquoted (it is no name of theirs).
std::string listed_entries(const std::vector<std::string>& entries) {
  constexpr size_t kShown = 10;
  std::vector<std::string> names;
  for (size_t i = 0; i < std::min(entries.size(), kShown); ++i) names.push_back(shown(entries[i]));
  if (entries.size() > kShown) names.push_back(std::to_string(entries.size() - kShown) + " more");
  return listed(names);
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Operating-system litter: never graded, never mentioned.
bool is_litter(const std::vector<std::string>& parts) {
  if (contains(parts, "__MACOSX")) return true;
  const std::string& last = parts.back();
  return last == ".DS_Store" || last == "Thumbs.db" || last == "desktop.ini" ||
         last.rfind("._", 0) == 0;
}

// The components of an archive entry's path, without "." ones: empty for the archive's own top
// folder ("./"). Refuses absolute paths and "..". Backslashes separate too: archives made on
// Windows use them.
std::vector<std::string> components(const std::string& raw) {
  if (raw.empty()) throw Refusal{"an entry has an empty name"};
  if (raw[0] == '/' || raw[0] == '\\' || (raw.size() >= 2 && raw[1] == ':'))
    throw Refusal{"the entry " + shown(raw) + " has an absolute path"};
  std::vector<std::string> parts;
  std::string part;
  for (const char c : raw + "/") {
    if (c != '/' && c != '\\') {
      part += c;
      continue;
    }
    if (part == "..")
      throw Refusal{"the entry " + shown(raw) + " leads out of its folder (its path holds \"..\")"};
    if (!part.empty() && part != ".") parts.push_back(part);
    part.clear();
  }
  return parts;
}

void refuse_kind(EntryKind kind, const std::string& name) {
  switch (kind) {
    case EntryKind::symlink:
      throw Refusal{shown(name) + " is a symbolic link: submit the file itself"};
    case EntryKind::hardlink:
      throw Refusal{shown(name) + " is a hard link: submit the file itself"};
    case EntryKind::special:
      throw Refusal{shown(name) + " is a device, pipe or socket, not a file"};
    case EntryKind::directory:
      throw Refusal{shown(name) + " is a folder, not a file"};
    case EntryKind::file:
      return;
  }
}

// What a file may weigh: a source file, or the write-up.
struct SizeLimit {
  size_t bytes;
  const char* of;  // "a source file"
};

SizeLimit source_limit(const IntakeLimits& limits) {
  return {limits.max_file_bytes, "a source file"};
}

SizeLimit writeup_limit(const IntakeLimits& limits) {
  return {limits.max_writeup_bytes, "a write-up"};
}

Refusal too_large(const std::string& name, const SizeLimit& limit) {
  return {shown(name) + " is larger than " + limit_text(limit.bytes) + ", the limit for " +
          limit.of};
}

// How many leading folders wrap every entry: at each level, all of them sit inside one folder.
size_t wrapping_depth(const std::vector<std::vector<std::string>>& paths) {
  size_t depth = 0;
  for (; depth < kMaxWrapping; ++depth) {
    std::set<std::string> tops;
    bool inside = false;
    for (const auto& p : paths) {
      if (p.size() <= depth) continue;  // a wrapping folder's own entry
      tops.insert(p[depth]);
      inside = inside || p.size() > depth + 1;
    }
    if (tops.size() != 1 || !inside) break;
  }
  return depth;
}

// What the intake keeps: the student files' contents by name, the write-up, and the other
// entries' names.
struct Kept {
  std::map<std::string, std::string> files;
  SubmittedWriteup writeup;
  std::vector<std::string> ignored;
  std::string taken_as;  // a lone file's own name, where it was taken as the lab's file

  void ignore(const std::string& name, const IntakeSpec& spec) {
    if (!contains(spec.lab_folder_files, name) && !contains(ignored, name)) ignored.push_back(name);
  }
};

struct Entry {
  std::vector<std::string> parts;
  bool directory = false;
  std::optional<std::string> data;  // read for the student files' and the write-up's names only
  int64_t declared_size = -1;
  bool over_limit = false;  // a write-up too large to keep
};

bool is_writeup(const std::vector<std::string>& parts, const IntakeSpec& spec) {
  return !spec.writeup_file.empty() && parts.back() == spec.writeup_file && !is_litter(parts);
}

// Reads every entry's header, and the data of those named like a student file or the write-up,
// counting the bytes actually unpacked. Nothing is written anywhere.
std::vector<Entry> read_entries(const fs::path& file, ArchiveFormat format, const IntakeSpec& spec,
                                const IntakeLimits& limits) {
  std::error_code ec;
  const auto bytes = fs::file_size(file, ec);
  if (!ec && bytes > limits.max_archive_bytes)
    throw Refusal{"the archive is larger than " + limit_text(limits.max_archive_bytes)};
  const char* kind = format == ArchiveFormat::zip ? ".zip" : ".tar.gz";
  std::vector<Entry> entries;
  std::set<std::string> seen;
  size_t unpacked = 0;
  try {
    ArchiveReader reader(file, format);
    const Refusal too_much{"its files add up to more than " + limit_text(limits.max_total_bytes) +
                           " unpacked"};
    for (ArchiveEntry e; reader.next(e);) {
      if (entries.size() >= limits.max_entries)
        throw Refusal{"it holds more than " + std::to_string(limits.max_entries) + " entries"};
      Entry entry{components(e.path), e.kind == EntryKind::directory, {}, e.declared_size};
      if (e.kind != EntryKind::file && !entry.directory) refuse_kind(e.kind, e.path);
      if (entry.parts.empty()) continue;  // "./", the archive's own top folder
      if (!entry.directory) {
        std::string key;
        for (const auto& p : entry.parts) key += "/" + p;
        if (!seen.insert(key).second) throw Refusal{shown(e.path) + " appears twice"};
        if (contains(spec.student_files, entry.parts.back()) && !is_litter(entry.parts)) {
          std::string data;
          if (!reader.read(limits.max_file_bytes, data))
            throw too_large(e.path, source_limit(limits));
          unpacked += data.size();
          entry.data = std::move(data);
        } else if (is_writeup(entry.parts, spec)) {
          std::string data;
          entry.over_limit = !reader.read(limits.max_writeup_bytes, data);
          unpacked +=
              std::max(data.size(), static_cast<size_t>(std::max<int64_t>(e.declared_size, 0)));
          if (!entry.over_limit) entry.data = std::move(data);
        } else {  // never read; the next header skips it, unpacking a tar entry's stated size
          unpacked += e.declared_size > 0 ? static_cast<size_t>(e.declared_size) : 0;
        }
        if (unpacked > limits.max_total_bytes) throw too_much;
      }
      entries.push_back(std::move(entry));
    }
  } catch (const ArchiveError& e) {
    throw Refusal{std::string("it could not be read as a ") + kind + " archive (" + e.what() + ")"};
  }
  return entries;
}

Kept from_archive(const fs::path& file, ArchiveFormat format, const IntakeSpec& spec,
                  const IntakeLimits& limits) {
  std::vector<Entry> entries = read_entries(file, format, spec, limits);
  std::vector<std::vector<std::string>> paths;
  for (const auto& e : entries)
    if (!is_litter(e.parts)) paths.push_back(e.parts);
  const size_t depth = wrapping_depth(paths);
  Kept kept;
  for (auto& e : entries) {
    if (is_litter(e.parts) || e.parts.size() <= depth) continue;
    const std::string& top = e.parts[depth];
    const bool at_top = e.parts.size() == depth + 1 && !e.directory;
    if (at_top && is_writeup(e.parts, spec)) {
      kept.writeup.found = true;
      kept.writeup.bytes =
          e.data ? e.data->size() : static_cast<uint64_t>(std::max<int64_t>(e.declared_size, 0));
      if (e.over_limit)
        kept.writeup.problem = too_large(top, writeup_limit(limits)).reason;
      else
        kept.writeup.text = std::move(e.data);
    } else if (at_top && e.data) {
      kept.files[top] = std::move(*e.data);
    } else {
      kept.ignore(at_top ? top : top + "/", spec);
    }
  }
  return kept;
}

// A student file of a directory, or a file submitted on its own (or the write-up): a plain file
// with one link, not over its size limit. Opened without following links and checked again once
// open, so it cannot be swapped for a link or a pipe in between. nullopt when it is not there.
std::optional<std::string> read_plain_file(const fs::path& path, const std::string& name,
                                           const SizeLimit& limit) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return std::nullopt;
    throw Refusal{shown(name) + " cannot be read"};
  }
  if (S_ISLNK(st.st_mode)) refuse_kind(EntryKind::symlink, name);
  if (S_ISDIR(st.st_mode)) refuse_kind(EntryKind::directory, name);
  if (!S_ISREG(st.st_mode)) refuse_kind(EntryKind::special, name);
  if (st.st_nlink > 1) refuse_kind(EntryKind::hardlink, name);
  if (static_cast<size_t>(st.st_size) > limit.bytes) throw too_large(name, limit);
  const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw Refusal{shown(name) + " cannot be read"};
  struct stat now {};
  std::string data;
  bool same = fstat(fd, &now) == 0 && S_ISREG(now.st_mode) && now.st_dev == st.st_dev &&
              now.st_ino == st.st_ino && now.st_nlink == 1;
  char buf[64 * 1024];
  while (same && data.size() <= limit.bytes) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) {
      same = n == 0;
      break;
    }
    data.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  if (!same) throw Refusal{shown(name) + " changed while it was read, or cannot be read"};
  if (data.size() > limit.bytes) throw too_large(name, limit);
  return data;
}

// The write-up of a folder: read as a student file is, but a refusal is only the write-up's.
SubmittedWriteup writeup_in_folder(const fs::path& dir, const std::string& name,
                                   const IntakeLimits& limits) {
  SubmittedWriteup w;
  struct stat st {};
  if (lstat((dir / name).c_str(), &st) != 0) return w;
  w.found = true;
  if (S_ISREG(st.st_mode)) w.bytes = static_cast<uint64_t>(st.st_size);
  try {
    w.text = read_plain_file(dir / name, name, writeup_limit(limits));
    if (w.text) w.bytes = w.text->size();
  } catch (const Refusal& r) {
    w.problem = r.reason;
  }
  return w;
}

// A directory: its student files at the top, or inside one folder. Other entries are never
// opened (nor followed, when they are links), only listed.
Kept from_directory(const fs::path& root, const IntakeSpec& spec, const IntakeLimits& limits) {
  fs::path dir = root;
  std::vector<fs::directory_entry> listing;
  for (size_t depth = 0;; ++depth) {
    listing.clear();
    for (const auto& e : fs::directory_iterator(dir)) {
      if (listing.size() >= limits.max_entries)
        throw Refusal{"the folder " + shown(dir.filename().string()) + " holds more than " +
                      std::to_string(limits.max_entries) + " entries"};
      if (!is_litter({e.path().filename().string()})) listing.push_back(e);
    }
    std::sort(listing.begin(), listing.end());  // a listing in a report reads best sorted
    const bool has_student_file = std::any_of(listing.begin(), listing.end(), [&](const auto& e) {
      return contains(spec.student_files, e.path().filename().string());
    });
    if (has_student_file || depth >= kMaxWrapping || listing.size() != 1 ||
        !listing[0].is_directory() || listing[0].is_symlink())
      break;
    dir = listing[0].path();
  }
  Kept kept;
  for (const auto& e : listing) {
    const std::string name = e.path().filename().string();
    if (!contains(spec.student_files, name) && name != spec.writeup_file)
      kept.ignore(e.is_directory() && !e.is_symlink() ? name + "/" : name, spec);
  }
  for (const auto& f : spec.student_files)
    if (auto data = read_plain_file(dir / f, f, source_limit(limits)))
      kept.files[f] = std::move(*data);
  if (!spec.writeup_file.empty()) kept.writeup = writeup_in_folder(dir, spec.writeup_file, limits);
  return kept;
}

// Whether an entry is named like the lab's `file`, by a slip: its extension, and its name the
// file's with something added ("scan (1).cu", "scan-8.cu") or a letter or two off ("Scan.cu").
bool named_like(const std::string& name, const std::string& file) {
  const fs::path n(name), f(file);
  if (n.extension() != f.extension()) return false;
  return n.stem().string().rfind(f.stem().string(), 0) == 0 || !nearest_name(name, {file}).empty();
}

// Why a submission holding none of the lab's files is refused (nothing to build), and what it
// holds instead: an entry named like one of them with the fix.
std::string none_submitted(const IntakeSpec& spec, const std::vector<std::string>& ignored) {
  const std::string why = "it holds none of this lab's files (" + listed(spec.student_files) +
                          "), at its top or inside its one folder, so there is nothing to grade";
  for (const auto& name : ignored)
    for (const auto& file : spec.student_files)
      if (named_like(name, file)) return why + "; " + shown(name) + " is there: name it " + file;
  if (ignored.empty()) return why + ": it is empty";
  return why + "; it holds " + listed_entries(ignored);
}

void write_staged(const fs::path& dst, const std::map<std::string, std::string>& files) {
  fs::remove_all(dst);
  fs::create_directories(dst);
  for (const auto& [name, data] : files) {
    const fs::path path = dst / name;
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    bool ok = fd >= 0;
    for (size_t done = 0; ok && done < data.size();) {
      const ssize_t n = write(fd, data.data() + done, data.size() - done);
      ok = n > 0;
      done += ok ? static_cast<size_t>(n) : 0;
    }
    if (fd >= 0) close(fd);
    if (!ok) throw std::runtime_error("cannot write " + path.string());
  }
}

}  // namespace

IntakeSpec IntakeSpec::of(const LabConfig& lab) {
  IntakeSpec spec{lab.student_files, {}, ""};
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(lab.dir, ec))
    spec.lab_folder_files.push_back(e.path().filename().string());
  return spec;
}

std::string Intake::note(const IntakeSpec& spec) const {
  if (!taken_as.empty())
    return "Your file " + shown(taken_as) + " was graded as the lab's " +
           listed(spec.student_files) + ".";
  if (ignored.empty()) return "";
  return "Only " + listed(spec.student_files) + (spec.student_files.size() == 1 ? " is" : " are") +
         " graded; these entries of your submission were not: " + listed_entries(ignored) + ".";
}

Intake take_in_submission(const fs::path& submission, const IntakeSpec& spec, const fs::path& dst,
                          const IntakeLimits& limits) {
  const std::string name = submission.filename().string();
  const std::string suffix = archive_suffix(name);
  std::error_code ec;
  const bool is_dir = fs::is_directory(submission, ec);
  if (!is_dir && !fs::exists(fs::symlink_status(submission, ec)))
    throw std::runtime_error("the submission " + submission.string() + " does not exist");
  Intake in;
  try {
    Kept kept;
    if (is_dir) {
      kept = from_directory(submission, spec, limits);
    } else if (!suffix.empty()) {
      kept = from_archive(submission, suffix == ".zip" ? ArchiveFormat::zip : ArchiveFormat::tar_gz,
                          spec, limits);
    } else if (contains(spec.student_files, name)) {
      if (auto data = read_plain_file(submission, name, source_limit(limits)))
        kept.files[name] = std::move(*data);
      kept.writeup.lone_file = true;
    } else if (spec.student_files.size() == 1 &&
               fs::path(name).extension() == fs::path(spec.student_files[0]).extension()) {
      // A version of the lab's one file under a name of its own (scan-8.cu): graded as that file,
      // as every command takes it.
      const std::string& file = spec.student_files[0];
      if (auto data = read_plain_file(submission, name, source_limit(limits)))
        kept.files[file] = std::move(*data);
      kept.writeup.lone_file = true;
      kept.taken_as = name;
    } else {
      throw Refusal{shown(name) +
                    " is not a folder, a .zip, a .tar.gz (.tgz), nor one of this "
                    "lab's files (" +
                    listed(spec.student_files) + ")"};
    }
    if (kept.files.empty()) throw Refusal{none_submitted(spec, kept.ignored)};
    write_staged(dst, kept.files);
    in.accepted = true;
    in.taken_as = std::move(kept.taken_as);
    in.ignored = std::move(kept.ignored);
    in.writeup = std::move(kept.writeup);
  } catch (const Refusal& r) {
    in.rejection = "Your submission " + shown(name) + " was not accepted: " + r.reason + ".\n" +
                   "Submit " + listed(spec.student_files) +
                   " on its own, or a folder, .zip or .tar.gz holding it (at the top or inside "
                   "one folder). Links, devices, pipes, paths with \"..\" and source files over " +
                   limit_text(limits.max_file_bytes) + " are refused.";
  }
  return in;
}

}  // namespace gpulab
