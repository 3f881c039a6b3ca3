// checks: __shfl only when __CUDACC_VER_MAJOR__ < 9 (never true for nvcc 13)
// expect: ok
__global__ void k(int* p) {
  int v = p[threadIdx.x];
#if __CUDACC_VER_MAJOR__ < 9
  v = __shfl(v, 0);
#else
  v = __shfl_sync(0xffffffffu, v, 0);
#endif
  p[threadIdx.x] = v;
}
