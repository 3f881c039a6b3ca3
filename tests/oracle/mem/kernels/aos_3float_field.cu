// array of 12-byte structs, one field read
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

struct P3 { float x, y, z; };
__global__ void aos_3float_field(const P3* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[i].x;
}

void launch_aos_3float_field(const Buffers& B) { aos_3float_field<<<grid_for(kN), kBlock>>>(reinterpret_cast<const P3*>(B.f_in), B.f_out); }
