// a user-defined operator+= on struct elements at stride 2: it loads and stores them
// access bytes per thread: ld 8, st 8
#include "../harness.cuh"

struct Acc {
  float a, b;
  __device__ Acc& operator+=(const Acc& o) {
    a += o.a;
    b += o.b;
    return *this;
  }
};
__global__ void class_compound_stride2(Acc* acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) acc[2 * i] += Acc{1.0f, 2.0f};
}

void launch_class_compound_stride2(const Buffers& B) { class_compound_stride2<<<grid_for(kN), kBlock>>>(reinterpret_cast<Acc*>(B.f2_out)); }
