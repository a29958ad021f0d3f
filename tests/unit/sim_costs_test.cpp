// grader/run/sim_costs.h: the cost model's records read back (every costs.def count, or the
// record refused), and the table gpulab time prints of them.
#include "run/sim_costs.h"

#include <doctest/doctest.h>

#include "run/sim_report.h"
#include "test_util.h"

namespace {

using test::contains;

// A record as the runtime sends it, with every count; `sectors` the loads' sectors.
nlohmann::json record(int line, double sectors, double estimate_s = 2e-6) {
  nlohmann::json c = {
      {"file", "/tmp/x/scan.cu"}, {"line", line}, {"gpu", "H100 SXM"}, {"estimate_s", estimate_s}};
  for (const std::string& name : gpulab::cost_count_names()) c[name] = 0;
  c["launches"] = 1;
  c["load_requests"] = 8;
  c["load_sectors"] = sectors;
  c["lane_slots"] = 256;
  c["lanes_active"] = 128;
  return c;
}

}  // namespace

TEST_CASE("the report keeps cost records apart from findings, counted among its records") {
  const std::string key = "k3y";
  const std::string bytes = R"({"cost":)" + record(7, 32).dump() + "}\n" +
                            R"({"end":{"launches":1,"records":1,"key":"k3y"}})" + "\n";
  const gpulab::SimReport r = gpulab::read_sim_report(bytes, key, false, true);
  CHECK(r.problem.empty());
  CHECK(r.findings.empty());
  REQUIRE(r.costs.size() == 1);
  CHECK(r.costs[0]["line"] == 7);
}

TEST_CASE("kernel costs: each record's counts, its site by file name, or the record refused") {
  const auto k = gpulab::kernel_costs({record(7, 32), record(9, 64)});
  REQUIRE(k.size() == 2);
  CHECK(k[0].kernel == "scan.cu:7");
  CHECK(k[1].count("load_sectors") == 64);
  const gpulab::KernelCost all = gpulab::all_kernels(k);
  CHECK(all.count("load_sectors") == 96);
  CHECK(all.estimate_s == doctest::Approx(4e-6));
  nlohmann::json missing = record(7, 32);
  missing.erase("shared_wavefronts");
  CHECK_THROWS_WITH(gpulab::kernel_costs({missing}),
                    doctest::Contains("without its \"shared_wavefronts\""));
  nlohmann::json wrong = record(7, 32);
  wrong["load_sectors"] = "many";
  CHECK_THROWS(gpulab::kernel_costs({wrong}));
}

TEST_CASE("the table: a row per kernel, a total per side, per-unit bytes and ratios") {
  const gpulab::CostSide yours{"yours", gpulab::kernel_costs({record(7, 32), record(9, 64)}), 96};
  const gpulab::CostSide none{"reference", {}, 96};
  const std::string t = gpulab::cost_table({yours, none});
  CHECK(contains(t, "scan.cu:7"));
  CHECK(contains(t, "all kernels"));
  CHECK(contains(t, "no kernel launched"));
  // All kernels: 96 sectors of 32 bytes over 96 units, 16 requests, half the lanes.
  std::istringstream lines(t);
  bool found = false;
  for (std::string line; std::getline(lines, line);)
    if (contains(line, "all kernels")) {
      found = true;
      CHECK_MESSAGE(contains(line, " 32 "), line);    // bytes/unit
      CHECK_MESSAGE(contains(line, " 6.00 "), line);  // sectors/req
      CHECK_MESSAGE(contains(line, " 50% "), line);   // lanes active
    }
  CHECK_MESSAGE(found, t);
}
