// A grading policy's options (grader/core/grading_policy.h, grader/cli/shared_options.h): what
// grade-all and bench-grader write on a grader's command line and in its environment is read
// back by the options `gpulab grade` declares as the same policy, for every setting.
#include "core/grading_policy.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "cli/shared_options.h"

namespace {

using gpulab::Backend;
using gpulab::GradingPolicy;
using gpulab::PolicyOption;

const std::initializer_list<PolicyOption> kEvery = {
    PolicyOption::backend, PolicyOption::no_time, PolicyOption::require_gpu,
    PolicyOption::allow_unsandboxed, PolicyOption::hidden_seed};

// The policy a command taking every option reads from `args`, starting from the defaults.
GradingPolicy parsed(std::vector<std::string> args) {
  CLI::App app("grade");
  GradingPolicy read;
  gpulab::add_grading_policy_options(&app, read, kEvery);
  std::reverse(args.begin(), args.end());  // CLI11 takes them last first
  app.parse(args);
  return read;
}

// The policy a grader is given (pass_policy, with `seed`, else the policy's own): its arguments,
// then the seed from its environment as `gpulab grade` reads GPULAB_HIDDEN_SEED (here: spelled
// as its option).
GradingPolicy passed_on(const GradingPolicy& p, const std::optional<std::string>& seed) {
  std::vector<std::string> args = {"--first"}, env = {"KEPT=1"};
  gpulab::pass_policy(p, seed, args, env);
  REQUIRE(args.front() == "--first");  // appended to what was there
  REQUIRE(env.front() == "KEPT=1");
  args.erase(args.begin());
  env.erase(env.begin());
  for (const std::string& entry : env) {
    const std::string name = "GPULAB_HIDDEN_SEED=";
    REQUIRE(entry.rfind(name, 0) == 0);
    args.insert(args.end(), {"--hidden-seed", entry.substr(name.size())});
  }
  return parsed(args);
}

GradingPolicy passed_on(const GradingPolicy& p) {
  return passed_on(p, p.hidden_seed);
}

void check_same(const GradingPolicy& a, const GradingPolicy& b) {
  CHECK(a.backend == b.backend);
  CHECK(a.performance == b.performance);
  CHECK(a.require_gpu == b.require_gpu);
  CHECK(a.allow_unsandboxed == b.allow_unsandboxed);
  CHECK(a.hidden_seed == b.hidden_seed);
}

TEST_CASE("the defaults pass on as the defaults") {
  const GradingPolicy defaults;
  check_same(passed_on(defaults), defaults);
  CHECK(parsed({}).performance);
  CHECK_FALSE(parsed({}).hidden_seed);
}

TEST_CASE("each setting away from its default reaches the grader") {
  GradingPolicy p;
  SUBCASE("the backend") {
    p.backend = Backend::sim;
  }
  SUBCASE("--no-time") {
    p.performance = false;
  }
  SUBCASE("--require-gpu") {
    p.require_gpu = true;
  }
  SUBCASE("--allow-unsandboxed") {
    p.allow_unsandboxed = true;
  }
  SUBCASE("the seed") {
    p.hidden_seed = "a seed with spaces, and = in it";
  }
  check_same(passed_on(p), p);
}

TEST_CASE("all of them at once, and the seed never on the command line") {
  GradingPolicy p;
  p.backend = Backend::sim;
  p.performance = false;
  p.require_gpu = p.allow_unsandboxed = true;
  p.hidden_seed = "0123456789abcdef-secret";
  check_same(passed_on(p), p);
  for (const std::string& arg : gpulab::grade_arguments(p))
    CHECK(arg.find("secret") == std::string::npos);
}

TEST_CASE("the seed a class or a bench settled on replaces the policy's") {
  GradingPolicy p;
  p.hidden_seed = "the instructor's";
  CHECK(passed_on(p, std::string("the class's")).hidden_seed == "the class's");
  CHECK_FALSE(passed_on(p, std::nullopt).hidden_seed);
}

TEST_CASE("a command takes only the options it lists, and an unknown backend is refused") {
  CLI::App app("bench-grader");
  GradingPolicy p;
  gpulab::add_grading_policy_options(&app, p, {PolicyOption::backend, PolicyOption::no_time});
  CHECK_THROWS_AS(app.parse(std::vector<std::string>{"--require-gpu"}), CLI::ExtrasError);
  CLI::App other("grade");
  gpulab::add_grading_policy_options(&other, p, kEvery);
  CHECK_THROWS_AS(other.parse(std::vector<std::string>{"gpu", "--backend"}), CLI::ValidationError);
  // Only the names: not the enum's numbers either.
  CHECK_THROWS_AS(other.parse(std::vector<std::string>{"0", "--backend"}), CLI::ValidationError);
}

}  // namespace
