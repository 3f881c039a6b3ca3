// array of 32-byte structs, one field read
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

struct P8 { float v[8]; };
__global__ void aos_8float_field(const P8* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[i].v[3];
}

void launch_aos_8float_field(const Buffers& B) { aos_8float_field<<<grid_for(kN), kBlock>>>(reinterpret_cast<const P8*>(B.f_in), B.f_out); }
