// checks: setmaxnreg under #if defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL)
// expect: ok
__global__ void __launch_bounds__(128) k(int* p) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
#endif
  p[threadIdx.x] = threadIdx.x;
}
