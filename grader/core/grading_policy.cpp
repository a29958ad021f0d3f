#include "core/grading_policy.h"

#include "files/secret.h"

namespace gpulab {

std::vector<std::string> grade_arguments(const GradingPolicy& policy) {
  std::vector<std::string> args = {"--backend", backend_name(policy.backend)};
  if (!policy.performance) args.push_back("--no-time");
  if (policy.require_gpu) args.push_back("--require-gpu");
  if (policy.allow_unsandboxed) args.push_back("--allow-unsandboxed");
  return args;
}

std::vector<std::string> grade_environment(const GradingPolicy& policy) {
  if (!policy.hidden_seed) return {};
  return {std::string(kHiddenSeedVariable) + "=" + *policy.hidden_seed};
}

void pass_policy(GradingPolicy policy, const std::optional<std::string>& seed,
                 std::vector<std::string>& argv, std::vector<std::string>& env) {
  policy.hidden_seed = seed;
  const std::vector<std::string> args = grade_arguments(policy);
  argv.insert(argv.end(), args.begin(), args.end());
  const std::vector<std::string> vars = grade_environment(policy);
  env.insert(env.end(), vars.begin(), vars.end());
}

}  // namespace gpulab
