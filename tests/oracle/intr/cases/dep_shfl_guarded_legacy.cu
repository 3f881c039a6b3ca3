// checks: __shfl_xor only under #if __CUDA_ARCH__ < 700, __shfl_xor_sync otherwise
// expect: ok
__global__ void k(int* p) {
  int v = p[threadIdx.x];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
  v += __shfl_xor(v, 1);
#else
  v += __shfl_xor_sync(0xffffffffu, v, 1);
#endif
  p[threadIdx.x] = v;
}
