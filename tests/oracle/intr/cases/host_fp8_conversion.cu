// checks: fp8 conversions in a host function
// expect: ok
#include <cuda_fp8.h>
float host_fp8(float a) {
  __nv_fp8_e4m3 x(a);
  __nv_fp8x2_storage_t s = __nv_cvt_float2_to_fp8x2(make_float2(a, a), __NV_SATFINITE, __NV_E5M2);
  return float(x) + (float)s;
}
__global__ void k(float* p) { p[threadIdx.x] = 1.f; }
