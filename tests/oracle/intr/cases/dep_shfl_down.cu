// checks: __shfl_down without _sync (removed from sm_70 on)
// feature: __shfl_down
__global__ void k(int* p) {
  int v = p[threadIdx.x];
  p[threadIdx.x] = __shfl_down(v, 1);
}
