// struct elements assigned through the implicit operator=: unit-stride load, store at stride 4
// access bytes per thread: ld 8, st 8
#include "../harness.cuh"

struct Pair { float a, b; };
__global__ void class_store_stride4(const Pair* in, Pair* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[4 * i] = in[i];
}

void launch_class_store_stride4(const Buffers& B) { class_store_stride4<<<grid_for(kN), kBlock>>>(reinterpret_cast<const Pair*>(B.f2_in), reinterpret_cast<Pair*>(B.f2_out)); }
