// checks: __nv_fp8_e4m3 construction and conversion (emulated below sm_89)
// feature: __nv_fp8_e4m3
#include <cuda_fp8.h>
__global__ void k(const float* f, __nv_fp8_e4m3* o, float* back) {
  __nv_fp8_e4m3 x(f[0]);
  o[0] = x;
  back[0] = float(x);
}
