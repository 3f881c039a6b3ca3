// loop over rows, thread index in the column position (coalesced)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void column_loop_unit(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int r = 0; r < 16; ++r) s += in[r * kN + i];
  if (i < kN) out[i] = s;
}

void launch_column_loop_unit(const Buffers& B) { column_loop_unit<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
