// checks: bf16 __hmax2/__hadd2/__hmul2/atomicAdd: CUDA 13 emulates them below sm_80
// feature: __hmax2
// feature: __hadd2
// feature: __hmul2
// feature: __hmax
#include <cuda_bf16.h>
__global__ void k(__nv_bfloat162* p, __nv_bfloat16* q) {
  p[0] = __hmax2(p[0], p[1]);
  p[1] = __hadd2(p[1], p[2]);
  p[2] = __hmul2(p[2], p[3]);
  q[0] = __hmax(q[1], q[2]);
  atomicAdd(&p[3], p[4]);
  atomicAdd(&q[3], q[4]);
}
