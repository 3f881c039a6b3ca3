// checks: NV_IF_TARGET(NV_PROVIDES_SM_75, cp.async): the guard is too low, sm_75 fails
// feature: cp.async
#include <nv/target>
__global__ void k(const int* g, int* out) {
  __shared__ int s[128];
  s[threadIdx.x] = 0;
  NV_IF_TARGET(NV_PROVIDES_SM_75, (
    unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\ncp.async.wait_all;" :: "r"(sa), "l"(g + threadIdx.x));))
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
