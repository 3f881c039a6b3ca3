// checks: __hcmadd on __nv_bfloat162 (complex multiply-add)
// feature: __hcmadd(__nv_bfloat162)
#include <cuda_bf16.h>
__global__ void k(__nv_bfloat162* p) { p[0] = __hcmadd(p[0], p[1], p[2]); }
