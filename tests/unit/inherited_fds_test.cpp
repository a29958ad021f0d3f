// grader/os/inherited_fds.h, and run_process's use of it: a child keeps 0, 1, 2 and the descriptors
// it is handed, and none of the others the grader had open when it forked (in the grader, files
// another thread opened without close-on-exec: an expected output being checked).
#include "os/inherited_fds.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "os/process.h"
#include "test_util.h"

namespace {

// In a forked child: opens two files without close-on-exec, marks all but the second by `way`,
// and exits 0 where the first is marked and the second not (1 where marking failed).
int marked_in_child(bool (*way)(const int*, size_t)) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int other = open("/dev/null", O_RDONLY);
    const int kept = open("/dev/null", O_RDONLY);
    if (other < 0 || kept < 0) _exit(2);
    if (!way(&kept, 1)) _exit(1);
    const bool ok = (fcntl(other, F_GETFD) & FD_CLOEXEC) && !(fcntl(kept, F_GETFD) & FD_CLOEXEC) &&
                    !(fcntl(1, F_GETFD) & FD_CLOEXEC);
    _exit(ok ? 0 : 3);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST_CASE("both ways mark every descriptor but the kept ones close-on-exec") {
  // The range way needs Linux 5.11; where the kernel is older it fails and the listing serves.
  const int by_range = marked_in_child(gpulab::close_on_exec_by_range);
  CHECK((by_range == 0 || by_range == 1));
  CHECK(marked_in_child(gpulab::close_on_exec_by_listing) == 0);
  CHECK(marked_in_child(gpulab::close_on_exec_all_but) == 0);
}

TEST_CASE("a child inherits none of the grader's descriptors but those it is given") {
  // Opened without close-on-exec, as std::ifstream opens: before, it reached every child.
  const int leaked = open("/dev/null", O_RDONLY);
  REQUIRE(leaked > 2);
  gpulab::ProcessOptions o;
  const std::string fd = std::to_string(leaked);
  o.argv = {"/bin/sh", "-c",
            "for n in 0 1 2 " + fd + " 9; do [ -e /proc/self/fd/$n ] && echo open $n; done; true"};
  o.fd_inputs = {{9, "given"}};
  o.timeout_s = 10;
  const gpulab::ProcessResult r = gpulab::run_process(o);
  close(leaked);
  INFO(r.output);
  REQUIRE(r.ok());
  CHECK(r.output == "open 0\nopen 1\nopen 2\nopen 9\n");
}
