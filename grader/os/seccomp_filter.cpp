#include "os/seccomp_filter.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab {

namespace {

#if defined(__x86_64__)
constexpr unsigned kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kArch = AUDIT_ARCH_AARCH64;
#endif

constexpr unsigned kCloneThread = 0x00010000;  // CLONE_THREAD
constexpr unsigned kTrap = SECCOMP_RET_TRAP, kAllow = SECCOMP_RET_ALLOW;
constexpr unsigned kRefuse = SECCOMP_RET_ERRNO | EPERM;
const unsigned kNr = offsetof(seccomp_data, nr), kArchAt = offsetof(seccomp_data, arch);
// The low 32 bits of the first argument on a little-endian machine: clone's flags, or the
// pid_t a call aims at (the kernel reads only those bits of it).
const unsigned kArg0 = offsetof(seccomp_data, args);

// A classic-BPF program with named jump targets, resolved when it is done: jumps only go
// forward, and "" is the next instruction.
class Program {
 public:
  void load(unsigned offset) { code_.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offset)); }
  void ret(unsigned action) { code_.push_back(BPF_STMT(BPF_RET | BPF_K, action)); }
  void label(const std::string& name) { labels_[name] = code_.size(); }
  // if (A op k) goto yes; else goto no.
  void jump(unsigned short op, unsigned k, const std::string& yes, const std::string& no = "") {
    fixes_.push_back({code_.size(), yes, no});
    code_.push_back(BPF_JUMP(BPF_JMP | op | BPF_K, k, 0, 0));
  }
  // Ends the program with `action` under `name`, the target every jump to `name` takes.
  void ret_at(const std::string& name, unsigned action) {
    label(name);
    ret(action);
  }
  std::string bytes() {
    for (const Fix& f : fixes_) {
      code_[f.at].jt = offset(f.at, f.yes);
      code_[f.at].jf = offset(f.at, f.no);
    }
    return std::string(reinterpret_cast<const char*>(code_.data()),
                       code_.size() * sizeof(sock_filter));
  }

 private:
  struct Fix {
    size_t at;
    std::string yes, no;
  };
  unsigned char offset(size_t at, const std::string& target) const {
    const size_t skip = target.empty() ? 0 : labels_.at(target) - at - 1;
    if (skip > 255) throw std::logic_error("seccomp program: a jump past 255 instructions");
    return static_cast<unsigned char>(skip);
  }
  std::vector<sock_filter> code_;
  std::map<std::string, size_t> labels_;
  std::vector<Fix> fixes_;
};

// The checks both programs start with: the ABI, and no process started. Leaves the call's
// number in the accumulator for what follows.
void no_new_processes(Program& p) {
  // Another ABI (32-bit calls on x86-64) numbers its calls otherwise: none is allowed.
  p.load(kArchAt);
  p.jump(BPF_JEQ, kArch, "native", "trap");
  p.label("native");
  p.load(kNr);
#if defined(__x86_64__)
  p.jump(BPF_JGE, 0x40000000u, "trap");  // the x32 ABI
  p.jump(BPF_JEQ, __NR_fork, "trap");
  p.jump(BPF_JEQ, __NR_vfork, "trap");
#endif
  p.jump(BPF_JEQ, __NR_clone3, "enosys");
  p.jump(BPF_JEQ, __NR_clone, "clone");
}

// The ends the jumps above take; `rest` the code for any other call.
void ends(Program& p) {
  p.label("clone");
  p.load(kArg0);
  p.jump(BPF_JSET, kCloneThread, "allow", "trap");
  p.ret_at("enosys", SECCOMP_RET_ERRNO | ENOSYS);
  p.ret_at("trap", kTrap);
  p.ret_at("refuse", kRefuse);
  p.ret_at("allow", kAllow);
}

}  // namespace

std::string no_new_processes_filter() {
#if defined(__x86_64__) || defined(__aarch64__)
  Program p;
  no_new_processes(p);
  p.jump(BPF_JEQ, 0, "allow", "allow");  // any other call
  ends(p);
  return p.bytes();
#else
  return "";
#endif
}

std::string confined_run_filter(pid_t self) {
#if defined(__x86_64__) || defined(__aarch64__)
  Program p;
  no_new_processes(p);
  // Calls whose first argument names the process they act on: only the caller itself.
  for (unsigned nr : {__NR_kill, __NR_tgkill, __NR_rt_sigqueueinfo, __NR_rt_tgsigqueueinfo})
    p.jump(BPF_JEQ, nr, "self");
  p.jump(BPF_JEQ, __NR_prlimit64, "self or 0");
  // Calls that reach another process by a thread id, a pidfd or its memory: none.
  for (unsigned nr :
       {__NR_tkill, __NR_pidfd_open, __NR_pidfd_send_signal, __NR_pidfd_getfd, __NR_ptrace,
        __NR_process_vm_readv, __NR_process_vm_writev, __NR_kcmp, __NR_process_madvise})
    p.jump(BPF_JEQ, nr, "refuse");
  p.jump(BPF_JEQ, 0, "allow", "allow");
  p.label("self or 0");
  p.load(kArg0);
  p.jump(BPF_JEQ, 0, "allow", "is self");
  p.label("self");
  p.load(kArg0);
  p.label("is self");
  p.jump(BPF_JEQ, static_cast<unsigned>(self), "allow", "refuse");
  ends(p);
  return p.bytes();
#else
  (void)self;
  return "";
#endif
}

bool load_seccomp_program(const std::string& program) {
  if (program.empty()) {
    errno = ENOSYS;
    return false;
  }
  sock_fprog fprog{static_cast<unsigned short>(program.size() / sizeof(sock_filter)),
                   reinterpret_cast<sock_filter*>(const_cast<char*>(program.data()))};
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
         prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog) == 0;
}

bool confine_this_process() {
  return load_seccomp_program(confined_run_filter(getpid()));
}

}  // namespace gpulab
