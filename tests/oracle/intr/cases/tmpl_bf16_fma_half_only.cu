// checks: the same generic fma template instantiated only with __half2
// feature: __hfma2
#include <cuda_fp16.h>
#include <cuda_bf16.h>
template <typename T> __device__ T fma3(T a, T b, T c) { return __hfma2(a, b, c); }
__global__ void k(__half2* p) { p[0] = fma3(p[0], p[1], p[2]); }
