// unit-stride load, store into one field of 16-byte structs
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

struct S4 { float a, b, c, d; };
__global__ void aos_field_store(const float* in, S4* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i].b = in[i];
}

void launch_aos_field_store(const Buffers& B) { aos_field_store<<<grid_for(kN), kBlock>>>(B.f_in, reinterpret_cast<S4*>(B.f4_out)); }
