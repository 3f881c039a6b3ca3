// checks: __hfma2 on __half2: available on every arch nvcc 13 targets (sm_53 and up)
// feature: __hfma2
#include <cuda_fp16.h>
__global__ void k(__half2* p) { p[0] = __hfma2(p[0], p[1], p[2]); }
