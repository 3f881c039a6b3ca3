// template with a stride parameter, instantiated with 4
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

template <typename T, int S>
__global__ void template_stride(const T* in, T* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[S * i];
}

void launch_template_stride(const Buffers& B) { template_stride<float, 4><<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
