#include "files/secret.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace gpulab {

namespace {

// The first 8 bytes of a digest, big-endian.
uint64_t first_word(const std::string& digest) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v = (v << 8) | static_cast<unsigned char>(digest[i]);
  return v;
}

}  // namespace

std::string hmac_sha256(std::string_view key, std::string_view message) {
  if (key.size() > INT_MAX) throw std::runtime_error("an HMAC key longer than 2 GiB");
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
            reinterpret_cast<const unsigned char*>(message.data()), message.size(), md, &len))
    throw std::runtime_error("OpenSSL's HMAC-SHA256 failed");
  return std::string(reinterpret_cast<const char*>(md), len);
}

std::string sha256(std::string_view data) {
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), md);
  return std::string(reinterpret_cast<const char*>(md), sizeof md);
}

std::string to_hex(std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string hex;
  for (const unsigned char c : bytes) {
    hex += digits[c >> 4];
    hex += digits[c & 15];
  }
  return hex;
}

uint64_t secret_seed(std::string_view secret, std::string_view purpose, std::string_view name) {
  // NUL between them: no (purpose, name) pair reads as another.
  std::string message(purpose);
  message += '\0';
  message += name;
  return first_word(hmac_sha256(secret, message));
}

std::string secret_fingerprint(std::string_view secret, std::string_view purpose) {
  return to_hex(hmac_sha256(secret, purpose));
}

uint64_t public_seed(std::string_view text) {
  return first_word(sha256(text));
}

std::optional<std::string> hidden_secret(const std::optional<std::string>& given,
                                         std::ostream& warnings) {
  std::optional<std::string> secret = given;
  if (secret && secret->empty())
    throw std::runtime_error("the hidden seed (--hidden-seed) is empty: give any non-empty text");
  if (!secret)
    if (const char* env = std::getenv(kHiddenSeedVariable); env && *env) secret = env;
  if (secret && secret->size() < kGuessableSecretLength)
    warnings << "warning (instructor): the hidden seed has " << secret->size()
             << " characters: a seed this short can be found by trying every one against a "
                "hidden dataset; use a long random one, e.g. `openssl rand -hex 16`\n";
  return secret;
}

std::string read_hidden_seed_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw std::runtime_error("cannot read the hidden seed's file " + file.string() + ": " +
                             std::strerror(errno));
  std::string secret{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (!secret.empty() && secret.back() == '\n') secret.pop_back();
  if (secret.empty())
    throw std::runtime_error("the hidden seed's file " + file.string() +
                             " is empty: write any non-empty text into it");
  return secret;
}

void hide_secret_arguments(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    for (const char* option : kSecretOptions) {
      const size_t n = std::strlen(option);
      char* value = nullptr;
      if (std::strcmp(argv[i], option) == 0 && i + 1 < argc)
        value = argv[i + 1];
      else if (std::strncmp(argv[i], option, n) == 0 && argv[i][n] == '=')
        value = argv[i] + n + 1;
      // In place: the kernel reads the command line from this memory.
      if (value) std::memset(value, '*', std::strlen(value));
    }
}

}  // namespace gpulab
