// checks: __nv_cvt_float2_to_fp8x2 and __nv_cvt_fp8x2_to_halfraw2 (hardware cvt from sm_89, emulated below)
// feature: __nv_cvt_float2_to_fp8x2
// feature: __nv_cvt_fp8x2_to_halfraw2
#include <cuda_fp8.h>
__global__ void k(const float2* f, __half2_raw* o) {
  __nv_fp8x2_storage_t s = __nv_cvt_float2_to_fp8x2(f[0], __NV_SATFINITE, __NV_E4M3);
  o[0] = __nv_cvt_fp8x2_to_halfraw2(s, __NV_E4M3);
}
