#include "files/atomic_file.h"

#include <unistd.h>

#include <fstream>
#include <stdexcept>
#include <thread>

#include "files/temporaries.h"

namespace gpulab {

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  // Unique per process and thread: grade-all writes from several threads at once.
  // Removed should writing fail or gpulab be stopped before the rename (temporaries.h).
  Temporary tmp(path.string() + ".tmp" + std::to_string(getpid()) + "-" +
                std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())));
  {
    std::ofstream out(tmp.path(), std::ios::trunc | std::ios::binary);
    if (!out) throw std::runtime_error("cannot write " + tmp.path().string());
    out << content;
    if (!out) throw std::runtime_error("writing " + tmp.path().string() + " failed");
  }
  tmp.rename_to(path);
}

}  // namespace gpulab
