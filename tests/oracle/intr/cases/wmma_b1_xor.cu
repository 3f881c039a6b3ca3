// checks: wmma m8n8k128 with experimental::precision::b1 and bmma_sync XOR (sm_75)
// feature: nvcuda::wmma::experimental::precision::b1
// feature: nvcuda::wmma::bmma_sync
#include <mma.h>
using namespace nvcuda;
__global__ void k(const void* a, const void* b, int* c) {
  wmma::fragment<wmma::matrix_a, 8, 8, 128, wmma::experimental::precision::b1, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 128, wmma::experimental::precision::b1, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 128, int> fc;
  wmma::fill_fragment(fc, 0);
  wmma::load_matrix_sync(fa, a, 128);
  wmma::load_matrix_sync(fb, b, 128);
  wmma::bmma_sync(fc, fa, fb, fc, wmma::experimental::bmmaBitOpXOR);
  wmma::store_matrix_sync(c, fc, 8, wmma::mem_row_major);
}
