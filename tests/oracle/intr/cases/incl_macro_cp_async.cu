// checks: a cp.async macro and wait helper from a local header
// feature: cp.async
#include "include/async_copy.cuh"
__global__ void k(const int* g, int* out) {
  __shared__ int s[128];
  ORACLE_CP_ASYNC_4(&s[threadIdx.x], g + threadIdx.x);
  cp_async_wait_all();
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
