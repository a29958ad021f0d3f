// Whether a launched kernel is barrier-free: no __syncthreads, warp operation or __shared__
// variable in its body or in any function it calls, so that in unchecked mode the runtime may run
// its threads one after another without fibers (launch.h, launch_barrier_free). The answer must
// never be a wrong yes: anything the scan cannot see into (a call through a pointer, a virtual
// call, a call not resolved in a template, a function of the student's defined elsewhere) makes
// it no.
#include <clang/AST/RecursiveASTVisitor.h>

#include <set>
#include <string>

#include "passes.h"

namespace gpulab_sim_rewrite {
namespace {

// The runtime's entry points that make threads wait for each other (sync.h). __syncthreads and
// every warp operation reach one of these through the headers' macros.
bool is_barrier(const clang::FunctionDecl* f) {
  static const std::set<std::string> kBarriers = {
      "gpulab_sim::detail::syncthreads", "gpulab_sim::detail::warp_collective",
      "gpulab_sim::detail::shuffle", "gpulab_sim::detail::match_any",
      "gpulab_sim::detail::active_mask"};
  return kBarriers.count(f->getQualifiedNameAsString()) > 0;
}

class Scan : public clang::RecursiveASTVisitor<Scan> {
 public:
  explicit Scan(Edits& edits) : ed_(edits) {}
  bool found = false;  // a barrier, or something the scan cannot see into

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  void function(const clang::FunctionDecl* f) {
    if (!f || found) return;
    if (is_barrier(f)) {
      found = true;
      return;
    }
    if (const auto* m = llvm::dyn_cast<clang::CXXMethodDecl>(f); m && m->isVirtual()) {
      found = true;
      return;
    }
    const clang::FunctionDecl* def = nullptr;
    if (!f->hasBody(def)) {
      // Declared only: the C and C++ libraries and the runtime's out-of-line parts have no
      // barriers; a function of the student's defined in another file might.
      if (ed_.in_student_file(f->getLocation())) found = true;
      return;
    }
    if (seen_.insert(def).second) TraverseStmt(def->getBody());
  }

  bool VisitVarDecl(clang::VarDecl* v) {
    if (v->hasAttr<clang::CUDASharedAttr>()) found = true;
    return !found;
  }
  bool VisitCallExpr(clang::CallExpr* call) {
    if (const clang::FunctionDecl* f = call->getDirectCallee())
      function(f);
    else
      found = true;  // through a pointer, or not resolved in a template
    return !found;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr* e) {
    function(e->getConstructor());
    return !found;
  }
  bool VisitCXXDeleteExpr(clang::CXXDeleteExpr* e) {
    function(e->getOperatorDelete());
    return !found;
  }
  bool VisitUnresolvedLookupExpr(clang::UnresolvedLookupExpr*) { return !(found = true); }
  bool VisitUnresolvedMemberExpr(clang::UnresolvedMemberExpr*) { return !(found = true); }
  bool VisitCXXDependentScopeMemberExpr(clang::CXXDependentScopeMemberExpr*) {
    return !(found = true);
  }

 private:
  Edits& ed_;
  std::set<const clang::FunctionDecl*> seen_;
};

}  // namespace

bool barrier_free(const clang::FunctionDecl* kernel, Edits& edits) {
  if (!kernel || kernel->isDependentContext()) return false;
  Scan scan(edits);
  scan.function(kernel);
  const clang::FunctionDecl* def = nullptr;
  return !scan.found && kernel->hasBody(def);
}

}  // namespace gpulab_sim_rewrite
