// checks: __nv_fp8x2_e5m2 from float2 and to __half2
// feature: __nv_fp8x2_e5m2
#include <cuda_fp8.h>
__global__ void k(const float2* f, __half2* o) {
  __nv_fp8x2_e5m2 x(f[0]);
  o[0] = __half2(x);
}
