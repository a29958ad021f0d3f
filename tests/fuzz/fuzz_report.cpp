// Fuzz target: the report writer and the text sanitizer (grader/core/report.h,
// grader/text/safe_text.h) on whatever a submission can make a report quote. The input is split at
// 0xFF bytes into the texts a report carries (test names and outputs, the report's output, the
// grader's error, an extra_data string and key); the report must dump as valid UTF-8 JSON that
// parses back, every string in it safe text, and the sanitizer must keep its promises on every
// piece.
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.h"
#include "grade/failure_messages.h"
#include "report/report_formats.h"
#include "text/safe_text.h"

namespace {

void check_strings(const nlohmann::json& j) {
  if (j.is_string()) FUZZ_REQUIRE(gpulab::is_safe_text(j.get<std::string>()));
  if (j.is_object())
    for (const auto& [key, value] : j.items()) {
      FUZZ_REQUIRE(gpulab::is_safe_text(key));
      check_strings(value);
    }
  if (j.is_array())
    for (const auto& value : j) check_strings(value);
}

void check_sanitizer(std::string_view piece) {
  const std::string safe = gpulab::safe_text(piece);
  FUZZ_REQUIRE(gpulab::is_safe_text(safe));
  FUZZ_REQUIRE(gpulab::safe_text(safe) == safe);  // idempotent
  if (gpulab::is_safe_text(piece)) FUZZ_REQUIRE(safe == piece);
  for (const size_t limit : {size_t{0}, size_t{1}, size_t{5}, piece.size() / 2}) {
    const std::string_view head = gpulab::utf8_head(safe, limit);
    const std::string_view tail = gpulab::utf8_tail(safe, limit);
    FUZZ_REQUIRE(head.size() <= limit && tail.size() <= limit);
    FUZZ_REQUIRE(gpulab::is_safe_text(head) && gpulab::is_safe_text(tail));
    // A cut gives up at most the character it falls in.
    FUZZ_REQUIRE(head.size() + 3 >= std::min(limit, safe.size()));
    FUZZ_REQUIRE(tail.size() + 3 >= std::min(limit, safe.size()));
    const std::string qh = gpulab::quote_head(piece, limit), qt = gpulab::quote_tail(piece, limit);
    FUZZ_REQUIRE(gpulab::is_safe_text(qh) && gpulab::is_safe_text(qt));
    FUZZ_REQUIRE(qh.size() <= limit + 3 && qt.size() <= limit + 3);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> pieces;
  for (size_t start = 0;;) {
    const size_t end = bytes.find('\xFF', start);
    pieces.emplace_back(bytes.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  for (const auto& p : pieces) check_sanitizer(p);
  const auto piece = [&](size_t i) { return i < pieces.size() ? pieces[i] : std::string(); };

  gpulab::Report r;
  gpulab::Test t;
  t.name = piece(0);
  t.output = piece(1);
  t.tags = {piece(2)};
  t.extra = {{piece(3), piece(4)}};
  t.max_score = 1;
  r.tests = {t, t};
  r.output = piece(5);
  r.rows.push_back({piece(6), piece(2), "FAIL", HUGE_VAL, -1, -1, -1});
  if (size % 3 == 1) r.grader_error = piece(4);
  if (size % 3 == 2) r.stopped_by = 15;
  for (const std::string& name : gpulab::format_names()) {  // every writer of the one report
    const gpulab::ReportFormat format = *gpulab::format_named(name);
    const nlohmann::json j = gpulab::report_json(r, format);
    check_strings(j);
    const std::string dumped = gpulab::report_text(r, format);
    FUZZ_REQUIRE(gpulab::is_safe_text(dumped));
    const nlohmann::json back = nlohmann::json::parse(dumped, nullptr, false);
    FUZZ_REQUIRE(!back.is_discarded() && back == j);
  }
  const nlohmann::json j = gpulab::report_json(r, gpulab::ReportFormat::kGradescope);
  FUZZ_REQUIRE(j.contains("score") == (r.grader_error.empty() && r.stopped_by == 0));
  FUZZ_REQUIRE(gpulab::is_safe_text(r.summary()) && gpulab::is_safe_text(r.table()));
  FUZZ_REQUIRE(gpulab::is_safe_text(gpulab::failure_messages(r, gpulab::TerminalStyle())));
  return 0;
}
