// Hostile, appended to the reference: gpulab's hostile-run generator (tests/e2e/
// hostile_runs_e2e.cpp grades it again and again). Every call draws a seed of its own (printed,
// to replay a run by hand), does a random handful of the things a run can leave the grader or
// send it, then computes the scan honestly: folder trees deeper than the open-file limit, wide
// folders, folders closed to everyone, FIFOs, sockets, links of every kind, names of any bytes;
// on gpulab's channel (descriptor 3) random bytes, messages too long, JSON nested too deep,
// records whose fields have other types, outputs that are pipes, folders or unsealed files, an
// empty message; on the CPU backend's report (descriptor 5) lines of the same kinds; and output
// that is not text. Whatever it does, the grader must write a scored report, within its memory.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>

namespace {

std::mt19937_64 rng;

int pick(int n) {
  return std::uniform_int_distribution<int>(0, n - 1)(rng);
}

std::string random_bytes(size_t n) {
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

void send_on(int fd, const std::string& bytes, int carried = -1) {
  iovec io{const_cast<char*>(bytes.data()), bytes.size()};
  msghdr m{};
  m.msg_iov = &io;
  m.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  if (carried >= 0) {
    m.msg_control = control;
    m.msg_controllen = sizeof control;
    cmsghdr* c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &carried, sizeof carried);
  }
  sendmsg(fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
}

// A chain of folders deeper than the open-file limit, made one level at a time through
// descriptors (no path is ever that long), its bottom closed to everyone.
void deep_tree() {
  int fd = open(".", O_DIRECTORY | O_RDONLY);
  const int depth = 1000 + pick(5000);
  for (int i = 0; i < depth && fd >= 0; ++i) {
    mkdirat(fd, "d", 0755);
    const int next = openat(fd, "d", O_DIRECTORY | O_RDONLY);
    close(fd);
    fd = next;
  }
  if (fd < 0) return;
  close(openat(fd, "leaf", O_CREAT | O_WRONLY, 0644));
  fchmod(fd, 0);
  close(fd);
}

void wide_folder() {
  mkdir("wide", 0755);
  for (int i = 0, n = 500 + pick(3000); i < n; ++i)
    close(open(("wide/f" + std::to_string(i)).c_str(), O_CREAT | O_WRONLY, 0644));
}

void special_files() {
  mkfifo("fifo", 0600);
  mkfifo("exclusive.npy", 0600);
  const int s = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strcpy(addr.sun_path, "sock");
  bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  symlink("/etc/passwd", "passwd");
  symlink("loop", "loop");
  symlink("/gpulab/input", "result.json");
  symlink("..", "up");
  close(open("file", O_CREAT | O_WRONLY, 0644));
  link("file", "hard");
  mkdir("closed", 0755);
  close(open("closed/inside", O_CREAT | O_WRONLY, 0644));
  chmod("closed", 0);
  std::string odd = "name\nwith\x01";
  for (const char c : random_bytes(8))
    if (c != '/' && c != '\0') odd += c;
  close(open(odd.c_str(), O_CREAT | O_WRONLY, 0644));
}

void big_file() {
  const int fd = open("big", O_CREAT | O_WRONLY, 0644);
  const std::string chunk = std::string(1 << 20, '[');
  for (int i = 0; i < 8 + pick(24); ++i) (void)!write(fd, chunk.data(), chunk.size());
  close(fd);
}

// A memory file holding `bytes`, sealed or not.
int memory_file(const std::string& bytes, bool sealed) {
  const int fd = memfd_create("x", MFD_ALLOW_SEALING);
  (void)!write(fd, bytes.data(), bytes.size());
  if (sealed) fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK);
  return fd;
}

void channel_garbage() {
  switch (pick(12)) {
    case 0: send_on(3, random_bytes(1 + pick(4096))); break;
    case 1: send_on(3, random_bytes(70000 + pick(60000))); break;  // over the limit
    case 2: send_on(3, std::string(60000, '[')); break;
    case 3: send_on(3, R"({"record": {"status": "ok", "work": "a lot", "timing": []}})"); break;
    case 4: send_on(3, "{\"record\": {\"status\": \"ok\", \"message\": \"\xff\xfe\xc0\"}}"); break;
    case 5: {
      int p[2];
      if (pipe(p) == 0) send_on(3, R"({"output": "exclusive"})", p[0]);
      break;
    }
    case 6: send_on(3, R"({"output": "exclusive"})", open(".", O_DIRECTORY | O_RDONLY)); break;
    case 7: send_on(3, R"({"output": "exclusive"})", memory_file(random_bytes(4096), false)); break;
    case 8:
      send_on(3, R"({"output": "../../etc/passwd"})", memory_file(random_bytes(64), true));
      break;
    case 9: send_on(3, R"({"ask": 1})"); break;
    case 10: send_on(3, std::string()); break;  // an empty message: the channel's end
    default: send_on(3, R"({"done": 1, "ms": 1e308, "cpu_ms": -0.0})"); break;
  }
}

void report_garbage() {
  const std::string lines[] = {std::string(100000, '[') + "\n", random_bytes(5000) + "\n",
                               "{\"kind\": 7, \"count\": \"many\", \"message\": []}\n",
                               "{\"end\": {\"launches\": \"x\"}}\n"};
  const std::string& l = lines[pick(4)];
  (void)!write(5, l.data(), l.size());
}

void spam() {
  const std::string bytes = random_bytes(1000 + pick(100000));
  (void)!write(pick(2) ? 1 : 2, bytes.data(), bytes.size());
}

}  // namespace

void scan_int(const int* in, int* out, int n, ScanKind kind) {
  unsigned long long seed = 0;
  const int urandom = open("/dev/urandom", O_RDONLY);
  (void)!read(urandom, &seed, sizeof seed);
  close(urandom);
  rng.seed(seed);
  std::printf("hostile run, seed %llu\n", seed);
  std::fflush(stdout);
  for (int i = 0, n_actions = 1 + pick(4); i < n_actions; ++i) switch (pick(8)) {
      case 0: deep_tree(); break;
      case 1: wide_folder(); break;
      case 2: special_files(); break;
      case 3: big_file(); break;
      case 4: report_garbage(); break;
      case 5: spam(); break;
      default: channel_garbage(); break;
    }
  honest_scan_int(in, out, n, kind);
}
