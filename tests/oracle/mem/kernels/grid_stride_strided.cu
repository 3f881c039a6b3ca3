// grid-stride loop over a strided view (stride 4)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void grid_stride_strided(const float* in, float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) out[i] = in[4 * i];
}

void launch_grid_stride_strided(const Buffers& B) { grid_stride_strided<<<256, kBlock>>>(B.f_in, B.f_out, kN); }
