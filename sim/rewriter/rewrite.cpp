// Runs clang on one file (as CUDA host code, from memory, so tests need no files) and applies
// the passes; the result starts with the preamble of the contract and keeps every line.
#include "rewrite.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/VirtualFileSystem.h>

#include "passes.h"

#ifndef GPULAB_CLANG_RESOURCE_DIR
#error "GPULAB_CLANG_RESOURCE_DIR must name clang's resource directory"
#endif

namespace gpulab_sim_rewrite {
namespace {

// The runtime's note of the accesses left unchecked (sim/README.md, contract item 4), named by
// the first one's file and line as __FILE__ and __LINE__ would name it; empty when there is none.
std::string not_instrumented_line(Edits& edits, const NotInstrumented& missed) {
  if (!missed.count) return "";
  clang::SourceManager& sm = edits.sm();
  return "static ::gpulab_sim::not_instrumented gpulab_sim_not_instrumented(" +
         std::to_string(missed.count) + ", " + quoted(edits.file_name(sm.getFileID(missed.first))) +
         ", " + std::to_string(sm.getSpellingLineNumber(missed.first)) + ");\n";
}

// A file's text after the edits.
std::string text_of(Edits& edits, clang::FileID file) {
  const clang::RewriteBuffer* buffer = edits.rewriter().getRewriteBufferFor(file);
  if (!buffer) return edits.sm().getBufferData(file).str();
  return std::string(buffer->begin(), buffer->end());
}

class Consumer : public clang::ASTConsumer {
 public:
  Consumer(const std::string& path, Result& result) : path_(path), result_(result) {}

  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    if (ctx.getDiagnostics().hasErrorOccurred()) return;  // clang has said why
    Edits edits(ctx, path_);
    rewrite_launches(edits);
    rewrite_shared_and_symbols(edits);
    NotInstrumented missed = instrument_accesses(edits);
    if (edits.failed()) return;
    clang::SourceManager& sm = edits.sm();
    // After a UTF-8 byte order mark, which must stay first.
    unsigned start = sm.getBufferData(edits.main_file()).startswith("\xEF\xBB\xBF") ? 3 : 0;
    edits.rewriter().InsertTextBefore(
        sm.getLocForStartOfFile(edits.main_file()).getLocWithOffset(start),
        "#include <gpulab_sim/sim.h>\n"
        "[[maybe_unused]] static char gpulab_sim_tu;  // keys this file's shared variables\n" +
            not_instrumented_line(edits, missed) + "#line 1 " +
            quoted(edits.file_name(edits.main_file())) + "\n");
    result_.text = text_of(edits, edits.main_file());
    for (const auto& [file, relative] : edits.headers()) {
      result_.headers.push_back(
          {relative, "#line 1 " + quoted(edits.file_name(file)) + "\n" + text_of(edits, file)});
    }
    result_.ok = true;
  }

 private:
  std::string path_;
  Result& result_;
};

class Action : public clang::ASTFrontendAction {
 public:
  Action(const std::string& path, Result& result, llvm::raw_ostream* summary)
      : path_(path), result_(result), summary_(summary) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci,
                                                        llvm::StringRef) override {
    // clang's "N errors generated" line goes with the messages.
    if (summary_) ci.setVerboseOutputStream(*summary_);
    return std::make_unique<Consumer>(path_, result_);
  }

 private:
  std::string path_;
  Result& result_;
  llvm::raw_ostream* summary_;
};

// Included before the file when parsing (from memory): sim.h, as the rewritten file has it,
// inside `#pragma clang force_cuda_host_device`, left open for the whole file: every function
// without an explicit CUDA attribute (the runtime's, the C and C++ libraries', the student's
// host code) is then __host__ __device__ for clang. Device code may then call anything it may
// call under g++ (clang would drop host-only candidates from overload sets, and fail on e.g.
// sqrtf in a kernel). Then __CUDA__ is undefined, so that the student's code and library
// headers (CCCL/Thrust) see a host C++ compiler, as they will under g++.
constexpr const char* kPrelude = "/gpulab-sim-rewrite/parse_prelude.h";

std::string prelude_text() {
  // <new> outside the pragma: the global operator new and delete are implicitly declared host
  // functions. clang's wrapper of <new> adds their device versions (calling malloc and free)
  // once __device__ is defined.
  // The x86 intrinsics outside it too: clang declares some of them (_mm_sfence, _mm_pause,
  // _mm_getcsr, ...) as built-ins, host functions, which their header declares again; inside
  // the pragma that declaration would be __host__ __device__, an overload clang refuses. Read
  // here, their include guards keep the student's #include <xmmintrin.h> from reading them
  // again. Host functions, as under nvcc: host code may call them, device code may not. Their
  // <mm_malloc.h> inside: it declares posix_memalign again, which <cstdlib> made
  // __host__ __device__.
  return "#pragma clang force_cuda_host_device begin\n"
         "#include <cstdlib>\n"
         "#if defined(__x86_64__) || defined(__i386__)\n"
         "#include <mm_malloc.h>\n"
         "#endif\n"
         "#pragma clang force_cuda_host_device end\n"
         "#if defined(__x86_64__) || defined(__i386__)\n"
         "#include <emmintrin.h>\n"
         "#endif\n"
         "#define __device__ __attribute__((device))\n"
         "#include <new>\n"
         "#pragma clang force_cuda_host_device begin\n"
         "#include <gpulab_sim/sim.h>\n"
         "#undef __CUDA__\n";
}

std::vector<std::string> parse_args(const std::string& include_dir) {
  return {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-std=c++17",
          "-resource-dir", GPULAB_CLANG_RESOURCE_DIR, "-isystem", include_dir, "-include", kPrelude,
          // g++ warns about the same lines when it compiles the result: once is enough.
          "-w",
          // printf and other C variadic functions, made __host__ __device__ above.
          "-Xclang", "-fcuda-allow-variadic-functions", "-fno-color-diagnostics"};
}

}  // namespace

Result rewrite(const std::string& code, const std::string& path, const std::string& include_dir,
               const std::vector<std::string>& extra_args, Messages messages) {
  std::vector<std::string> args = parse_args(include_dir);
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  Result result;
  llvm::SmallString<256> absolute(path);
  llvm::sys::fs::make_absolute(absolute);

  // The file is read from memory, its includes from disk.
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> fs(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(new llvm::vfs::InMemoryFileSystem);
  fs->pushOverlay(memory);
  memory->addFile(absolute, 0, llvm::MemoryBuffer::getMemBufferCopy(code, absolute));
  memory->addFile(kPrelude, 0, llvm::MemoryBuffer::getMemBufferCopy(prelude_text(), kPrelude));
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions(), fs));

  std::vector<std::string> argv = {"gpulab-sim-rewrite", "-fsyntax-only"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back(std::string(absolute));

  llvm::raw_string_ostream diag_stream(result.diagnostics);
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diag_options(new clang::DiagnosticOptions);
  clang::TextDiagnosticPrinter printer(
      messages == Messages::collect ? static_cast<llvm::raw_ostream&>(diag_stream) : llvm::errs(),
      diag_options.get());
  clang::tooling::ToolInvocation invocation(
      argv,
      std::make_unique<Action>(path, result,
                               messages == Messages::collect ? &diag_stream : nullptr),
      files.get());
  invocation.setDiagnosticConsumer(&printer);
  if (!invocation.run()) result.ok = false;
  diag_stream.flush();
  return result;
}

}  // namespace gpulab_sim_rewrite
