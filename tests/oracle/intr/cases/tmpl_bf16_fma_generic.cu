// checks: a generic fma template instantiated with __nv_bfloat162 (picks the sm_80 bf16 __hfma2 overload)
// feature: __hfma2(__nv_bfloat162)
#include <cuda_bf16.h>
template <typename T> __device__ T fma3(T a, T b, T c) { return __hfma2(a, b, c); }
__global__ void k(__nv_bfloat162* p) { p[0] = fma3(p[0], p[1], p[2]); }
