// checks: a __host__ __device__ helper using __shfl_sync only inside #ifdef __CUDA_ARCH__, called from host and device
// expect: ok
__host__ __device__ int bcast(int v) {
#ifdef __CUDA_ARCH__
  return __shfl_sync(0xffffffffu, v, 0);
#else
  return v;
#endif
}
__global__ void k(int* p) { p[threadIdx.x] = bcast(p[threadIdx.x]); }
int host_side(int v) { return bcast(v); }
