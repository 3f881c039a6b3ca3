// checks: if constexpr on a template arch parameter does not hide a non-dependent call: two-phase lookup still needs __reduce_add_sync declared
// feature: __reduce_add_sync
template <int SM>
__device__ int warp_sum(int v) {
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
__global__ void k(int* p) { p[threadIdx.x] = warp_sum<kArch>(p[threadIdx.x]); }
