// stride from a kernel parameter (8 at run time; unknown statically)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void param_stride(const float* in, float* out, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[i * stride];
}

void launch_param_stride(const Buffers& B) { param_stride<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out, 8); }
