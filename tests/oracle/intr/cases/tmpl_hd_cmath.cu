// checks: a __host__ __device__ function template that calls expf and sqrtf after <cmath> (whose
// declarations are host-only; CUDA's math functions are __host__ __device__), instantiated from a
// kernel: its warp reduction (sm_80) is compiled
// feature: __reduce_add_sync
#include <cmath>

template <int N>
__host__ __device__ float warp_total(float x) {
  float y = expf(x) * N + sqrtf(x);
#ifdef __CUDA_ARCH__
  y += __reduce_add_sync(0xffffffffu, static_cast<unsigned>(y));
#endif
  return y;
}

__global__ void k(float* out) { out[threadIdx.x] = warp_total<2>(out[threadIdx.x]); }
