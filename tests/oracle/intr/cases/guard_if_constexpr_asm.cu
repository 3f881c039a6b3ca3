// checks: if constexpr (kArch >= 900) around elect.sync asm in a non-template kernel
// expect: ok
#ifdef __CUDA_ARCH__
constexpr int kArch = __CUDA_ARCH__;
#else
constexpr int kArch = 0;
#endif
__global__ void k(unsigned* p) {
  unsigned r = 0;
  if constexpr (kArch >= 900) {
    asm volatile("{\n .reg .pred P;\n elect.sync %0|P, 0xffffffff;\n}" : "=r"(r));
  }
  p[threadIdx.x] = r;
}
