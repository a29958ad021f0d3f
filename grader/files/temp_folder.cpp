#include "files/temp_folder.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace gpulab {

std::filesystem::path make_temp_folder(const std::string& prefix, const std::string& what) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  if (ec) dir = "/tmp";
  std::string tmpl = (dir / (prefix + "-XXXXXX")).string();
  if (!mkdtemp(tmpl.data()))
    throw std::runtime_error("cannot create a temporary folder for " + what + " in " +
                             dir.string() + ": " + std::strerror(errno));
  return tmpl;
}

}  // namespace gpulab
