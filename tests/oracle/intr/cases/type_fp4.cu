// checks: __nv_fp4_e2m1 / __nv_cvt_float2_to_fp4x2
// feature: __nv_fp4_e2m1
// feature: __nv_cvt_float2_to_fp4x2
#include <cuda_fp4.h>
__global__ void k(const float2* f, float* o, __nv_fp4x2_storage_t* s) {
  __nv_fp4_e2m1 a(f[0].x);
  s[0] = __nv_cvt_float2_to_fp4x2(f[1], __NV_E2M1, cudaRoundNearest);
  o[0] = float(a);
}
