// checks: host branch #ifndef __CUDA_ARCH__ holds a deprecated call in a __host__ __device__ function
// expect: ok
__host__ __device__ int f(int v) {
#ifndef __CUDA_ARCH__
  return v * 2;
#else
  return __shfl_sync(0xffffffffu, v, 0);
#endif
}
__global__ void k(int* p) { p[threadIdx.x] = f(p[threadIdx.x]); }
