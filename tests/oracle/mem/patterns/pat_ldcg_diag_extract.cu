// diagonal extraction of a row-major n x n matrix with L2-only loads: __ldcg(&A[i*ld + i]) (stride ld + 1)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_ldcg_diag_extract(const float* A, float* diag, int n, int ld) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __stcg(&diag[i], __ldcg(&A[(long long)i * ld + i]));
}

void launch_pat_ldcg_diag_extract(const Buffers& B) {
  const int n = 8192;
  pat_ldcg_diag_extract<<<grid_for(n), kBlock>>>(B.f_in, B.f_out, n, n);
}
