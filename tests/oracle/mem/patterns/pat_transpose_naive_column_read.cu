// naive out-of-place transpose written "gather" style: row-major store, the load walks a column (threadIdx.x in the row position)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_transpose_naive_column_read(const float* src, float* dst, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < n && row < n) dst[row * n + col] = src[col * n + row];
}

void launch_pat_transpose_naive_column_read(const Buffers& B) {
  pat_transpose_naive_column_read<<<dim3(kW / 32, kW / 8), dim3(32, 8)>>>(B.f_in, B.f_out, kW);
}
