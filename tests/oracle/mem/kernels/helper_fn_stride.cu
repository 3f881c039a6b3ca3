// __device__ helper that reads at stride 2
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__device__ float read_even(const float* p, int i) { return p[2 * i]; }
__global__ void helper_fn_stride(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = read_even(in, i);
}

void launch_helper_fn_stride(const Buffers& B) { helper_fn_stride<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
