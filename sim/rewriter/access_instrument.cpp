// Memory accesses in device code (contract item 4). Every maximal lvalue rooted in a pointer
// subscript, a dereference or an arrow, naming a __shared__ or a file's __device__ /
// __constant__ variable, or reached through a reference (a reference variable, or a call of the
// student's function or operator that returns one, e.g. an operator[] wrapper) is an access;
// the kind comes from what the parent expression does with it. access_sites.h decides where
// each is wrapped. Templates are read in their instantiations, where every type is known; a
// pattern is read only where it has none (generic lambdas, templates never used), and there
// lacks the implicit lvalue-to-rvalue casts that mark reads, so a dependent context falls back
// to syntax: assigned is a write, ++/compound-assigned both, else a read.
#include <clang/AST/RecursiveASTVisitor.h>

#include <set>

#include "access_sites.h"
#include "passes.h"

namespace gpulab_sim_rewrite {
namespace {

// The pointer (or array) side of a subscript. Unlike ArraySubscriptExpr::getBase(), this also
// works in templates, where `q[p[i]]` has a dependent index and getBase() would pick it.
const clang::Expr* subscript_base(const clang::ArraySubscriptExpr* sub) {
  for (const clang::Expr* side : {sub->getLHS(), sub->getRHS()}) {
    clang::QualType t = side->IgnoreParenImpCasts()->getType();
    if (t->isPointerType() || t->isArrayType()) return side;
  }
  return nullptr;
}

bool is_device_function(const clang::FunctionDecl* f) {
  return has_explicit<clang::CUDAGlobalAttr>(f) || has_explicit<clang::CUDADeviceAttr>(f);
}

class AccessVisitor : public clang::RecursiveASTVisitor<AccessVisitor> {
  using Base = clang::RecursiveASTVisitor<AccessVisitor>;

 public:
  AccessVisitor(Edits& edits, AccessSites& sites, const clang::FunctionDecl* function)
      : ed_(edits),
        sites_(sites),
        function_(function),
        shared_text_(function->isTemplateInstantiation() || function->isDependentContext()) {}

  // Keeps the path from the function body down, so that a node's parent is known exactly (the
  // AST's parent map would mix in template instantiations that share nodes with the pattern).
  bool TraverseStmt(clang::Stmt* s) {
    if (!s) return true;
    path_.push_back(s);
    bool ok = Base::TraverseStmt(s);
    path_.pop_back();
    return ok;
  }
  // Unevaluated operands touch no memory.
  bool TraverseUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr*) { return true; }
  bool TraverseDecltypeTypeLoc(clang::DecltypeTypeLoc) { return true; }
  bool TraverseCXXNoexceptExpr(clang::CXXNoexceptExpr*) { return true; }
  bool TraverseCXXTypeidExpr(clang::CXXTypeidExpr*) { return true; }

  bool VisitExpr(clang::Expr* e) {
    if (llvm::isa<clang::ParenExpr>(e) || !is_memory(e) || extends_into_parent() || !wrappable(e)) {
      return true;
    }
    // Skips are sightings too: a text skipped in one use and read in another is not wrapped.
    sites_.add(e, classify(), shared_text_ || e->isTypeDependent() || e->isValueDependent());
    return true;
  }

 private:
  bool is_tracked_variable(const clang::Expr* e) {
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e);
    const auto* var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    if (!var) return false;
    if (has_explicit<clang::CUDASharedAttr>(var)) return true;
    return var->getDeclContext()->isFileContext() && ed_.in_student_file(var->getLocation()) &&
           (has_explicit<clang::CUDADeviceAttr>(var) || has_explicit<clang::CUDAConstantAttr>(var));
  }

  // An lvalue in memory the runtime checks: through a pointer, or a tracked variable.
  bool is_memory(const clang::Expr* e) {
    e = e->IgnoreParens();
    if (const auto* sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
      const clang::Expr* base = subscript_base(sub);
      if (!base) return false;
      const clang::Expr* root = base->IgnoreParenImpCasts();
      if (root->getType()->isArrayType()) return is_memory(root) || is_tracked_variable(root);
      return true;
    }
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e)) {
      return u->getOpcode() == clang::UO_Deref && u->getSubExpr()->getType()->isPointerType() &&
             !u->getType()->isFunctionType();
    }
    if (const auto* m = llvm::dyn_cast<clang::MemberExpr>(e)) {
      const auto* field = llvm::dyn_cast<clang::FieldDecl>(m->getMemberDecl());
      if (!field || field->isBitField()) return false;
      const clang::Expr* root = m->getBase()->IgnoreParenImpCasts();
      // Members of `this` are mostly the thread's own copy of a functor: not checked.
      if (m->isArrow()) return !llvm::isa<clang::CXXThisExpr>(root);
      return is_memory(root) || is_tracked_variable(root);
    }
    if (const auto* m = llvm::dyn_cast<clang::CXXDependentScopeMemberExpr>(e)) {
      if (m->isImplicitAccess()) return false;
      const clang::Expr* root = m->getBase()->IgnoreParenImpCasts();
      if (m->isArrow()) {
        return m->getBase()->getType()->isPointerType() && !llvm::isa<clang::CXXThisExpr>(root);
      }
      return is_memory(root) || is_tracked_variable(root);
    }
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(e))
      return returns_student_reference(call);
    return is_tracked_variable(e) || is_reference_variable(e);
  }

  // A call of a function of the student's that hands out a location (T& operator[](int), T&
  // at(int)): the caller's use of it is the access, so the wrapper's body needs no check.
  bool returns_student_reference(const clang::CallExpr* call) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    return callee && call->isLValue() && !call->getType()->isFunctionType() &&
           ed_.in_student_file(callee->getLocation());
  }

  // A use of a reference variable or parameter (float& r = p[i]; r += v;): its binding touched
  // nothing, so each use is the access.
  static bool is_reference_variable(const clang::Expr* e) {
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e);
    const auto* var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    return var && var->getType()->isReferenceType() && !var->getType()->isFunctionReferenceType();
  }

  bool wrappable(const clang::Expr* e) {
    clang::QualType t = e->getType();
    if (t->isFunctionType() || t->isArrayType() || t->isVoidType()) return false;
    if (e->isTypeDependent() || t->isDependentType()) return true;
    if (!e->isLValue()) return false;
    // A struct copied whole is one access; other class objects are left to their members.
    return !t->isRecordType() || t.isTriviallyCopyableType(ed_.ctx());
  }

  // The parent of path_[at] (the current node by default), looking through parentheses and
  // the given implicit casts; `child` is set to the node just below it, `at` to its index.
  clang::Stmt* parent(clang::Stmt*& child, bool through_decay, size_t& at) {
    child = path_[at];
    for (size_t i = at; i-- > 0;) {
      at = i;
      clang::Stmt* p = path_[i];
      if (llvm::isa<clang::ParenExpr>(p)) {
        child = p;
        continue;
      }
      if (const auto* c = llvm::dyn_cast<clang::ImplicitCastExpr>(p)) {
        clang::CastKind k = c->getCastKind();
        if (k == clang::CK_NoOp || k == clang::CK_DerivedToBase ||
            k == clang::CK_UncheckedDerivedToBase ||
            (through_decay && k == clang::CK_ArrayToPointerDecay)) {
          child = p;
          continue;
        }
      }
      return p;
    }
    return nullptr;
  }

  // Whether the parent extends this lvalue (a[i] in a[i].x or a[i][j]): only the whole one is
  // wrapped, as one access of its size.
  bool extends_into_parent() {
    clang::Stmt* child = nullptr;
    size_t at = path_.size() - 1;
    clang::Stmt* p = parent(child, true, at);
    clang::Expr* self = llvm::cast<clang::Expr>(path_.back());
    if (const auto* sub = llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(p)) {
      const clang::Expr* base = subscript_base(sub);
      return base && base->IgnoreParenImpCasts() == self && self->getType()->isArrayType();
    }
    if (const auto* m = llvm::dyn_cast_or_null<clang::MemberExpr>(p)) {
      return !m->isArrow() && llvm::isa<clang::FieldDecl>(m->getMemberDecl()) &&
             m->getBase()->IgnoreParenImpCasts() == self;
    }
    if (const auto* m = llvm::dyn_cast_or_null<clang::CXXDependentScopeMemberExpr>(p)) {
      return !m->isArrow() && !m->isImplicitAccess() && m->getBase()->IgnoreParenImpCasts() == self;
    }
    return false;
  }

  static bool dependent(const clang::Stmt* s) {
    const auto* e = llvm::dyn_cast_or_null<clang::Expr>(s);
    return e && (e->isTypeDependent() || e->isValueDependent());
  }

  Kind classify() { return classify_at(path_.size() - 1); }

  // What the context does with the lvalue at path_[at].
  Kind classify_at(size_t at) {
    clang::Stmt* child = nullptr;
    const auto* self = llvm::cast<clang::Expr>(path_[at]);
    clang::Stmt* p = parent(child, false, at);
    if (!p) return Kind::skip;
    // c ? a[i] : b[i] is itself an lvalue: its branches are used as it is.
    if (const auto* cond = llvm::dyn_cast<clang::AbstractConditionalOperator>(p)) {
      if (cond->getCond() != child && cond->isGLValue()) return classify_at(at);
    }
    if (const auto* c = llvm::dyn_cast<clang::ImplicitCastExpr>(p)) {
      return c->getCastKind() == clang::CK_LValueToRValue ? Kind::rd : Kind::skip;
    }
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(p)) {
      if (u->getOpcode() == clang::UO_AddrOf) return Kind::skip;
      if (u->isIncrementDecrementOp()) return Kind::rw;
      return dependent(p) ? Kind::rd : Kind::skip;
    }
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(p)) {
      bool lhs = b->getLHS() == child;
      if (lhs && b->getOpcode() == clang::BO_Assign) return Kind::wr;
      if (lhs && b->isCompoundAssignmentOp()) return Kind::rw;
      if (b->getOpcode() == clang::BO_Comma) return Kind::skip;
      return dependent(p) ? Kind::rd : Kind::skip;
    }
    if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(p)) {
      if (op->getNumArgs() > 0 && op->getArg(0) == child && op->isAssignmentOp()) {
        return op->getOperator() == clang::OO_Equal ? Kind::wr : Kind::rw;
      }
      return dependent(p) && op->getCallee() != child ? Kind::rd : Kind::skip;
    }
    if (const auto* c = llvm::dyn_cast<clang::CXXConstructExpr>(p)) {
      const clang::CXXConstructorDecl* ctor = c->getConstructor();
      return (ctor->isCopyConstructor() || ctor->isMoveConstructor()) && ctor->isTrivial()
                 ? Kind::rd
                 : Kind::skip;
    }
    // Without the casts of analysed code: a dependent context, read by syntax.
    bool dep = dependent(p) || self->isTypeDependent() || self->isValueDependent();
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(p)) {
      return dep && call->getCallee() != child ? Kind::rd : Kind::skip;
    }
    if (const auto* decls = llvm::dyn_cast<clang::DeclStmt>(p)) {
      for (const clang::Decl* d : decls->decls()) {
        const auto* var = llvm::dyn_cast<clang::VarDecl>(d);
        if (var && var->getInit() == child) {
          return var->getType()->isReferenceType() ? Kind::skip : Kind::rd;
        }
      }
      return Kind::skip;
    }
    if (const auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(p)) {
      return dep && !cast->getTypeAsWritten()->isReferenceType() ? Kind::rd : Kind::skip;
    }
    if (llvm::isa<clang::ReturnStmt>(p)) return dep && !returns_reference() ? Kind::rd : Kind::skip;
    if (llvm::isa<clang::ParenListExpr, clang::InitListExpr, clang::CXXUnresolvedConstructExpr,
                  clang::ConditionalOperator, clang::ArraySubscriptExpr, clang::IfStmt,
                  clang::WhileStmt, clang::DoStmt, clang::ForStmt, clang::SwitchStmt>(p)) {
      return dep ? Kind::rd : Kind::skip;
    }
    return Kind::skip;
  }

  // Whether the innermost function around the current node (a lambda, or the function
  // visited) returns a reference: `return p[i];` then hands out the location, not a value.
  bool returns_reference() {
    for (size_t i = path_.size(); i-- > 0;) {
      if (const auto* lambda = llvm::dyn_cast<clang::LambdaExpr>(path_[i])) {
        return lambda->getCallOperator()->getReturnType()->isReferenceType();
      }
    }
    return function_->getReturnType()->isReferenceType();
  }

  Edits& ed_;
  AccessSites& sites_;
  const clang::FunctionDecl* function_;
  bool shared_text_;  // a template's body: its text is shared by its instantiations
  std::vector<clang::Stmt*> path_;
};

// The device functions to read: every one written in the student's files, each instantiation
// of a template, and a template's pattern only where no instantiation was read.
class DeviceFunctionFinder : public clang::RecursiveASTVisitor<DeviceFunctionFinder> {
 public:
  DeviceFunctionFinder(Edits& edits, AccessSites& sites) : ed_(edits), sites_(sites) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(clang::FunctionDecl* f) {
    if (!f->doesThisDeclarationHaveABody() || !is_device_function(f) ||
        !ed_.in_student_file(f->getLocation())) {
      return true;
    }
    if (f->isDependentContext()) {
      patterns_.push_back(f);
    } else {
      if (const clang::FunctionDecl* pattern = f->getTemplateInstantiationPattern()) {
        instantiated_.insert(pattern->getCanonicalDecl());
      }
      read(f, f->getBody());
    }
    return true;
  }

  // A __device__ lambda written in host code (handed to a kernel template): its body is device
  // code of its own.
  bool VisitLambdaExpr(clang::LambdaExpr* lambda) {
    const clang::CXXMethodDecl* op = lambda->getCallOperator();
    const auto* enclosing = llvm::dyn_cast_or_null<clang::FunctionDecl>(
        lambda->getLambdaClass()->getDeclContext()->getNonClosureAncestor());
    if (op && is_device_function(op) && !(enclosing && is_device_function(enclosing)) &&
        ed_.in_student_file(lambda->getBeginLoc())) {
      read(op, lambda->getBody());
    }
    return true;
  }

  void read_patterns() {
    for (const clang::FunctionDecl* f : patterns_) {
      if (!instantiated_.count(f->getCanonicalDecl())) read(f, f->getBody());
    }
  }

 private:
  void read(const clang::FunctionDecl* f, clang::Stmt* body) {
    if (read_.insert(body).second) AccessVisitor(ed_, sites_, f).TraverseStmt(body);
  }

  Edits& ed_;
  AccessSites& sites_;
  std::vector<const clang::FunctionDecl*> patterns_;
  std::set<const clang::FunctionDecl*> instantiated_;
  std::set<const clang::Stmt*> read_;
};

}  // namespace

NotInstrumented instrument_accesses(Edits& edits) {
  AccessSites sites(edits);
  DeviceFunctionFinder finder(edits, sites);
  finder.TraverseDecl(edits.ctx().getTranslationUnitDecl());
  finder.read_patterns();
  return sites.apply();
}

}  // namespace gpulab_sim_rewrite
