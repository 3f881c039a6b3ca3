// checks: __nv_fp8_e8m0 (UE8M0 scale type) conversion
// feature: __nv_fp8_e8m0
#include <cuda_fp8.h>
__global__ void k(const float* f, float* o) {
  __nv_fp8_e8m0 s(f[0]);
  o[0] = float(s);
}
