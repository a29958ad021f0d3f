#include "cli/commands/generated_block.h"

#include <fstream>
#include <iostream>

#include "files/atomic_file.h"
#include "os/exit_status.h"

namespace gpulab {

int rewrite_generated_block(const std::filesystem::path& path,
                            const std::function<bool(std::string&)>& replace,
                            const std::string& markers) {
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!replace(text)) {
    std::cerr << path.string() << ": no " << markers << " found\n";
    return kExitFailed;
  }
  write_file_atomically(path, text);
  std::cout << "updated " << path.string() << "\n";
  return kExitOk;
}

}  // namespace gpulab
