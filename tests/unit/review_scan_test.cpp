// grader/grade/review_scan.h and the table it reads (grader/core/review_flags.def): every flag is
// found where its patterns stand, as whole tokens of code or text in string literals; comments,
// literals and longer names hide nothing that is not there; line splices, adjacent literals, raw
// strings and #include's <header> read as the compiler reads them; token pasting and a #define
// of a flagged name are flagged; each flag is one site per file with a count; and any bytes give
// safe text without a throw.
#include "grade/review_scan.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>

#include "core/review_flags.h"
#include "test_util.h"
#include "text/safe_text.h"

namespace {

using gpulab::review_sites;
using gpulab::ReviewFlagSite;
using gpulab::ReviewWhere;
using Sites = std::vector<ReviewFlagSite>;

// The site of `flag` among `sites`; null where there is none.
const ReviewFlagSite* site_of(const Sites& sites, const std::string& flag) {
  for (const auto& s : sites)
    if (s.flag == flag) return &s;
  return nullptr;
}

std::set<std::string> flags_of(const Sites& sites) {
  std::set<std::string> flags;
  for (const auto& s : sites) flags.insert(s.flag);
  return flags;
}

// A flag's patterns, one by one.
std::vector<std::string> patterns_of(const gpulab::ReviewFlag& f) {
  std::vector<std::string> all;
  std::string one;
  for (const char* c = f.patterns;; ++c) {
    if (*c == ' ' || *c == '\0') {
      if (!one.empty()) all.push_back(one);
      one.clear();
      if (*c == '\0') return all;
    } else {
      one += *c;
    }
  }
}

// The names in the table's code patterns: close(0) holds close, std::thread std and thread.
std::vector<std::string> flagged_names() {
  std::vector<std::string> names;
  for (const auto& f : gpulab::review_flags()) {
    if (f.where != ReviewWhere::kCode) continue;
    for (const auto& p : patterns_of(f)) {
      std::string word;
      for (const char c : p + " ") {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
          word += c;
        } else {
          if (!word.empty() && !std::isdigit(static_cast<unsigned char>(word[0])))
            names.push_back(word);
          word.clear();
        }
      }
    }
  }
  return names;
}

}  // namespace

TEST_CASE("review flags: each has an id of its own, a name without a comma, a reason, patterns") {
  std::set<std::string> ids, names;
  for (const auto& f : gpulab::review_flags()) {
    CAPTURE(f.id);
    CHECK(ids.insert(f.id).second);
    CHECK(names.insert(f.name).second);
    CHECK(std::string(f.name).find(',') == std::string::npos);
    CHECK(std::string(f.why).size() > 20);
    CHECK(patterns_of(f).empty() == (f.where == ReviewWhere::kDefine));
    CHECK(gpulab::review_flag(f.id) == &f);
  }
  CHECK(gpulab::review_flag("no_such_flag") == nullptr);
  // What the issue asks for at least, each by one of its patterns.
  for (const char* id :
       {"exit_handler", "startup_code", "thread", "process", "loaded_code", "raw_syscall",
        "inline_asm", "signal", "proc_path", "dev_path", "sys_path", "descriptor", "special_file",
        "environment", "code_at_run_time", "other_process", "token_pasting", "flagged_macro"})
    CHECK_MESSAGE(gpulab::review_flag(id) != nullptr, id);
}

TEST_CASE("review scan: every pattern of the table raises its flag, at its line, once") {
  for (const auto& f : gpulab::review_flags()) {
    for (const auto& pattern : patterns_of(f)) {
      CAPTURE(f.id);
      CAPTURE(pattern);
      const std::string line =
          f.where == ReviewWhere::kText ? "const char* p = \"x" + pattern + "y\";" : pattern + ";";
      const std::string code = "int before;\n  " + line + "\n";
      const Sites sites = review_sites("lab.cu", code);
      const ReviewFlagSite* s = site_of(sites, f.id);
      REQUIRE(s != nullptr);
      CHECK(s->file == "lab.cu");
      CHECK(s->line == 2);
      CHECK(s->count == 1);
      // A literal is shown whole (up to 40 bytes), a code pattern as it matched.
      CHECK(s->matched == (f.where == ReviewWhere::kText ? "\"x" + pattern + "y\"" : pattern));
      CHECK(s->source == line);
    }
  }
}

TEST_CASE("review scan: a #define of any name a code pattern holds is flagged; others are not") {
  const auto names = flagged_names();
  REQUIRE(names.size() > 50);
  for (const auto& name : names) {
    CAPTURE(name);
    const Sites sites = review_sites("lab.cu", "int x;\n#define " + name + " other\n");
    const ReviewFlagSite* s = site_of(sites, "flagged_macro");
    REQUIRE(s != nullptr);
    CHECK(s->line == 2);
    CHECK(s->matched == "#define " + name);
  }
  // Spaces after the #, a digraph for it: still a directive.
  CHECK(site_of(review_sites("a.cu", "  #  define getenv mine\n"), "flagged_macro"));
  CHECK(site_of(review_sites("a.cu", "%:define fork spoon\n"), "flagged_macro"));
  CHECK(review_sites("a.cu", "#define N 1024\n#define kThreads 256\n#define GETENV 1\n").empty());
  // define where no directive begins is not one.
  CHECK_FALSE(site_of(review_sites("a.cu", "int a = b # define getenv\n"), "flagged_macro"));
}

TEST_CASE("review scan: token pasting is flagged, ## and its digraph, not # alone") {
  const Sites pasted = review_sites("a.cu", "#define CAT(a, b) a##b\nCAT(ate, xit)(f);\n");
  const ReviewFlagSite* s = site_of(pasted, "token_pasting");
  REQUIRE(s != nullptr);
  CHECK(s->line == 1);
  CHECK(s->matched == "##");
  CHECK(site_of(review_sites("a.cu", "#define CAT(a, b) a %:%: b\n"), "token_pasting"));
  CHECK(review_sites("a.cu", "#define STR(a) #a\n#include <cstdio>\n").empty());
}

TEST_CASE("review scan: comments and string literals hide code; comments hide text") {
  const std::string hidden =
      "// atexit(f); getenv(\"X\"); \"/proc/self\"\n"
      "/* fork();\n   syscall(SYS_gettid); \"/dev/fd/5\" */ int a;\n"
      "const char* s = \"fork() dup2(3, 4) std::thread\";\n"
      "const char* t = R\"x(atexit(f); \")\" still inside)x\";\n"
      "char c = '#'; char d = '\\'';\n"
      "const char* u = u8\"kill(0, 9)\" L\"getenv\";\n";
  CHECK(review_sites("a.cu", hidden).empty());
  // The code after each of them is read.
  const Sites after = review_sites("a.cu", hidden + "getenv(\"HOME\");\n");
  REQUIRE(after.size() == 1);
  CHECK(after[0].flag == "environment");
  CHECK(after[0].line == 8);
}

TEST_CASE("review scan: a pattern matches whole tokens, not inside longer names or numbers") {
  const std::string honest =
      "int thread = threadIdx.x;  thread_local int t;\n"
      "cudaMemcpyAsync(d, h, n, kind, stream); bool async = true;\n"
      "int my_getenv(); int getenv_s; int forked, kill_count, raise_x;\n"
      "close(fd); x.closer(3); close(3 + fd); int closed = 0x3close;\n"
      "struct Clock { int constructor_count; }; asm_helper(); int kSyscall = 0;\n"
      "obj.environment = 1; int signalled = 0; int socket_count = 2;\n"
      "std::threads t; mystd::thread u; int dup_count; int dup2x;\n";
  const Sites sites = review_sites("a.cu", honest);
  CHECK_MESSAGE(sites.empty(), (sites.empty() ? "" : sites[0].flag + ": " + sites[0].matched));
  // Whatever the blanks and namespaces around them.
  CHECK(site_of(review_sites("a.cu", "::std :: thread t(work);\n"), "thread"));
  CHECK(site_of(review_sites("a.cu", "std::getenv(\"X\");\n"), "environment"));
  CHECK(site_of(review_sites("a.cu", "if (close( 10 )) {}\n"), "descriptor"));
  CHECK(site_of(review_sites("a.cu", "__asm__ volatile(\"rdtsc\");\n"), "inline_asm"));
  CHECK(site_of(review_sites("a.cu", "__attribute__((destructor)) void f() {}\n"), "startup_code"));
}

TEST_CASE("review scan: line splices join what they split, as the compiler reads them") {
  // A name cut in two, a splice with blanks before its newline (GCC takes it), a // comment
  // that goes on to the next line, a directive over two lines.
  const std::string text =
      "int a; ate\\\nxit(f);\n"                      // lines 1-2: atexit, at line 1
      "get\\  \nenv(\"X\");\n"                       // lines 3-4: getenv, at line 3
      "// a comment \\\nfork();\n"                   // lines 5-6: fork is in the comment
      "#define SPAWN \\\n  popen(\"ls\", \"r\")\n";  // lines 7-8: popen, at line 8
  const Sites sites = review_sites("a.cu", text);
  CHECK(flags_of(sites) == std::set<std::string>{"exit_handler", "environment", "process"});
  REQUIRE(site_of(sites, "exit_handler"));
  CHECK(site_of(sites, "exit_handler")->line == 1);
  CHECK(site_of(sites, "exit_handler")->matched == "atexit");
  CHECK(site_of(sites, "environment")->line == 3);
  CHECK(site_of(sites, "process")->line == 8);
  CHECK(site_of(sites, "process")->matched == "popen");
  // CRLF lines splice too.
  CHECK(site_of(review_sites("a.cu", "int a;\r\nfo\\\r\nrk();\r\n"), "process"));
}

TEST_CASE("review scan: text in adjacent literals is joined, raw strings and <headers> are read") {
  const Sites joined =
      review_sites("a.cu", "int a;\nconst char* p = \"/pr\"\n  \"oc/self/maps\";\n");
  const ReviewFlagSite* s = site_of(joined, "proc_path");
  REQUIRE(s != nullptr);
  CHECK(s->line == 2);
  CHECK(s->source == "const char* p = \"/pr\"");
  CHECK(s->matched == "\"/proc/self/maps\"");
  // Where the text starts in the second literal, that literal's line.
  const Sites second = review_sites("a.cu", "const char* p = \"x\"\n  \"/sys/class\";\n");
  REQUIRE(site_of(second, "sys_path"));
  CHECK(site_of(second, "sys_path")->line == 2);
  // A raw string over lines: the line where the text stands.
  const Sites raw = review_sites("a.cu", "auto r = R\"d(line one\n/dev/fd/5 )\" \n)d\";\n");
  REQUIRE(site_of(raw, "dev_path"));
  CHECK(site_of(raw, "dev_path")->line == 2);
  CHECK(site_of(raw, "dev_path")->matched == "\"line one /dev/fd/5 )\"  \"");  // on one line
  // A long literal: its first 40 bytes.
  const Sites long_literal =
      review_sites("a.cu", "auto p = \"/dev/" + std::string(100, 'x') + "\";\n");
  REQUIRE(site_of(long_literal, "dev_path"));
  CHECK(site_of(long_literal, "dev_path")->matched == "\"/dev/" + std::string(35, 'x') + "...\"");
  CHECK(site_of(review_sites("a.cu", "#include </dev/zero>\n"), "dev_path"));
  CHECK(site_of(review_sites("a.cu", "#include \"/proc/self/environ\"\n"), "proc_path"));
  CHECK(site_of(review_sites("a.cu", "FILE* f = fopen(\"out/result.json\", \"w\");\n"),
                "runner_record"));
  // A header's name is not code: <sys/syscall.h>, <signal.h> name no call.
  CHECK(review_sites("a.cu", "#include <sys/syscall.h>\n#include <signal.h>\n#include <thread>\n")
            .empty());
  // A character literal is no string: '/' "proc" is no path.
  CHECK(review_sites("a.cu", "f('/' \"proc\");\n").empty());
}

TEST_CASE("review scan: a flag is one site per file, at its first place, with its count") {
  std::string text = "int before;\n";
  for (int i = 0; i < 40; ++i) text += "  v += std::getenv(\"K" + std::to_string(i) + "\") != 0;\n";
  text += "std::atexit(done);\n";
  const Sites sites = review_sites("scan.cu", text);
  REQUIRE(sites.size() == 2);
  CHECK(sites[0].flag == "environment");
  CHECK(sites[0].line == 2);
  CHECK(sites[0].count == 40);
  CHECK(sites[0].source == "v += std::getenv(\"K0\") != 0;");
  CHECK(sites[1].flag == "exit_handler");
  CHECK(sites[1].line == 42);
  CHECK(sites[1].count == 1);
  // In the order of their first places, whatever the table's order.
  const Sites ordered = review_sites("a.cu", "getenv(\"X\");\nfork();\natexit(f);\n");
  REQUIRE(ordered.size() == 3);
  CHECK(ordered[0].flag == "environment");
  CHECK(ordered[1].flag == "process");
  CHECK(ordered[2].flag == "exit_handler");
}

TEST_CASE("review scan: the line kept is trimmed, cut short and safe text") {
  const std::string long_line = "\t  getenv(\"X\"); // " + std::string(500, 'x') + "  \r\n";
  const Sites sites = review_sites("a.cu", long_line);
  REQUIRE(sites.size() == 1);
  CHECK(sites[0].source.rfind("getenv(\"X\"); // xxx", 0) == 0);
  CHECK(sites[0].source.size() <= gpulab::kReviewLineLimit + 3);
  CHECK(sites[0].source.substr(sites[0].source.size() - 3) == "...");
  // Escapes, a NUL, bytes that are not UTF-8 and a lone carriage return on the line.
  const std::string hostile = "fork(); /* \x1b[31m " + std::string(1, '\0') + " \xff\xfe \r */\n";
  const Sites h = review_sites("a\xff.cu", hostile);
  REQUIRE(h.size() == 1);
  CHECK(gpulab::is_safe_text(h[0].source));
  CHECK(gpulab::is_safe_text(h[0].file));
  CHECK(h[0].source.find("\\x1b[31m") != std::string::npos);
  CHECK(h[0].source.find('\n') == std::string::npos);
}

TEST_CASE("review scan: any bytes are taken, and what comes back is safe text") {
  std::vector<std::string> inputs = {
      "",
      "\\",
      "R\"",
      "R\"abc",
      "R\"(unterminated",
      "\"unterminated",
      "'",
      "/* unterminated",
      "#",
      "#define",
      "#include <",
      "%:",
      "%:%",
      "0x",
      "1'",
      ".5e+",
      std::string("getenv\0(\"/proc\")", 16),
      std::string(1 << 20, '\0'),
      std::string(1 << 20, '\xff') + "fork();",
  };
  // Pathological repetitions: each must take time linear in its size.
  for (const std::string piece : {"R\"", "\\ ", "\\\n", "/*", "\"", "'", "#include <",
                                  "%:%:", "u8R\"abcdefghijklmnopq(", "std::"})
    inputs.push_back([&] {
      std::string s;
      while (s.size() < (1u << 19)) s += piece;
      return s + "\ngetenv(\"X\");\n";
    }());
  // A megabyte on one line, with a flag in its middle.
  const std::string one_line =
      std::string(1 << 19, 'a') + " atexit(f); " + std::string(1 << 19, 'b');
  inputs.push_back(one_line);
  // Random bytes and tokens.
  std::mt19937 rng(7);
  const std::vector<std::string> words = {
      "getenv", "(",     "\"", "/proc",  "R\"x(", ")x\"", "\\\n", "//",   "/*",
      "*/",     "\n",    "#",  "define", "##",    "'",    "\xc3", "\x80", std::string(1, '\0'),
      "fork",   "close", "3",  ")"};
  for (int n = 0; n < 200; ++n) {
    std::string s;
    for (int i = 0; i < 400; ++i)
      s += rng() % 3 ? words[rng() % words.size()] : std::string(1, static_cast<char>(rng()));
    inputs.push_back(s);
  }
  for (const auto& input : inputs) {
    Sites sites;
    REQUIRE_NOTHROW(sites = review_sites("lab.cu", input));
    for (const auto& s : sites) {
      CHECK(gpulab::review_flag(s.flag) != nullptr);
      CHECK(s.line >= 1);
      CHECK(s.count >= 1);
      CHECK(gpulab::is_safe_text(s.source));
      CHECK(gpulab::is_safe_text(s.matched));
      CHECK(s.source.size() <= gpulab::kReviewLineLimit + 3);
    }
  }
  const Sites long_line = review_sites("a.cu", one_line);
  REQUIRE(site_of(long_line, "exit_handler"));
  CHECK(site_of(long_line, "exit_handler")->source.size() == gpulab::kReviewLineLimit + 3);
}

TEST_CASE("review_submission: the lab's files that are there, in the lab's order") {
  test::TempDir dir;
  test::write_file(dir / "kernel.cu", "int x;\nfork();\n");
  test::write_file(dir / "host.cpp", "getenv(\"X\");\n");
  test::write_file(dir / "notes.cpp", "atexit(f);\n");  // not a student file
  const Sites sites = gpulab::review_submission(dir.path(), {"host.cpp", "kernel.cu", "gone.cu"});
  REQUIRE(sites.size() == 2);
  CHECK(sites[0].file == "host.cpp");
  CHECK(sites[0].flag == "environment");
  CHECK(sites[1].file == "kernel.cu");
  CHECK(sites[1].line == 2);
  // A link is not read (intake takes none in; this never follows one).
  std::filesystem::create_symlink(dir / "notes.cpp", dir / "linked.cu");
  CHECK(gpulab::review_submission(dir.path(), {"linked.cu"}).empty());
}
