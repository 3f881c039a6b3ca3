// checks: if constexpr on a template arch parameter around a dependent __reduce_add_sync call: the discarded branch is never instantiated
// expect: ok
template <int SM, typename T>
__device__ T warp_sum(T v) {
  if constexpr (SM >= 800) {
    return __reduce_add_sync(0xffffffffu, v);
  } else {
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
  }
}
#ifdef __CUDA_ARCH__
constexpr int kArch = __CUDA_ARCH__;
#else
constexpr int kArch = 0;
#endif
__global__ void k(unsigned* p) { p[threadIdx.x] = warp_sum<kArch>(p[threadIdx.x]); }
