// checks: __hfma2 on __nv_bfloat162 (the bf16 overload; the __half2 one needs only sm_53)
// feature: __hfma2(__nv_bfloat162)
#include <cuda_bf16.h>
__global__ void k(__nv_bfloat162* p) { p[0] = __hfma2(p[0], p[1], p[2]); }
