// 16-byte aligned struct copied whole (one 128-bit access)
// access bytes per thread: ld 16, st 16
#include "../harness.cuh"

struct __align__(16) Quad { float a, b, c, d; };
__global__ void aos_float4_struct_aligned(const Quad* in, Quad* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[i];
}

void launch_aos_float4_struct_aligned(const Buffers& B) { aos_float4_struct_aligned<<<grid_for(kN), kBlock>>>(reinterpret_cast<const Quad*>(B.f4_in), reinterpret_cast<Quad*>(B.f4_out)); }
