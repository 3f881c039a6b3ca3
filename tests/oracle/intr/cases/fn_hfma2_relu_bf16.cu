// checks: __hfma2_relu on __nv_bfloat162
// feature: __hfma2_relu(__nv_bfloat162)
#include <cuda_bf16.h>
__global__ void k(__nv_bfloat162* p) { p[0] = __hfma2_relu(p[0], p[1], p[2]); }
