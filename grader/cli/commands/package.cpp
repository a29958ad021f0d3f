// gpulab package <platform> <lab>: a course platform's autograder (Gradescope, PrairieLearn).
#include <iostream>

#include "cli/commands/commands.h"
#include "cli/shared_options.h"
#include "files/secret.h"
#include "os/exit_status.h"
#include "package/gradescope_package.h"
#include "package/prairielearn_package.h"

namespace gpulab {

namespace {

// A course platform's package holds the hidden seed: --hidden-seed (`option`, its value
// `given`) or GPULAB_HIDDEN_SEED. None: said, and nullopt.
std::optional<std::string> package_seed(const std::string& platform, const CLI::Option* option,
                                        const std::string& given) {
  const std::optional<std::string> seed =
      hidden_secret(option->count() ? std::optional<std::string>(given) : std::nullopt, std::cerr);
  if (!seed)
    std::cerr << "gpulab package " << platform
              << ": give the hidden seed (--hidden-seed S or GPULAB_HIDDEN_SEED): without one, "
                 "hidden datasets would use gpulab's default seed, which students can "
                 "reproduce\n";
  return seed;
}

}  // namespace

Command declare_package(CLI::App& gpulab) {
  struct Options {
    std::string gs_lab, gs_out, gs_seed;
    double gs_timeout_s = kGradescopeTimeoutS;
    PrairieLearnPackage pl;
    CLI::Option *gs_seed_opt = nullptr, *pl_seed_opt = nullptr;
    CLI::App *gs = nullptr, *pl_cmd = nullptr;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = gpulab.add_subcommand("package", "Package an autograder for a course platform");
  cmd->require_subcommand(1);
  o->gs = cmd->add_subcommand(
      "gradescope", "A Gradescope autograder zip for one lab (CPU backend: Gradescope has no GPU)");
  o->gs->add_option("lab", o->gs_lab, "Lab id")->required();
  o->gs->add_option("--out", o->gs_out, "The zip to write (autograder.zip)")->required();
  o->gs_seed_opt = add_hidden_seed_option(o->gs, o->gs_seed);
  add_platform_timeout_option(o->gs, o->gs_timeout_s,
                              "The assignment's autograder timeout on Gradescope");
  PrairieLearnPackage& pl = o->pl;
  o->pl_cmd = cmd->add_subcommand(
      "prairielearn", "A PrairieLearn question for one lab and its grader image (CPU backend)");
  o->pl_cmd->add_option("lab", pl.lab, "Lab id")->required();
  o->pl_cmd->add_option("--out", pl.out, "An empty folder: question/ and image/ go in it")
      ->required();
  o->pl_seed_opt = add_hidden_seed_option(o->pl_cmd, pl.hidden_seed);
  o->pl_cmd->add_option("--image-account", pl.image_account,
                        "The Docker Hub account or organization the course's PrairieLearn pulls "
                        "from: the image is ACCOUNT/gpulab-prairielearn:<version>");
  o->pl_cmd->add_option("--image", pl.image, "The image's whole name instead, ACCOUNT/NAME[:TAG]");
  add_platform_timeout_option(o->pl_cmd, pl.timeout_s,
                              "The question's timeout, which the package writes into info.json");
  return {cmd, [o] {
            if (o->gs->parsed()) {
              const auto seed = package_seed("gradescope", o->gs_seed_opt, o->gs_seed);
              return seed ? make_gradescope_package(o->gs_lab, *seed, o->gs_out, std::cout,
                                                    o->gs_timeout_s)
                          : kExitFailed;
            }
            const auto seed = package_seed("prairielearn", o->pl_seed_opt, o->pl.hidden_seed);
            if (!seed) return kExitFailed;
            o->pl.hidden_seed = *seed;
            return make_prairielearn_package(o->pl, std::cout);
          }};
}

}  // namespace gpulab
