// The rewriter's passes over one parsed file. Each rewrites a template once, where it is
// written; the access pass reads its instantiations to decide how (access_sites.h).
#pragma once

#include "access_sites.h"
#include "edits.h"

namespace gpulab_sim_rewrite {

// Whether `d` carries attribute A as written (clang adds implicit CUDA attributes, e.g. to
// constexpr functions and, in parse mode, to every function without one).
template <class A>
bool has_explicit(const clang::Decl* d) {
  const A* attr = d->getAttr<A>();
  return attr && !attr->isImplicit();
}

// Contract item 1: K<<<G, B[, S[, T]]>>>(A...) becomes ::gpulab_sim::launch(...), or
// ::gpulab_sim::launch_barrier_free(...) where barrier_free(K) holds.
void rewrite_launches(Edits& edits);

// Whether `kernel` is barrier-free: no __syncthreads, warp operation or __shared__ variable in
// it or in anything it calls (false wherever that cannot be seen).
bool barrier_free(const clang::FunctionDecl* kernel, Edits& edits);

// Contract items 2 and 3: __shared__ declarations in function bodies, and symbol registration
// after namespace-scope __device__ / __constant__ variables.
void rewrite_shared_and_symbols(Edits& edits);

// Contract item 4: memory accesses in device code go through ::gpulab_sim::access (or
// access_ref); returns the accesses that could not be instrumented.
NotInstrumented instrument_accesses(Edits& edits);

}  // namespace gpulab_sim_rewrite
