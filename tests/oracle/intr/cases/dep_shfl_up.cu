// checks: __shfl_up without _sync (removed from sm_70 on)
// feature: __shfl_up
__global__ void k(int* p) {
  int v = p[threadIdx.x];
  p[threadIdx.x] = __shfl_up(v, 1);
}
