// sub-warp of 4 lanes per short row (vector-CSR / ELL style): item = gid/4, lane4 = gid%4 reads row[lane4 + 4*k]
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_subwarp4_row_sum(const float* rows_data, float* sums, int rows, int width) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int row = gid / 4, lane4 = gid % 4;
  float s = 0.0f;
  if (row < rows)
    for (int k = lane4; k < width; k += 4) s += rows_data[row * width + k];
  s += __shfl_down_sync(0xffffffffu, s, 2, 4);
  s += __shfl_down_sync(0xffffffffu, s, 1, 4);
  if (lane4 == 0 && row < rows) sums[row] = s;
}

void launch_pat_subwarp4_row_sum(const Buffers& B) {
  const int rows = kN / 4, width = 16;
  pat_subwarp4_row_sum<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out, rows, width);
}
