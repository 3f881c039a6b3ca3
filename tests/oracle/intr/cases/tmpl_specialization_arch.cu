// checks: explicit specialisations chosen by an arch constant; only the selected one is instantiated
// expect: ok
#ifdef __CUDA_ARCH__
constexpr int kArch = __CUDA_ARCH__;
#else
constexpr int kArch = 0;
#endif
template <bool HasRedux> struct Sum;
template <> struct Sum<true> {
  template <typename T> __device__ static T run(T v) { return __reduce_add_sync(0xffffffffu, v); }
};
template <> struct Sum<false> {
  template <typename T> __device__ static T run(T v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
  }
};
__global__ void k(int* p) { p[threadIdx.x] = Sum<(kArch >= 800)>::template run(p[threadIdx.x]); }
