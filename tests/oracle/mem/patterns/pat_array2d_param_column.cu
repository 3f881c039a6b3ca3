// fixed-width 2-D array parameter float (*m)[1024], one thread per row reading a few columns: m[row][c0 + k]
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_array2d_param_column(const float (*m)[1024], float* out, int rows, int c0) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  out[row] = m[row][c0] + m[row][c0 + 1] + m[row][c0 + 2] + m[row][c0 + 3];
}

void launch_pat_array2d_param_column(const Buffers& B) {
  const int rows = 65536;  // 65536 rows of 1024 floats = 2^26 elements
  pat_array2d_param_column<<<grid_for(rows), kBlock>>>(reinterpret_cast<const float (*)[1024]>(B.f_in), B.f_out, rows, 5);
}
