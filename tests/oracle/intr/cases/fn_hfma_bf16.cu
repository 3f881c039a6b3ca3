// checks: __hfma on __nv_bfloat16
// feature: __hfma(__nv_bfloat16)
#include <cuda_bf16.h>
__global__ void k(__nv_bfloat16* p) { p[0] = __hfma(p[0], p[1], p[2]); }
