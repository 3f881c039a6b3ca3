// checks: NV_IF_TARGET(NV_IS_EXACTLY_SM_80, cp.async): only sm_80 takes the branch
// expect: ok
#include <nv/target>
__global__ void k(const int* g, int* out) {
  __shared__ int s[128];
  s[threadIdx.x] = 0;
  NV_IF_TARGET(NV_IS_EXACTLY_SM_80, (
    unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\ncp.async.wait_all;" :: "r"(sa), "l"(g + threadIdx.x));))
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
