// The rewriter on strings: CUDA source in, the rewritten text out (sim/README.md, "The
// contract"). Parsed against parse_stub/ (a minimal sim.h), so that these tests pin the
// rewriter alone.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "rewrite.h"

namespace {

struct Rewritten {
  bool ok;
  std::string body;  // the text after the three preamble lines
  std::string preamble;
  std::string diagnostics;
};

Rewritten run(const std::string& code) {
  gpulab_sim_rewrite::Result r = gpulab_sim_rewrite::rewrite(
      code, "/virtual/student.cu", GPULAB_TEST_PARSE_STUB, {"-isystem", GPULAB_SIM_INCLUDE_DIR});
  Rewritten out{r.ok, "", "", r.diagnostics};
  size_t at = 0;
  for (int line = 0; line < 3 && at != std::string::npos; ++line) {
    at = r.text.find('\n', at);
    if (at != std::string::npos) ++at;
  }
  if (r.ok && at != std::string::npos) {
    out.preamble = r.text.substr(0, at);
    out.body = r.text.substr(at);
  }
  return out;
}

std::string rewrite(const std::string& code) {
  Rewritten r = run(code);
  INFO(r.diagnostics);
  REQUIRE(r.ok);
  return r.body;
}

// Against the runtime's own headers: which launches are barrier-free depends on the functions
// that __syncthreads and the warp operations become there.
std::string rewrite_with_runtime(const std::string& code) {
  gpulab_sim_rewrite::Result r =
      gpulab_sim_rewrite::rewrite(code, "/virtual/student.cu", GPULAB_SIM_INCLUDE_DIR, {});
  INFO(r.diagnostics);
  REQUIRE(r.ok);
  return r.text;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const char* const kernel = "__global__ void k(float* p, int n) {}\n";

}  // namespace

TEST_SUITE("rewriter") {
  TEST_CASE("the preamble includes sim.h, tags the file and restarts its line numbers") {
    Rewritten r = run(kernel);
    REQUIRE(r.ok);
    CHECK(r.preamble ==
          "#include <gpulab_sim/sim.h>\n"
          "[[maybe_unused]] static char gpulab_sim_tu;  // keys this file's shared variables\n"
          "#line 1 \"/virtual/student.cu\"\n");
    CHECK(r.body == kernel);
  }

  TEST_CASE("launches with two, three and four configuration arguments") {
    std::string out = rewrite(std::string(kernel) +
                              "void host(float* p, cudaStream_t s) {\n"
                              "  k<<<4, 256>>>(p, 10);\n"
                              "  k<<<dim3(2, 2), dim3(16, 16), 128>>>(p, 10);\n"
                              "  k<<<1, 32, 0, s>>>(p, 10);\n"
                              "}\n");
    CHECK(out ==
          std::string(kernel) +
              "void host(float* p, cudaStream_t s) {\n"
              "  ::gpulab_sim::launch_barrier_free(__FILE__, __LINE__, 4, 256, 0, 0, [&](auto&&... "
              "gpulab_a) { k(gpulab_a...); }, p, 10);\n"
              "  ::gpulab_sim::launch_barrier_free(__FILE__, __LINE__, dim3(2, 2), dim3(16, 16), "
              "128, 0, "
              "[&](auto&&... gpulab_a) { k(gpulab_a...); }, p, 10);\n"
              "  ::gpulab_sim::launch_barrier_free(__FILE__, __LINE__, 1, 32, 0, s, [&](auto&&... "
              "gpulab_a) { k(gpulab_a...); }, p, 10);\n"
              "}\n");
  }

  TEST_CASE("a launch over several lines keeps every line where it was") {
    std::string out = rewrite(std::string(kernel) +
                              "void host(float* p) {\n"
                              "  k\n"
                              "      <<<1,\n"
                              "         2>>>(p,\n"
                              "              3);\n"
                              "}\n");
    CHECK(out == std::string(kernel) +
                     "void host(float* p) {\n"
                     "  ::gpulab_sim::launch_barrier_free(__FILE__, __LINE__, \n"
                     "1,\n"
                     "         2, 0, 0, [&](auto&&... gpulab_a) { k(gpulab_a...); }, p,\n"
                     "              3);\n"
                     "}\n");
  }

  TEST_CASE("template kernels: explicit and deduced arguments; a launch without arguments") {
    std::string out = rewrite(
        "template <int B, class T> __global__ void t(T* p) {}\n"
        "__global__ void none() {}\n"
        "void host(float* p) { t<64, float><<<1, 64>>>(p); t<32><<<1, 32>>>(p); "
        "none<<<1, 1>>>(); }\n");
    CHECK(contains(out, "[&](auto&&... gpulab_a) { t<64, float>(gpulab_a...); }, p);"));
    CHECK(contains(out, "[&](auto&&... gpulab_a) { t<32>(gpulab_a...); }, p);"));
    CHECK(contains(out, "1, 1, 0, 0, [&](auto&&... gpulab_a) { none(gpulab_a...); })"));
  }

  TEST_CASE("a launch in a template host function is rewritten once, in the pattern") {
    std::string out = rewrite(std::string(kernel) +
                              "template <class T> void run(T* p) { k<<<1, 1>>>(p, 1); }\n"
                              "void host(float* p) { run(p); run<float>(p); }\n");
    CHECK(
        contains(out,
                 "template <class T> void run(T* p) { ::gpulab_sim::launch_barrier_free(__FILE__, "
                 "__LINE__, 1, 1, 0, 0, [&](auto&&... gpulab_a) { k(gpulab_a...); }, p, "
                 "1); }\n"));
  }

  TEST_CASE("macros and lambdas in launch arguments, and a launch inside a macro") {
    std::string out = rewrite(std::string(kernel) +
                              "#define BLOCKS(n) (((n) + 255) / 256)\n"
                              "#define GO(kern, n, ...) kern<<<BLOCKS(n), 256>>>(__VA_ARGS__)\n"
                              "void host(float* p, int n) {\n"
                              "  auto f = [&](int x) { return x + n; };\n"
                              "  k<<<BLOCKS(n), 256>>>(p, f(BLOCKS(3)));\n"
                              "  GO(k, n, p, n);\n"
                              "  GO(k, 2 * n, p, 2 * n);\n"
                              "}\n");
    CHECK(contains(out,
                   "#define GO(kern, n, ...) ::gpulab_sim::launch(__FILE__, __LINE__, "
                   "BLOCKS(n), 256, 0, 0, [&](auto&&... gpulab_a) { kern(gpulab_a...); }, "
                   "__VA_ARGS__)\n"));
    CHECK(contains(out,
                   "  ::gpulab_sim::launch_barrier_free(__FILE__, __LINE__, BLOCKS(n), 256, 0, 0, "
                   "[&](auto&&... gpulab_a) { k(gpulab_a...); }, p, f(BLOCKS(3)));\n"));
    CHECK(contains(out, "  GO(k, n, p, n);\n  GO(k, 2 * n, p, 2 * n);\n"));
  }

  TEST_CASE(
      "barrier-free kernels are launched as such; any barrier, warp operation or shared "
      "variable, in the kernel or in what it calls, or a call the rewriter cannot see "
      "into, makes a plain launch") {
    const char* head =
        "__device__ float twice(float x) { return 2 * x; }\n"
        "__device__ void wait() { __syncthreads(); }\n"
        "__device__ float extern_fn(float);\n";
    struct Case {
      const char* kernel;
      bool free;
    } cases[] = {
        {"__global__ void k(float* p) { p[threadIdx.x] = twice(p[threadIdx.x]) + sqrtf(1.0f); "
         "atomicAdd(p, 1.0f); }",
         true},
        {"__global__ void k(float* p) { auto f = [](float x) { return twice(x); }; p[0] = f(1); }",
         true},
        {"__global__ void k(float* p) { p[0] = 1; __syncthreads(); }", false},
        {"__global__ void k(float* p) { wait(); p[0] = 1; }", false},
        {"__global__ void k(float* p) { auto f = [] { wait(); }; f(); p[0] = 1; }", false},
        {"__global__ void k(float* p) { p[0] = __shfl_down_sync(0xffffffff, p[0], 1); }", false},
        {"__global__ void k(float* p) { p[0] = __ballot_sync(0xffffffff, p[0] > 0); }", false},
        {"__global__ void k(float* p) { __syncwarp(); p[0] = 1; }", false},
        {"__global__ void k(float* p) { __shared__ float s[32]; s[0] = 1; p[0] = s[0]; }", false},
        {"__global__ void k(float* p) { extern __shared__ float s[]; p[0] = s[0]; }", false},
        {"__global__ void k(float* p) { p[0] = extern_fn(1); }", false},
        {"__global__ void k(float* p, float (*f)(float)) { p[0] = f(1); }", false},
    };
    for (const Case& c : cases) {
      const std::string kernel_text = c.kernel;
      CAPTURE(kernel_text);
      const bool has_fp = std::string(c.kernel).find("(*f)") != std::string::npos;
      std::string out =
          rewrite_with_runtime(std::string(head) + c.kernel +
                               (has_fp ? "\nvoid host(float* p) { k<<<1, 32>>>(p, nullptr); }\n"
                                       : "\nvoid host(float* p) { k<<<1, 32>>>(p); }\n"));
      CHECK(contains(out, "::gpulab_sim::launch_barrier_free(__FILE__") == c.free);
      CHECK(contains(out, "::gpulab_sim::launch(__FILE__") == !c.free);
    }
  }

  TEST_CASE("a template kernel is judged by the instance launched") {
    std::string out = rewrite_with_runtime(
        "template <bool kSync> __global__ void k(float* p) { if (kSync) __syncthreads(); p[0] = "
        "1; }\n"
        "template <class T> __global__ void plain(T* p) { p[0] = 1; }\n"
        "void host(float* p) { k<false><<<1, 32>>>(p); plain<<<1, 32>>>(p); }\n");
    // k<false> still calls __syncthreads (under an `if` the scan does not evaluate): not free.
    CHECK(contains(out,
                   "::gpulab_sim::launch(__FILE__, __LINE__, 1, 32, 0, 0, [&](auto&&... "
                   "gpulab_a) { k<false>(gpulab_a...); }"));
    CHECK(contains(out,
                   "::gpulab_sim::launch_barrier_free(__FILE__, __LINE__, 1, 32, 0, 0, "
                   "[&](auto&&... gpulab_a) { plain(gpulab_a...); }"));
  }

  TEST_CASE("static __shared__ declarations, with dependent sizes, numbered in file order") {
    std::string out = rewrite(
        "template <int B, class T> __global__ void t(T* p) {\n"
        "  __shared__ T s[B];\n"
        "  __shared__ float tile[16][17], one;\n"
        "  static __shared__ int count;\n"
        "}\n");
    CHECK(out ==
          "template <int B, class T> __global__ void t(T* p) {\n"
          "  auto& s = ::gpulab_sim::shared<T[B]>(&gpulab_sim_tu, 0, \"s\", __FILE__, "
          "__LINE__);\n"
          "  auto& tile = ::gpulab_sim::shared<float[16][17]>(&gpulab_sim_tu, 1, \"tile\", "
          "__FILE__, __LINE__); auto& one = ::gpulab_sim::shared<float>(&gpulab_sim_tu, 2, "
          "\"one\", __FILE__, __LINE__);\n"
          "  auto& count = ::gpulab_sim::shared<int>(&gpulab_sim_tu, 3, \"count\", __FILE__, "
          "__LINE__);\n"
          "}\n");
  }

  TEST_CASE("extern __shared__ becomes the launch's dynamic shared memory") {
    std::string out = rewrite(
        "__global__ void k() {\n"
        "  extern __shared__ __align__(16) unsigned char raw[];\n"
        "  extern __shared__ float buf[];\n"
        "}\n");
    CHECK(out ==
          "__global__ void k() {\n"
          "  unsigned char* raw = ::gpulab_sim::dynamic_shared<unsigned char>(__FILE__, "
          "__LINE__);\n"
          "  float* buf = ::gpulab_sim::dynamic_shared<float>(__FILE__, __LINE__);\n"
          "}\n");
  }

  TEST_CASE("namespace-scope __device__ and __constant__ variables are registered") {
    std::string out = rewrite(
        "__constant__ float coef[16];\n"
        "__device__ int a, b = 3;\n"
        "extern __device__ int elsewhere;\n"
        "namespace n { __device__ double d; }\n");
    CHECK(out ==
          "__constant__ float coef[16]; static ::gpulab_sim::symbol gpulab_sim_sym_0(&coef, "
          "sizeof(coef), \"coef\");\n"
          "__device__ int a, b = 3; static ::gpulab_sim::symbol gpulab_sim_sym_1(&a, sizeof(a), "
          "\"a\"); static ::gpulab_sim::symbol gpulab_sim_sym_2(&b, sizeof(b), \"b\");\n"
          "extern __device__ int elsewhere;\n"
          "namespace n { __device__ double d; static ::gpulab_sim::symbol gpulab_sim_sym_3(&d, "
          "sizeof(d), \"d\"); }\n");
  }

  TEST_CASE("reads, writes and read-writes through pointers") {
    std::string out = rewrite(
        "__global__ void k(const float* a, float* c, int n) {\n"
        "  int i = threadIdx.x;\n"
        "  c[i] = a[i];\n"
        "  c[i] += 1;\n"
        "  ++c[i];\n"
        "  *c = a[i] > 0 ? a[i] : 0;\n"
        "}\n");
    const std::string rd = ", ::gpulab_sim::rd, __FILE__, __LINE__))";
    const std::string wr = ", ::gpulab_sim::wr, __FILE__, __LINE__))";
    const std::string rw = ", ::gpulab_sim::rw, __FILE__, __LINE__))";
    const std::string acc = "(*::gpulab_sim::access(&(";
    CHECK(out ==
          "__global__ void k(const float* a, float* c, int n) {\n"
          "  int i = threadIdx.x;\n"
          "  " +
              acc + "c[i])" + wr + " = " + acc + "a[i])" + rd +
              ";\n"
              "  " +
              acc + "c[i])" + rw +
              " += 1;\n"
              "  ++" +
              acc + "c[i])" + rw +
              ";\n"
              "  " +
              acc + "*c)" + wr + " = " + acc + "a[i])" + rd + " > 0 ? " + acc + "a[i])" + rd +
              " : 0;\n"
              "}\n");
  }

  TEST_CASE("what is not an access: addresses, sizeof, decltype, local arrays, bindings") {
    std::string code =
        "__device__ float* f(float* p, int n) {\n"
        "  float local[4];\n"
        "  local[1] = 2;\n"
        "  decltype(p[0]) r = local[0];\n"
        "  n = sizeof(p[1]);\n"
        "  float& bound = p[3];\n"
        "  return &p[2];\n"
        "}\n";
    CHECK(rewrite(code) == code);
  }

  TEST_CASE("through the student's operator[] and member functions, and through references") {
    std::string out = rewrite(
        "struct Vec {\n"
        "  float* d;\n"
        "  __device__ float& operator[](int i) const { return d[i]; }\n"
        "  __device__ float& at(int i) const { return d[i]; }\n"
        "};\n"
        "__device__ void put(float& dst, float v) { dst = v; }\n"
        "__global__ void k(Vec v, float* p) {\n"
        "  v[0] = v.at(1);\n"
        "  float& r = p[2];\n"
        "  r += 1;\n"
        "  put(p[3], 4);\n"
        "}\n");
    const std::string acc = "(*::gpulab_sim::access(&(";
    CHECK(contains(out, "float& operator[](int i) const { return d[i]; }"));
    CHECK(contains(out, "  " + acc + "v[0]), ::gpulab_sim::wr, __FILE__, __LINE__)) = " + acc +
                            "v.at(1)), ::gpulab_sim::rd, __FILE__, __LINE__));\n"));
    CHECK(contains(out, "  float& r = p[2];\n  " + acc +
                            "r), ::gpulab_sim::rw, __FILE__, __LINE__)) += 1;\n"));
    CHECK(contains(out, "{ " + acc + "dst), ::gpulab_sim::wr, __FILE__, __LINE__)) = v; }"));
    CHECK(contains(out, "  put(p[3], 4);\n"));
  }

  TEST_CASE("in a macro's body: wrapped in the definition, naming the macro; whole: at the use") {
    std::string out = rewrite(
        "#define NEXT(p, i) (p)[(i) + 1] * 2\n"
        "#define AT(p, i) p[i]\n"
        "__global__ void k(float* p) {\n"
        "  AT(p, 0) = NEXT(p, 1);\n"
        "}\n");
    CHECK(contains(out,
                   "#define NEXT(p, i) ::gpulab_sim::access_ref(((p)[(i) + 1]), ::gpulab_sim::rd, "
                   "__FILE__, __LINE__, \"NEXT\", \"/virtual/student.cu\", 1) * 2\n"
                   "#define AT(p, i) p[i]\n"));
    CHECK(contains(out,
                   "  (*::gpulab_sim::access(&(AT(p, 0)), ::gpulab_sim::wr, __FILE__, "
                   "__LINE__)) = NEXT(p, 1);\n"));
  }

  TEST_CASE("a macro's text that one use reads and another writes is counted, not wrapped") {
    Rewritten r =
        run("#define FIRST(p) (p)[0] + 0\n"
            "#define SET(p, v) (p)[0] = v\n"
            "__global__ void k(float* p, float* q) {\n"
            "  float x = FIRST(p);\n"
            "  SET(q, x);\n"
            "}\n"
            "#define ODD(p, c) (c ? (p)[1] : (p)[2])\n"
            "__global__ void j(float* p) { float x = ODD(p, x > 0); ODD(p, x < 0) = x; }\n");
    INFO(r.diagnostics);
    REQUIRE(r.ok);
    CHECK(contains(r.preamble,
                   "static ::gpulab_sim::not_instrumented gpulab_sim_not_instrumented(2, "
                   "\"/virtual/student.cu\", 8);\n"));
    CHECK(contains(r.body, "#define ODD(p, c) (c ? (p)[1] : (p)[2])\n"));
    CHECK(contains(r.body, "#define FIRST(p) ::gpulab_sim::access_ref(((p)[0]), ::gpulab_sim::rd"));
  }

  TEST_CASE("whole struct copies are one access; members of pointed-to structs are accessed") {
    std::string out = rewrite(
        "__global__ void k(float4* p, float4** pp) {\n"
        "  float4 v = p[1];\n"
        "  p[2] = v;\n"
        "  p[3].x = p->y;\n"
        "  pp[0][1].w = 2;\n"
        "}\n");
    CHECK(contains(out, "float4 v = (*::gpulab_sim::access(&(p[1]), ::gpulab_sim::rd,"));
    CHECK(contains(out, "  (*::gpulab_sim::access(&(p[2]), ::gpulab_sim::wr,"));
    CHECK(contains(out,
                   "  (*::gpulab_sim::access(&(p[3].x), ::gpulab_sim::wr, __FILE__, "
                   "__LINE__)) = (*::gpulab_sim::access(&(p->y), ::gpulab_sim::rd,"));
    CHECK(contains(out,
                   "(*::gpulab_sim::access(&((*::gpulab_sim::access(&(pp[0]), "
                   "::gpulab_sim::rd, __FILE__, __LINE__))[1].w), ::gpulab_sim::wr,"));
  }

  TEST_CASE("shared and __device__ variables are accessed like memory") {
    std::string out = rewrite(
        "__device__ int counter;\n"
        "__global__ void k() {\n"
        "  __shared__ float s[32][33];\n"
        "  s[threadIdx.x][0] = counter;\n"
        "}\n");
    CHECK(contains(out,
                   "(*::gpulab_sim::access(&(s[threadIdx.x][0]), ::gpulab_sim::wr, "
                   "__FILE__, __LINE__)) = (*::gpulab_sim::access(&(counter), "
                   "::gpulab_sim::rd, __FILE__, __LINE__));"));
  }

  TEST_CASE("templates: read in their instantiations, instrumented once where written") {
    std::string out = rewrite(
        "template <class T> __device__ T twice(const T* p, int i) { return p[i] * 2; }\n"
        "template <class T> __global__ void k(T* p, T* q) {\n"
        "  T v = p[0];\n"
        "  T& r = p[1];\n"
        "  q[p[2]] = twice(p, 3);\n"
        "  r += v;\n"
        "}\n"
        "void host(int* a) { k<<<1, 1>>>(a, a); }\n");
    CHECK(contains(out, "{ return ::gpulab_sim::access_ref((p[i]), ::gpulab_sim::rd,"));
    CHECK(contains(out, "  T v = ::gpulab_sim::access_ref((p[0]), ::gpulab_sim::rd,"));
    CHECK(contains(out, "  T& r = p[1];\n"));
    CHECK(contains(out,
                   "  ::gpulab_sim::access_ref((q[::gpulab_sim::access_ref((p[2]), "
                   "::gpulab_sim::rd, __FILE__, __LINE__)]), ::gpulab_sim::wr, __FILE__, "
                   "__LINE__) = twice(p, 3);\n"));
    CHECK(contains(out,
                   "  ::gpulab_sim::access_ref((r), ::gpulab_sim::rw, __FILE__, __LINE__) += v;"));
  }

  TEST_CASE("a subscript whose type only an instantiation knows is instrumented there") {
    std::string out = rewrite(
        "template <class Ptr> __device__ float next(Ptr p, int i) { return p[i + 1]; }\n"
        "template <class Ptr> __device__ float never(Ptr p) { return p[0]; }\n"
        "__global__ void k(const float* in, float* out) { out[0] = next(in, 0); }\n");
    CHECK(contains(out, "{ return ::gpulab_sim::access_ref((p[i + 1]), ::gpulab_sim::rd,"));
    CHECK(contains(out, "{ return p[0]; }"));
  }

  TEST_CASE("returning a reference is not a read; returning a value is") {
    std::string out = rewrite(
        "template <class T> struct M {\n"
        "  T* d;\n"
        "  __device__ T& at(int i) { return d[i]; }\n"
        "  __device__ T get(int i) const { return d[i]; }\n"
        "};\n");
    CHECK(contains(out, "__device__ T& at(int i) { return d[i]; }\n"));
    CHECK(contains(out,
                   "__device__ T get(int i) const { return ::gpulab_sim::access_ref((d[i]), "
                   "::gpulab_sim::rd, __FILE__, __LINE__); }\n"));
  }

  TEST_CASE("host code is left alone") {
    std::string code = "void host(float* p) { p[0] = p[1]; }\n";
    CHECK(rewrite(code) == code);
  }

  TEST_CASE("a launch in a macro defined in a header is refused with a clear message") {
    std::filesystem::create_directories(GPULAB_TEST_OUTPUT);
    std::string header = std::string(GPULAB_TEST_OUTPUT) + "/launch_macro.h";
    std::ofstream(header) << "#define GO(k) k<<<1, 1>>>()\n";
    Rewritten r =
        run("#include \"" + header + "\"\n__global__ void k() {}\nvoid h() {\n  GO(k);\n}\n");
    CHECK_FALSE(r.ok);
    CHECK(contains(r.diagnostics,
                   "/virtual/student.cu:4:3: error: gpulab sim: this kernel launch "
                   "is written inside a macro defined outside the student's files"));
  }

  TEST_CASE("x86 intrinsics are host functions: host code may call them, a kernel may not") {
    const std::string intrinsics =
        "#include <xmmintrin.h>\n#include <immintrin.h>\n"
        "void fence(float* p) { _mm_storeu_ps(p, _mm_set1_ps(1.0f)); _mm_sfence(); _mm_pause(); "
        "}\n";
    const std::string host = rewrite(intrinsics);
    CHECK(contains(host, "_mm_sfence(); _mm_pause();"));
    Rewritten device = run(intrinsics + "__global__ void k() { _mm_sfence(); }\n");
    CHECK_FALSE(device.ok);
    INFO(device.diagnostics);
    CHECK(contains(device.diagnostics, "/virtual/student.cu:4:23: error"));
    CHECK(contains(device.diagnostics, "call to __host__ function from __global__ function"));
  }

  TEST_CASE("a compile error names the student's file and line") {
    Rewritten r = run("__global__ void k(float* p) {\n  p[0] = undeclared;\n}\n");
    CHECK_FALSE(r.ok);
    CHECK(contains(r.diagnostics, "/virtual/student.cu:2:10: error: use of undeclared identifier"));
  }
}
