// checks: inline PTX cp.async.ca.shared.global + cp.async.wait_all (sm_80)
// feature: cp.async
__global__ void k(const int* g, int* out) {
  __shared__ int s[128];
  unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(sa), "l"(g + threadIdx.x));
  asm volatile("cp.async.wait_all;" ::);
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
