// checks: two features with different minimums in one kernel: cp.async (sm_80) and stmatrix (sm_90)
// feature: cp.async
// feature: stmatrix
__global__ void k(const int* g, unsigned v, int* out) {
  __shared__ int s[128];
  unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\ncp.async.wait_all;" :: "r"(sa), "l"(g + threadIdx.x));
  unsigned a = (unsigned)__cvta_generic_to_shared(&s[(threadIdx.x % 8) * 4]);
  asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(a), "r"(v));
  out[threadIdx.x] = s[threadIdx.x];
}
