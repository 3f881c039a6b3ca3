// checks: a legacy SHFL macro expanding to __shfl_down
// feature: __shfl_down
#define SHFL_DOWN(v, d) __shfl_down(v, d)
__global__ void k(float* p) { p[threadIdx.x] += SHFL_DOWN(p[threadIdx.x], 1); }
