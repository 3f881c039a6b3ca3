// checks: cp.async under #if __CUDA_ARCH__ >= 750: the threshold is too low, sm_75 fails
// feature: cp.async if __CUDA_ARCH__ >= 750
__global__ void k(const int* g, int* out) {
  __shared__ int s[128];
  s[threadIdx.x] = 0;
#if __CUDA_ARCH__ >= 750
  unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\ncp.async.wait_all;" :: "r"(sa), "l"(g + threadIdx.x));
#endif
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
