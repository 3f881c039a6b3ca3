// checks: #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800 selects a fallback; cp.async otherwise
// expect: ok
__global__ void k(const int* g, int* out) {
  __shared__ int s[128];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  s[threadIdx.x] = g[threadIdx.x];
#else
  unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\ncp.async.wait_all;" :: "r"(sa), "l"(g + threadIdx.x));
#endif
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
