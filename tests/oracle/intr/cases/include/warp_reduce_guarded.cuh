// Helper header for the oracle cases: the same reduction guarded on __CUDA_ARCH__.
#pragma once
__device__ __forceinline__ int warp_reduce_add_guarded(int v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(0xffffffffu, v);
#else
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
#endif
}
