// checks: __nv_bfloat16 arithmetic operators and conversions
// expect: ok
#include <cuda_bf16.h>
__global__ void k(__nv_bfloat16* p, float* f) {
  __nv_bfloat16 a = p[0] * p[1] + p[2];
  a += __float2bfloat16(f[0]);
  f[1] = __bfloat162float(a) + (a > p[3] ? 1.f : 0.f);
}
