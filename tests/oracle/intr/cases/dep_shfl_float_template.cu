// checks: __shfl_down on float inside an instantiated template reduction
// feature: __shfl_down
template <typename T>
__device__ T warp_sum(T v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);
  return v;
}
__global__ void k(float* p) { p[threadIdx.x] = warp_sum(p[threadIdx.x]); }
