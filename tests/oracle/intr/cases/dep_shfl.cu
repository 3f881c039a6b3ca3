// checks: __shfl without _sync (removed from sm_70 on)
// feature: __shfl
__global__ void k(int* p) {
  int v = p[threadIdx.x];
  p[threadIdx.x] = __shfl(v, 0);
}
