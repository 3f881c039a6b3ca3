// checks: __half and __nv_bfloat16 arithmetic in host-only code
// expect: ok
#include <cuda_fp16.h>
#include <cuda_bf16.h>
float host_mix(float a, float b) {
  __half h = __float2half(a) + __float2half(b);
  __nv_bfloat16 x = __float2bfloat16(a) * __float2bfloat16(b);
  return __half2float(h) + __bfloat162float(x);
}
__global__ void k(float* p) { p[threadIdx.x] = 1.f; }
