// checks: #if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900 around a __host__ __device__ helper using clusters
// expect: ok
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
__device__ unsigned rank() { return __clusterRelativeBlockRank(); }
#else
__device__ unsigned rank() { return 0; }
#endif
__global__ void k(unsigned* p) { p[threadIdx.x] = rank(); }
