#include "scan_trace.h"

#include <stdexcept>

namespace gpulab {

namespace {

void check_length(size_t m) {
  if (m < 2 || (m & (m - 1)) != 0)
    throw std::invalid_argument("a traced tile is a power of two of at least 2 elements");
}

std::string level(const char* sweep, size_t d) {
  return std::string(sweep) + " d=" + std::to_string(d);
}

}  // namespace

std::vector<TraceLevel> brent_kung_trace(const std::vector<long long>& x) {
  const size_t m = x.size();
  check_length(m);
  std::vector<long long> s = x;
  std::vector<TraceLevel> out{{"input", s, {}, {}, {}}};
  for (size_t d = 1; d < m; d *= 2) {
    TraceLevel t{level("up", d), {}, {}, {}, {}};
    for (size_t i = 2 * d - 1; i < m; i += 2 * d) {
      s[i] += s[i - d];
      t.changed.push_back(static_cast<int>(i));
      t.reads.push_back({static_cast<int>(i - d), static_cast<int>(i)});
      t.reads.push_back({static_cast<int>(i), static_cast<int>(i)});
    }
    t.values = s;
    out.push_back(t);
  }
  s[m - 1] = 0;
  out.push_back({"clear root", s, {}, {static_cast<int>(m - 1)}, {}});
  for (size_t d = m / 2; d >= 1; d /= 2) {
    TraceLevel t{level("down", d), {}, {}, {}, {}};
    for (size_t i = 2 * d - 1; i < m; i += 2 * d) {
      const long long left = s[i - d];
      s[i - d] = s[i];
      s[i] += left;
      const int l = static_cast<int>(i - d), r = static_cast<int>(i);
      t.changed.insert(t.changed.end(), {l, r});
      t.reads.insert(t.reads.end(), {{r, l}, {l, r}, {r, r}});
    }
    t.values = s;
    out.push_back(t);
  }
  long long sum = 0;
  for (size_t k = 0; k < m; ++k) {
    if (s[k] != sum) throw std::logic_error("the traced scan is not the exclusive scan");
    sum += x[k];
  }
  return out;
}

std::vector<TraceLevel> segmented_brent_kung_trace(const std::vector<long long>& x,
                                                   const std::vector<int>& flags) {
  const size_t m = x.size();
  check_length(m);
  if (flags.size() != m) throw std::invalid_argument("one flag per element");
  std::vector<long long> s = x;
  std::vector<int> f0 = flags;
  f0[0] = 1;  // element 0 starts a segment, whatever its flag says
  std::vector<int> f = f0;
  std::vector<TraceLevel> out{{"input", s, f, {}, {}}};
  for (size_t d = 1; d < m; d *= 2) {
    TraceLevel t{level("up", d), {}, {}, {}, {}};
    for (size_t i = 2 * d - 1; i < m; i += 2 * d) {
      const size_t l = i - d;
      if (!f[i]) s[i] += s[l];
      f[i] = f[i] | f[l];
      t.changed.push_back(static_cast<int>(i));
      t.reads.push_back({static_cast<int>(l), static_cast<int>(i)});
      t.reads.push_back({static_cast<int>(i), static_cast<int>(i)});
    }
    t.values = s;
    t.flags = f;
    out.push_back(t);
  }
  s[m - 1] = 0;
  out.push_back({"clear root", s, f, {static_cast<int>(m - 1)}, {}});
  for (size_t d = m / 2; d >= 1; d /= 2) {
    TraceLevel t{level("down", d), {}, {}, {}, {}};
    for (size_t i = 2 * d - 1; i < m; i += 2 * d) {
      const size_t l = i - d;
      const long long left = s[l];
      s[l] = s[i];
      if (f0[l + 1])
        s[i] = 0;
      else if (f[l])
        s[i] = left;
      else
        s[i] = s[i] + left;
      const int li = static_cast<int>(l), ri = static_cast<int>(i);
      t.changed.insert(t.changed.end(), {li, ri});
      // What the new s[i] was made of: nothing after a head, the left half's tail where a
      // segment starts in it, else both.
      t.reads.push_back({ri, li});
      if (!f0[l + 1]) t.reads.push_back({li, ri});
      if (!f0[l + 1] && !f[l]) t.reads.push_back({ri, ri});
    }
    t.values = s;
    t.flags = f;
    out.push_back(t);
  }
  long long sum = 0;
  for (size_t k = 0; k < m; ++k) {
    if (f0[k]) sum = 0;
    if (s[k] != sum) throw std::logic_error("the traced segmented scan is not the exclusive one");
    sum += x[k];
  }
  return out;
}

}  // namespace gpulab
