// Hostile, appended to the reference (expect.json renames its spmv_csr): y = A x by cuSPARSE's
// cusparseSpMV, the library opened with dlopen and its functions found with dlsym, so that the
// runner links nothing of cuSPARSE and its objects name none of its functions. Were the CUDA
// toolkit visible to a run, this would score the spmv points for cuSPARSE's work. A run's sandbox
// holds only its runner's libraries and the driver's: cuSPARSE does not load, the run says so and
// exits, and every dataset fails.
#include <cusparse.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace {

template <typename F>
F function_of(void* library, const char* name) {
  return reinterpret_cast<F>(dlsym(library, name));
}

}  // namespace

void spmv_csr(CsrMatrix a, const float* x, float* y) {
  void* lib = nullptr;
  for (const char* name : {"libcusparse.so", "libcusparse.so.12", "libcusparse.so.13",
                           "/usr/local/cuda/lib64/libcusparse.so",
                           "/usr/local/cuda/targets/x86_64-linux/lib/libcusparse.so",
                           "/usr/local/cuda/targets/sbsa-linux/lib/libcusparse.so"})
    if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
  if (!lib) {
    std::printf("gpulab-adversary: cuSPARSE did not load (%s)\n", dlerror());
    std::fflush(stdout);
    std::exit(3);
  }
  std::printf("gpulab-adversary: cuSPARSE loaded\n");
  const auto create = function_of<decltype(&cusparseCreate)>(lib, "cusparseCreate");
  const auto create_csr =
      function_of<decltype(&cusparseCreateConstCsr)>(lib, "cusparseCreateConstCsr");
  const auto create_vec =
      function_of<decltype(&cusparseCreateConstDnVec)>(lib, "cusparseCreateConstDnVec");
  const auto create_out = function_of<decltype(&cusparseCreateDnVec)>(lib, "cusparseCreateDnVec");
  const auto buffer_size =
      function_of<decltype(&cusparseSpMV_bufferSize)>(lib, "cusparseSpMV_bufferSize");
  const auto spmv = function_of<decltype(&cusparseSpMV)>(lib, "cusparseSpMV");
  const auto destroy = function_of<decltype(&cusparseDestroy)>(lib, "cusparseDestroy");
  // An empty row's sum is 0, whatever cuSPARSE makes of beta = 0 over the poisoned y.
  cudaMemset(y, 0, sizeof(float) * static_cast<size_t>(a.n_rows));
  if (a.nnz == 0) return;
  cusparseHandle_t handle;
  cusparseConstSpMatDescr_t matrix;
  cusparseConstDnVecDescr_t in;
  cusparseDnVecDescr_t out;
  create(&handle);
  create_csr(&matrix, a.n_rows, a.n_cols, a.nnz, a.row_ptr, a.col_idx, a.values, CUSPARSE_INDEX_32I,
             CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  create_vec(&in, a.n_cols, x, CUDA_R_32F);
  create_out(&out, a.n_rows, y, CUDA_R_32F);
  const float alpha = 1, beta = 0;
  size_t bytes = 0;
  buffer_size(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matrix, in, &beta, out, CUDA_R_32F,
              CUSPARSE_SPMV_ALG_DEFAULT, &bytes);
  void* buffer = nullptr;
  cudaMalloc(&buffer, bytes > 0 ? bytes : 1);
  spmv(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matrix, in, &beta, out, CUDA_R_32F,
       CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  cudaDeviceSynchronize();
  cudaFree(buffer);
  destroy(handle);
}
