// index from a macro
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

#define GLOBAL_TID (blockIdx.x * blockDim.x + threadIdx.x)
__global__ void macro_index_unit(const float* in, float* out) {
  if (GLOBAL_TID < kN) out[GLOBAL_TID] = in[GLOBAL_TID];
}

void launch_macro_index_unit(const Buffers& B) { macro_index_unit<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
