// grid-stride loop, unit stride
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void grid_stride_float(const float* in, float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) out[i] = in[i] * 2.0f;
}

void launch_grid_stride_float(const Buffers& B) { grid_stride_float<<<256, kBlock>>>(B.f_in, B.f_out, kN); }
