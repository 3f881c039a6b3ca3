// checks: wmma 16x16x16 with unsigned char inputs and int accumulator (sm_72)
// feature: nvcuda::wmma::fragment<unsigned char>
#include <mma.h>
using namespace nvcuda;
__global__ void k(const unsigned char* a, const unsigned char* b, int* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
  wmma::fill_fragment(fc, 0);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
