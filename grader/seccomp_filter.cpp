#include "seccomp_filter.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>

#include <cerrno>
#include <cstddef>
#include <vector>

namespace gpulab {

namespace {

constexpr unsigned kCloneThread = 0x00010000;  // CLONE_THREAD

sock_filter stmt(unsigned short code, unsigned k) {
  return BPF_STMT(code, k);
}
sock_filter jump(unsigned short code, unsigned k, unsigned char jt, unsigned char jf) {
  return BPF_JUMP(code, k, jt, jf);
}

}  // namespace

std::string no_new_processes_filter() {
#if defined(__x86_64__)
  constexpr unsigned kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
  constexpr unsigned kArch = AUDIT_ARCH_AARCH64;
#else
  return "";
#endif
#if defined(__x86_64__) || defined(__aarch64__)
  constexpr unsigned kTrap = SECCOMP_RET_TRAP, kAllow = SECCOMP_RET_ALLOW;
  const unsigned nr = offsetof(seccomp_data, nr), arch = offsetof(seccomp_data, arch);
  // The low 32 bits of the first argument (clone's flags) on a little-endian machine.
  const unsigned flags = offsetof(seccomp_data, args);
  std::vector<sock_filter> p = {
    // Another ABI (32-bit calls on x86-64) numbers its calls otherwise: none is allowed.
    stmt(BPF_LD | BPF_W | BPF_ABS, arch),
    jump(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0),
    stmt(BPF_RET | BPF_K, kTrap),
    stmt(BPF_LD | BPF_W | BPF_ABS, nr),
#if defined(__x86_64__)
    jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1),  // the x32 ABI
    stmt(BPF_RET | BPF_K, kTrap),
    jump(BPF_JMP | BPF_JEQ | BPF_K, __NR_fork, 0, 1),
    stmt(BPF_RET | BPF_K, kTrap),
    jump(BPF_JMP | BPF_JEQ | BPF_K, __NR_vfork, 0, 1),
    stmt(BPF_RET | BPF_K, kTrap),
#endif
    jump(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1),
    stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
    jump(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 1, 0),
    stmt(BPF_RET | BPF_K, kAllow),
    stmt(BPF_LD | BPF_W | BPF_ABS, flags),
    jump(BPF_JMP | BPF_JSET | BPF_K, kCloneThread, 0, 1),
    stmt(BPF_RET | BPF_K, kAllow),
    stmt(BPF_RET | BPF_K, kTrap),
  };
  return std::string(reinterpret_cast<const char*>(p.data()), p.size() * sizeof(sock_filter));
#endif
}

}  // namespace gpulab
