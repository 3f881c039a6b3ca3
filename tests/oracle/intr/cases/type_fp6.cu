// checks: __nv_fp6_e2m3 / __nv_fp6x2_e3m2 conversions
// feature: __nv_fp6_e2m3
// feature: __nv_fp6x2_e3m2
#include <cuda_fp6.h>
__global__ void k(const float* f, float* o) {
  __nv_fp6_e2m3 a(f[0]);
  __nv_fp6x2_e3m2 b(make_float2(f[1], f[2]));
  o[0] = float(a) + float2(b).x;
}
