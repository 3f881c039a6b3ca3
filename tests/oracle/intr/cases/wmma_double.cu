// checks: wmma m8n8k4 with double fragments (sm_80)
// feature: nvcuda::wmma::fragment<double>
#include <mma.h>
using namespace nvcuda;
__global__ void k(const double* a, const double* b, double* c) {
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
  wmma::fill_fragment(fc, 0.0);
  wmma::load_matrix_sync(fa, a, 8);
  wmma::load_matrix_sync(fb, b, 8);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 8, wmma::mem_row_major);
}
