// checks: __half math (hexp, hsqrt, __hmax_nan, h2rcp)
// feature: hexp
// feature: hsqrt
// feature: __hmax_nan
// feature: h2rcp
#include <cuda_fp16.h>
__global__ void k(__half* p, __half2* q) {
  p[0] = hexp(p[1]) + hsqrt(p[2]);
  p[3] = __hmax_nan(p[4], p[5]);
  q[0] = h2rcp(q[1]);
}
