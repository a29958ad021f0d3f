// Findings: recorded once per kind and site with a count, printed to stderr (the first few of
// each site, then a summary), and sent to the report (report_channel.h) as JSON lines: each
// when it is first made, so that it is out before the program can do anything about it, and
// again at exit with its final count where that grew.
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "backend_hooks.h"
#include "internal.h"
#include "report_channel.h"

namespace gpulab_sim {

const char* kind_name(finding_kind k) {
  switch (k) {
#define GPULAB_SIM_FINDING(name, severity, grading, cuda_error, what, advice) \
  case finding_kind::name:                                                    \
    return #name;
#include <gpulab_sim/finding_kinds.def>
  }
  return "unknown";
}

namespace detail {
namespace {

constexpr std::size_t kPrintedPerSite = 3;

bool is_error(finding_kind k) {
  switch (k) {
#define GPULAB_SIM_FINDING(name, severity, grading, cuda_error, what, advice) \
  case finding_kind::name:                                                    \
    return std::string_view(#severity) == "error";
#include <gpulab_sim/finding_kinds.def>
  }
  return true;
}

// What to change, said once per kind in the table.
const char* advice(finding_kind k) {
  switch (k) {
#define GPULAB_SIM_FINDING(name, severity, grading, cuda_error, what, advice) \
  case finding_kind::name:                                                    \
    return advice;
#include <gpulab_sim/finding_kinds.def>
  }
  return "";
}

// What an error inside a kernel makes the launch return.
cudaError_t error_code(finding_kind k) {
  switch (k) {
#define GPULAB_SIM_FINDING(name, severity, grading, cuda_error, what, advice) \
  case finding_kind::name:                                                    \
    return cuda_error;
#include <gpulab_sim/finding_kinds.def>
  }
  return cudaErrorLaunchFailure;
}

struct Store {
  std::mutex mu;
  std::vector<finding> list;
  std::vector<std::size_t> sent;  // the count each entry's last record gave
  // A batch's call under way (begin_call), -1 for none; each entry's call it was last sent in.
  long long call = -1;
  std::vector<long long> sent_in;
  std::map<std::tuple<int, std::string, int, std::string, int, std::string>, std::size_t> index;
  std::set<std::size_t> touched;  // entries changed by the running launch
};
// Never destroyed: the exit handler that sends the final counts runs after the destructors of
// every static made after the program started.
Store& store() {
  static Store* s = new Store;
  return *s;
}

std::string json_str(const std::string& s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      r += '\\';
      r += c;
    } else if (c == '\n') {
      r += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      r += buf;
    } else {
      r += c;
    }
  }
  return r + "\"";
}

// A kernel's costs (profile.h) as the report's record: {"cost":{"file":..,"line":..,
// "estimate_s":..,<costs.def's counts>}}, the estimate for the model's named GPU.
std::string cost_record(const kernel_cost& c) {
  char estimate[32];
  std::snprintf(estimate, sizeof estimate, "%.6g", estimate_seconds(c));
  std::string r = "{\"cost\":{\"file\":" + json_str(c.file) +
                  ",\"line\":" + std::to_string(c.line) + ",\"gpu\":" + json_str(h100_sxm.name) +
                  ",\"estimate_s\":" + estimate;
#define GPULAB_SIM_COST(name, what) r += ",\"" #name "\":" + std::to_string(c.name);
#include <gpulab_sim/costs.def>
  return r + "}}";
}

std::string json_dims(dim3 d) {
  return "[" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + "]";
}

void send(const finding& f) {
  send_record("{\"kind\":" + json_str(kind_name(f.kind)) + ",\"severity\":" +
              json_str(f.error ? "error" : "warning") + ",\"file\":" + json_str(f.file) +
              ",\"line\":" + std::to_string(f.line) + ",\"function\":" + json_str(f.function) +
              ",\"launch_file\":" + json_str(f.launch_file) + ",\"launch_line\":" +
              std::to_string(f.launch_line) + ",\"block\":" + json_dims(f.block) +
              ",\"thread\":" + json_dims(f.thread) + ",\"count\":" + std::to_string(f.count) +
              ",\"message\":" + json_str(f.message) + "}");
}

// Warnings can repeat millions of times at one site (every thread of a big grid): after the
// first few on an OS thread, only a per-thread count, merged into the store after the launch.
struct QuietKey {
  int kind;
  const char* file;
  int line;
  bool operator==(const QuietKey& o) const {
    return kind == o.kind && file == o.file && line == o.line;
  }
};
struct QuietHash {
  std::size_t operator()(const QuietKey& k) const {
    return std::hash<const void*>()(k.file) ^ (static_cast<std::size_t>(k.line) << 8) ^
           static_cast<std::size_t>(k.kind);
  }
};
struct QuietCount {
  std::size_t seen = 0;
  std::size_t unrecorded = 0;
  const Thread* first = nullptr;
};
thread_local std::unordered_map<QuietKey, QuietCount, QuietHash> quiet;

}  // namespace

bool counted_quietly(finding_kind k, const Thread* t, const char* file, int line) {
  QuietCount& c = quiet[QuietKey{static_cast<int>(k), file, line}];
  if (++c.seen <= kPrintedPerSite) return false;
  ++c.unrecorded;
  c.first = t;
  return true;
}

void merge_quiet_counts(const Launch& l) {
  if (quiet.empty()) return;
  Store& s = store();
  std::lock_guard<std::mutex> lock(s.mu);
  for (auto& [k, c] : quiet) {
    if (!c.unrecorded) continue;
    for (std::size_t i = 0; i < s.list.size(); ++i) {
      finding& f = s.list[i];
      if (static_cast<int>(f.kind) == k.kind && f.line == k.line && f.file == k.file &&
          f.launch_line == l.line && f.launch_file == l.file) {
        f.count += c.unrecorded;
        s.touched.insert(i);
        break;
      }
    }
  }
  quiet.clear();
}

std::string dims(uint3 v) {
  return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")";
}
std::string hex(std::uintptr_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%zx", static_cast<std::size_t>(v));
  return buf;
}
std::string where(const char* file, int line) {
  return std::string(file ? file : "?") + ":" + std::to_string(line);
}

namespace {
// The macro an access was written in, where access_ref said so (memory.h): the finding's line
// is the macro's use, and the student also needs the definition.
std::string in_macro_words() {
  if (!in_macro) return "";
  return " (the access is written in the macro " + std::string(in_macro->name) + ", defined at " +
         where(in_macro->file, in_macro->line) + ")";
}
}  // namespace

void report(finding_kind k, const Thread* t, const char* file, int line, const char* func,
            const std::string& title, const std::string& facts, std::size_t times) {
  const bool error = is_error(k);
  const std::string said = facts + in_macro_words();
  const std::string detail = *advice(k) ? said + " " + advice(k) : said;
  const Launch* l = t ? t->block->launch : nullptr;
  if (error && l) {
    Launch* ml = t->block->launch;
    int expected = 0;
    ml->error.compare_exchange_strong(expected, error_code(k));
    ml->aborted = true;
  }
  Store& s = store();
  std::lock_guard<std::mutex> lock(s.mu);
  auto key = std::make_tuple(static_cast<int>(k), std::string(file ? file : ""), line,
                             std::string(l ? l->file : ""), l ? l->line : 0, title);
  auto [it, fresh] = s.index.emplace(key, s.list.size());
  if (fresh) {
    finding f;
    f.kind = k;
    f.error = error;
    f.launch_file = l ? l->file : "";
    f.launch_line = l ? l->line : 0;
    f.file = file ? file : "";
    f.line = line;
    f.function = func ? func : "";
    f.block = t ? t->block->coords.block_idx : uint3{0, 0, 0};
    f.thread = t ? t->idx : uint3{0, 0, 0};
    f.message = title + ": " + detail;
    f.count = 0;
    s.list.push_back(f);
    s.sent.push_back(0);
    s.sent_in.push_back(-1);
  }
  finding& f = s.list[it->second];
  f.count += times;
  // Sent when first made, and again when first made in each of a batch's calls: the report tells
  // every call that made it.
  if (fresh || (s.call >= 0 && s.sent_in[it->second] != s.call)) {
    send(f);
    s.sent[it->second] = f.count;
    s.sent_in[it->second] = s.call;
  }
  if (f.count - times < kPrintedPerSite) {
    std::string head = "gpulab sim: " + title;
    if (t) {
      head += " in ";
      head += (func && *func) ? func : "a kernel";
      head += " at " + where(file, line) + ", block " + dims(t->block->coords.block_idx) +
              " thread " + dims(t->idx) + " (kernel launched at " + where(l->file, l->line) + ")";
    } else if (file) {
      head += " at " + where(file, line);
    }
    std::fprintf(stderr, "%s:\n  %s\n", head.c_str(), detail.c_str());
  }
  if (l) s.touched.insert(it->second);
}

void report_not_instrumented(int count, const char* file, int line) {
  if (count <= 0) return;
  report(finding_kind::not_instrumented, nullptr, file, line, nullptr,
         std::to_string(count) + " memory access" + (count == 1 ? "" : "es") +
             " in device code not checked",
         "the CPU backend could not instrument " + (count == 1 ? std::string("it") : "them") +
             " (the first is here): written in a macro defined outside your files, or in a "
             "macro's or template's text that one use reads and another writes. Out-of-bounds "
             "accesses, races and uninitialised reads there go unseen here, though not on a "
             "GPU under compute-sanitizer.",
         static_cast<std::size_t>(count));
}

void fail(finding_kind k, const Thread* t, const char* file, int line, const char* func,
          const std::string& title, const std::string& detail) {
  report(k, t, file, line, func, title, detail);
  throw kernel_abort{};
}

void flush_launch() {
  Store& s = store();
  std::lock_guard<std::mutex> lock(s.mu);
  for (std::size_t i : s.touched) {
    const finding& f = s.list[i];
    if (f.count > kPrintedPerSite)
      std::fprintf(stderr, "gpulab sim: the %s at %s happened %zu times in all (first %zu shown)\n",
                   kind_name(f.kind), where(f.file.c_str(), f.line).c_str(), f.count,
                   kPrintedPerSite);
  }
  s.touched.clear();
}

namespace {
// The store's call becomes `k` (-1: none), and the report says so ({"call":k}). Under the
// store's lock: a finding is sent in its whole before or after the mark.
void mark_call(Store& s, long long k) {
  s.call = k;
  send_record("{\"" + std::string(gpulab::kCallMarkKey) + "\":" + std::to_string(k) + "}");
}
}  // namespace

void begin_call(int k) {
  Store& s = store();
  std::lock_guard<std::mutex> lock(s.mu);
  mark_call(s, k);
}

void finish_report() {
  Store& s = store();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.call >= 0) mark_call(s, -1);  // the final counts below are no call's
  for (std::size_t i = 0; i < s.list.size(); ++i)
    if (s.list[i].count > s.sent[i]) {
      send(s.list[i]);
      s.sent[i] = s.list[i].count;
    }
  if (profile_on)
    for (const kernel_cost& c : profile_take()) send_record(cost_record(c));
  end_report();
}

}  // namespace detail

std::vector<finding> findings() {
  auto& s = detail::store();
  std::lock_guard<std::mutex> lock(s.mu);
  return s.list;
}

void clear_findings() {
  auto& s = detail::store();
  std::lock_guard<std::mutex> lock(s.mu);
  s.list.clear();
  s.sent.clear();
  s.index.clear();
  s.touched.clear();
}

}  // namespace gpulab_sim
