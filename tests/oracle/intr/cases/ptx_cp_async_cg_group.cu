// checks: inline PTX cp.async.cg 16 bytes with commit_group/wait_group (sm_80)
// feature: cp.async
__global__ void k(const int4* g, int4* out) {
  __shared__ int4 s[128];
  unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(sa), "l"(g + threadIdx.x));
  asm volatile("cp.async.commit_group;" ::);
  asm volatile("cp.async.wait_group 0;" ::);
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
