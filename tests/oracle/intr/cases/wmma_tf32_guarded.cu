// checks: tf32 wmma under #if __CUDA_ARCH__ >= 800 with a half fallback
// expect: ok
#include <mma.h>
using namespace nvcuda;
__global__ void k(const float* a, const float* b, float* c) {
#if __CUDA_ARCH__ >= 800
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::fill_fragment(fc, 0.f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
#else
  c[threadIdx.x] = a[threadIdx.x] * b[threadIdx.x];
#endif
}
