// checks: __reduce_add_sync inside #if __CUDA_ARCH__ >= 800 with a shuffle fallback
// expect: ok
__global__ void k(int* p) {
  int v = p[threadIdx.x];
#if __CUDA_ARCH__ >= 800
  v = __reduce_add_sync(0xffffffffu, v);
#else
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
#endif
  p[threadIdx.x] = v;
}
