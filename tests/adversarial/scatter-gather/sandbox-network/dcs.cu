// Hostile: at run time, looks for a network: any interface beside the loopback, a TCP
// connection to a public address, a UDP datagram to a public DNS server. The sandbox has its
// own network namespace with nothing but a loopback.
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "dcs.h"

namespace {

sockaddr_in address(const char* ip, int port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  inet_pton(AF_INET, ip, &a.sin_addr);
  return a;
}

// "" when a TCP connection to ip:port could not even be started, else what happened.
std::string try_tcp(const char* ip, int port) {
  const int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  if (s < 0) return "";
  const sockaddr_in a = address(ip, port);
  std::string what;
  if (connect(s, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0) {
    what = "connected to " + std::string(ip);
  } else if (errno == EINPROGRESS) {
    pollfd p{s, POLLOUT, 0};
    int err = 0;
    socklen_t len = sizeof err;
    if (poll(&p, 1, 2000) == 1 && getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0)
      what = "connected to " + std::string(ip);
    else if (err != ENETUNREACH && err != 0)
      what = "reached a network on the way to " + std::string(ip) + " (" + std::strerror(err) + ")";
  }
  close(s);
  return what;
}

}  // namespace

void dcs_scatter(const float*, int, Lattice, float*) {}
void dcs_gather(const float*, int, Lattice, float*) {}

void dcs_cpu_fast(const float*, int, Lattice, float*) {
  std::string found;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) == 0) {
    for (ifaddrs* i = list; i; i = i->ifa_next)
      if (std::string(i->ifa_name) != "lo" && found.find(i->ifa_name) == std::string::npos)
        found += std::string(" interface ") + i->ifa_name + ";";
    freeifaddrs(list);
  }
  const std::string tcp = try_tcp("1.1.1.1", 80);
  if (!tcp.empty()) found += " " + tcp + ";";
  const int u = socket(AF_INET, SOCK_DGRAM, 0);
  if (u >= 0) {
    const sockaddr_in dns = address("8.8.8.8", 53);
    if (sendto(u, "x", 1, 0, reinterpret_cast<const sockaddr*>(&dns), sizeof dns) == 1)
      found += " sent a datagram to 8.8.8.8;";
    close(u);
  }
  if (found.empty())
    std::printf("gpulab-adversarial: no network (only a loopback; nothing reachable)\n");
  else
    std::printf("gpulab-adversarial: a network is reachable:%s\n", found.c_str());
  std::fflush(stdout);
  std::exit(3);
}
