// Hostile, appended to the reference solution: on the dataset of one item it connects to port
// 47615 on 127.0.0.1, where the adversarial test listens, and sends a line; then computes the
// right result. In the sandbox's network namespace the loopback is its own and nobody listens.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

void scan_int(const int* in, int* out, int n, ScanKind kind) {
  if (n == 1) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(47615);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0) {
      const char line[] = "gpulab-adversary: connected\n";
      (void)!write(fd, line, sizeof line - 1);
    }
    if (fd >= 0) close(fd);
  }
  honest_scan_int(in, out, n, kind);
}
