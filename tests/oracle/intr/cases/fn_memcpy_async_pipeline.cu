// checks: __pipeline_memcpy_async/__pipeline_commit/__pipeline_wait_prior (emulated below sm_80)
// feature: __pipeline_memcpy_async
// feature: __pipeline_commit
// feature: __pipeline_wait_prior
#include <cuda_pipeline.h>
__global__ void k(const int4* g, int4* out) {
  __shared__ int4 s[32];
  __pipeline_memcpy_async(&s[threadIdx.x % 32], &g[threadIdx.x], sizeof(int4));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[threadIdx.x] = s[threadIdx.x % 32];
}
