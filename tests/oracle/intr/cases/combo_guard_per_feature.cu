// checks: each feature guarded at its own minimum (cp.async >= 800, elect.sync >= 900)
// expect: ok
__global__ void k(const int* g, int* out) {
  __shared__ int s[128];
  s[threadIdx.x] = 0;
  unsigned r = 0;
#if __CUDA_ARCH__ >= 800
  unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\ncp.async.wait_all;" :: "r"(sa), "l"(g + threadIdx.x));
#endif
#if __CUDA_ARCH__ >= 900
  asm volatile("{\n .reg .pred P;\n elect.sync %0|P, 0xffffffff;\n}" : "=r"(r));
#endif
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x] + r;
}
