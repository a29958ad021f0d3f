// The instructor's hidden seed is a secret: every value the grader draws from it (the seeds of
// hidden datasets and of timed samples, grade-all's record of it) goes through HMAC-SHA256
// (OpenSSL's libcrypto), a keyed one-way function, so no such value, seen by a student, gives
// the secret back, nor any other value drawn from it. Public values (a cache entry's name, the
// CPU backend's block order) come from SHA-256 of public text.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace gpulab {

// Raw digests, 32 bytes each.
std::string hmac_sha256(std::string_view key, std::string_view message);
std::string sha256(std::string_view data);
std::string to_hex(std::string_view bytes);

// A 64-bit seed for `name` drawn from `secret` for one `purpose` (what the seed is for: the
// same name gets unrelated seeds for different purposes): the first 8 bytes of
// HMAC-SHA256(secret, purpose NUL name).
uint64_t secret_seed(std::string_view secret, std::string_view purpose, std::string_view name);

// A record of the secret that tells secrets apart and gives none back: hex HMAC-SHA256 of the
// purpose under the secret.
std::string secret_fingerprint(std::string_view secret, std::string_view purpose);

// A 64-bit number anyone can compute from public text (the first 8 bytes of its SHA-256).
uint64_t public_seed(std::string_view text);

// Shorter secrets than this can be found by trying them all against one hidden dataset.
constexpr size_t kGuessableSecretLength = 16;

// Where the instructor's secret may be given instead of --hidden-seed: the environment, which
// other users cannot read, where a command line can be (ps).
inline constexpr const char kHiddenSeedVariable[] = "GPULAB_HIDDEN_SEED";

// The instructor's secret: `given` (--hidden-seed), else GPULAB_HIDDEN_SEED, else none. Any
// non-empty text; an integer is the same text every time. Throws when `given` is empty. Writes
// a warning to `warnings` when the secret is shorter than kGuessableSecretLength.
std::optional<std::string> hidden_secret(const std::optional<std::string>& given,
                                         std::ostream& warnings);

// The secret from a file of its own (gpulab grade --hidden-seed-file: the course platforms'
// packages keep it so, where only root may read it): its bytes, but for one newline at the end
// (`echo S > file` means S). Throws, naming the file, where it cannot be read or is empty.
std::string read_hidden_seed_file(const std::filesystem::path& file);

// The secret's file beside what runs without the instructor there: a course platform's package
// (Gradescope's) and a SLURM plan's folder, each readable by its owner alone.
inline constexpr const char kHiddenSeedFileName[] = "hidden-seed";

// The options whose value is the secret: gpulab grade's, grade-all's and package's
// --hidden-seed, gpulab datasets' --seed.
inline constexpr const char* kSecretOptions[] = {"--hidden-seed", "--seed"};

// Blanks (with '*') the value of each of kSecretOptions in `argv`, the memory the kernel shows
// every user as this process's command line (/proc/<pid>/cmdline, ps): called once the command
// line is parsed, so that no process that runs later, student code run outside the sandbox
// among them, can read the secret there. "--hidden-seed S" and "--hidden-seed=S" alike.
void hide_secret_arguments(int argc, char** argv);

}  // namespace gpulab
