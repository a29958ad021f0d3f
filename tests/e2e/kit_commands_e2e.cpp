// The rest of the student's commands, in the unpacked kit as a student types them: --version,
// --help with its environment variables and exit statuses, sim-cc --help, the bash completion
// script, the dataset cache shown and cleared, run --keep-outputs leaving the outputs beside
// the expected ones, and figures without the bench records the kit does not ship. (Each is tested
// in depth on the build tree: help_e2e.cpp, completion_e2e.cpp, datasets_e2e.cpp.)
#include <doctest/doctest.h>

#include "e2e_util.h"
#include "os/exit_status.h"
#include "student_kit.h"

using namespace e2e;

TEST_SUITE("student-kit") {
  TEST_CASE("the kit's gpulab answers --version, --help, sim-cc --help, completion and cache") {
    const StudentKit& kit = student_kit();
    const std::string gpulab = kit.gpulab.string();
    const auto version = run_in_kit({gpulab, "--version"});
    CHECK(version.exit_code == 0);
    CHECK(said(version, "gpulab "));
    const auto help = run_in_kit({gpulab, "--help"});
    CHECK(help.exit_code == 0);
    CHECK(said(help, "GPULAB_CACHE_DIR"));
    CHECK(said(help, "Exit status:"));
    const auto cc_help = run_in_kit({gpulab, "sim-cc", "--help"});
    CHECK(cc_help.exit_code == 0);
    CHECK(said(cc_help, "-o"));
    const auto completion = run_in_kit(
        {"bash", "-c", "source <(\"$0\" completion bash) && complete -p gpulab", gpulab});
    INFO(completion.output);
    CHECK(completion.exit_code == 0);
    const auto labs = run_in_kit({gpulab, "__complete", "run", ""});
    CHECK(said(labs, "scatter-gather"));

    // A run fills the kit's cache; cache shows it and clears it.
    const auto run = run_in_kit({gpulab, "run", "scatter-gather", "--part", "cpu_fast", "--dataset",
                                 "tiny", "--keep-outputs", "kept"});
    INFO(run.output);
    CHECK(run.exit_code == 2);  // the stub
    CHECK(fs::is_regular_file(kit.kit / "kept" / "cpu_fast" / "tiny" / "potential.npy"));
    CHECK(fs::is_regular_file(kit.kit / "kept" / "cpu_fast" / "tiny" / "potential.expected.npy"));
    const auto shown = run_in_kit({gpulab, "cache"});
    INFO(shown.output);
    CHECK(shown.exit_code == 0);
    CHECK(said(shown, "scatter-gather"));
    const auto cleared = run_in_kit({gpulab, "cache", "--clear", "--lab", "scatter-gather"});
    INFO(cleared.output);
    CHECK(cleared.exit_code == 0);
    const auto after = run_in_kit({gpulab, "cache"});
    CHECK_FALSE(said(after, "scatter-gather"));
    fs::remove_all(kit.kit / "kept");
  }

  // The kit ships the handouts' bench plots drawn, not the GPU measurements they are drawn from
  // (docs/bench/): figures draws the rest and says what each of those needs.
  TEST_CASE("the kit's gpulab figures draws what it can and names what a bench plot needs") {
    const StudentKit& kit = student_kit();
    const fs::path out = kit.root / "figures";
    const auto histogram =
        run_in_kit({kit.gpulab.string(), "figures", "histogram", "--out", out.string()});
    INFO(histogram.output);
    CHECK(histogram.exit_code == 0);
    CHECK(fs::is_regular_file(out / "skewed-counts.svg"));
    CHECK(fs::is_regular_file(out / "find-starts.png"));
    CHECK_FALSE(fs::exists(out / "contention.svg"));
    CHECK(said(histogram, "contention is not drawn"));
    CHECK(said(histogram, "--sweep contention --json docs/bench/histogram/contention.json"));
    // A lab whose figures are all bench plots draws none: that is an error, saying why.
    const auto coarsening =
        run_in_kit({kit.gpulab.string(), "figures", "coarsening", "--out", out.string()});
    INFO(coarsening.output);
    CHECK(coarsening.exit_code == gpulab::kExitFailed);
    CHECK(said(coarsening, "points-per-thread is not drawn"));
  }
}
