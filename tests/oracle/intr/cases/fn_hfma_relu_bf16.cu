// checks: __hfma_relu on __nv_bfloat16
// feature: __hfma_relu(__nv_bfloat16)
#include <cuda_bf16.h>
__global__ void k(__nv_bfloat16* p) { p[0] = __hfma_relu(p[0], p[1], p[2]); }
