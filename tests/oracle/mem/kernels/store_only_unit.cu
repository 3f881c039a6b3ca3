// unit-stride store, no global load
// access bytes per thread: ld 0, st 4
#include "../harness.cuh"

__global__ void store_only_unit(float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = static_cast<float>(i);
}

void launch_store_only_unit(const Buffers& B) { store_only_unit<<<grid_for(kN), kBlock>>>(B.f_out); }
