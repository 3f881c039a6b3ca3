// checks: a kernel template whose body calls memset and memcpy in device code (declared by
// CUDA's common_functions.h, which nvcc includes implicitly), keeps a __half2 in a union and
// builds one from two halves; its launch instantiates it, so its warp reduction (sm_80) is
// compiled
// feature: __reduce_add_sync
#include <cuda_fp16.h>

union Packed {
  __half2 h2;
  unsigned u;
};

template <int N>
__global__ void k(unsigned* out, const __half* in) {
  unsigned buf[N];
  memset(buf, 0, sizeof(buf));
  Packed p;
  p.h2 = __half2{in[0], in[1]};
  memcpy(&buf[0], &p.u, sizeof(unsigned));
  out[threadIdx.x] = __reduce_add_sync(0xffffffffu, buf[0]);
}

void launch(unsigned* out, const __half* in) { k<4><<<1, 32>>>(out, in); }
