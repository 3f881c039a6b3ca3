// fixed-width 2-D array parameters float (*m)[1024], one block per row with threads along it: m[blockIdx.x][t]
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_array2d_param_row(const float (*m)[1024], float (*o)[1024], float scale) {
  for (int t = threadIdx.x; t < 1024; t += blockDim.x) o[blockIdx.x][t] = m[blockIdx.x][t] * scale;
}

void launch_pat_array2d_param_row(const Buffers& B) {
  const int rows = 8192;
  pat_array2d_param_row<<<rows, kBlock>>>(reinterpret_cast<const float (*)[1024]>(B.f_in),
                                          reinterpret_cast<float (*)[1024]>(B.f_out), 0.5f);
}
