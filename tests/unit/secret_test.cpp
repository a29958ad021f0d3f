// grader/files/secret.h: HMAC-SHA256 as RFC 4231 gives it, seeds and fingerprints drawn from the
// instructor's secret that tell secrets, purposes and names apart, and the secret's intake.
#include "files/secret.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <sstream>
#include <vector>

#include "test_util.h"

namespace {

using test::contains;

// A variable of the environment set for one scope, and unset after it.
struct ScopedEnv {
  ScopedEnv(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
  ~ScopedEnv() { unsetenv(name_); }
  const char* name_;
};

}  // namespace

TEST_CASE("HMAC-SHA256 and SHA-256 give RFC 4231's and FIPS 180's known answers") {
  // RFC 4231, test cases 1 and 2.
  CHECK(gpulab::to_hex(gpulab::hmac_sha256(std::string(20, '\x0b'), "Hi There")) ==
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  CHECK(gpulab::to_hex(gpulab::hmac_sha256("Jefe", "what do ya want for nothing?")) ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  // FIPS 180-2's "abc".
  CHECK(gpulab::to_hex(gpulab::sha256("abc")) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("secret seeds: the same inputs the same seed, any other input another") {
  const uint64_t s = gpulab::secret_seed("11", "gpulab hidden dataset", "tiny");
  // Deterministic: "--hidden-seed 11" means the same datasets every time.
  CHECK(gpulab::secret_seed("11", "gpulab hidden dataset", "tiny") == s);
  CHECK(gpulab::secret_seed("12", "gpulab hidden dataset", "tiny") != s);
  CHECK(gpulab::secret_seed("11", "gpulab hidden dataset", "small") != s);
  CHECK(gpulab::secret_seed("11", "gpulab timed sample", "tiny") != s);
  // Purpose and name are not run together: ("ab", "c") is not ("a", "bc").
  CHECK(gpulab::secret_seed("11", "ab", "c") != gpulab::secret_seed("11", "a", "bc"));
  // The first 8 bytes of HMAC-SHA256(secret, purpose NUL name), big-endian.
  const std::string mac =
      gpulab::hmac_sha256("11", std::string("gpulab hidden dataset") + '\0' + "tiny");
  uint64_t first = 0;
  for (int i = 0; i < 8; ++i) first = (first << 8) | static_cast<unsigned char>(mac[i]);
  CHECK(s == first);
}

TEST_CASE("a secret's fingerprint tells secrets apart and does not spell the secret") {
  const std::string secret = "0123456789abcdef0123";
  const std::string f = gpulab::secret_fingerprint(secret, "gpulab grade-all record");
  CHECK(f.size() == 64);
  CHECK(f.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK_FALSE(contains(f, secret));
  CHECK(f == gpulab::secret_fingerprint(secret, "gpulab grade-all record"));
  CHECK(f != gpulab::secret_fingerprint(secret + "4", "gpulab grade-all record"));
  CHECK(f != gpulab::secret_fingerprint(secret, "another purpose"));
}

TEST_CASE("the hidden seed: any non-empty text, from the option or the environment") {
  std::ostringstream warnings;
  {
    const ScopedEnv env("GPULAB_HIDDEN_SEED", "from the environment, long enough");
    CHECK(gpulab::hidden_secret(std::string("given on the command line"), warnings) ==
          "given on the command line");
    CHECK(gpulab::hidden_secret(std::nullopt, warnings) == "from the environment, long enough");
  }
  CHECK(warnings.str().empty());
  CHECK_FALSE(gpulab::hidden_secret(std::nullopt, warnings).has_value());
  {
    const ScopedEnv empty("GPULAB_HIDDEN_SEED", "");  // set but empty: not given
    CHECK_FALSE(gpulab::hidden_secret(std::nullopt, warnings).has_value());
  }
  CHECK_THROWS_WITH_AS(gpulab::hidden_secret(std::string(), warnings), doctest::Contains("empty"),
                       std::runtime_error);
  CHECK(warnings.str().empty());
  // Short: still used, with a warning that says how to make a good one.
  CHECK(gpulab::hidden_secret(std::string("11"), warnings) == "11");
  CHECK(contains(warnings.str(), "2 characters"));
  CHECK(contains(warnings.str(), "openssl rand -hex 16"));
  std::ostringstream at_length;
  gpulab::hidden_secret(std::string(gpulab::kGuessableSecretLength, 'x'), at_length);
  CHECK(at_length.str().empty());
}

TEST_CASE("public seeds: anyone's SHA-256 of the text") {
  CHECK(gpulab::public_seed("abc") == 0xba7816bf8f01cfeaull);
  CHECK(gpulab::public_seed("public/tiny") != gpulab::public_seed("hidden/tiny"));
}

TEST_CASE("the hidden seed's file: its bytes, but for one newline at the end; never empty") {
  test::TempDir tmp;
  test::write_file(tmp / "a", "seed with spaces\n");
  CHECK(gpulab::read_hidden_seed_file(tmp / "a") == "seed with spaces");  // echo S > file
  test::write_file(tmp / "b", "two-newlines\n\n");
  CHECK(gpulab::read_hidden_seed_file(tmp / "b") == "two-newlines\n");
  test::write_file(tmp / "c", "no-newline");
  CHECK(gpulab::read_hidden_seed_file(tmp / "c") == "no-newline");  // the packages' files
  test::write_file(tmp / "empty", "\n");
  CHECK_THROWS_WITH_AS(gpulab::read_hidden_seed_file(tmp / "empty"), doctest::Contains("is empty"),
                       std::runtime_error);
  CHECK_THROWS_WITH_AS(gpulab::read_hidden_seed_file(tmp / "missing"),
                       doctest::Contains((tmp / "missing").string().c_str()), std::runtime_error);
}

TEST_CASE("the secret options' values are blanked where the kernel shows the command line") {
  // argv as the kernel lays it out: one block of NUL-ended strings.
  const char raw[] = "gpulab\0grade\0--hidden-seed\0s3cret\0--seed=abc\0--out\0r.json\0";
  const char hidden[] = "gpulab\0grade\0--hidden-seed\0******\0--seed=***\0--out\0r.json\0";
  std::string block(raw, sizeof raw - 1);
  std::vector<char*> argv;
  for (size_t at = 0; at < block.size(); at += std::strlen(&block[at]) + 1)
    argv.push_back(&block[at]);
  gpulab::hide_secret_arguments(static_cast<int>(argv.size()), argv.data());
  CHECK(block == std::string(hidden, sizeof hidden - 1));
  // A secret option as the last word (no value) leaves everything else as it was.
  char name[] = "gpulab", last[] = "--hidden-seed";
  char* lone[] = {name, last};
  gpulab::hide_secret_arguments(2, lone);
  CHECK(std::string(last) == "--hidden-seed");
}
