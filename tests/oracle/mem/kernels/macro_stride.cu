// stride hidden in a macro
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

#define AT4(p, i) (p)[(i) * 4]
__global__ void macro_stride(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = AT4(in, i);
}

void launch_macro_stride(const Buffers& B) { macro_stride<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
