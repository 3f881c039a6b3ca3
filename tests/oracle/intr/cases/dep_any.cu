// checks: __any without _sync (removed from sm_70 on)
// feature: __any
__global__ void k(int* p) {
  int v = p[threadIdx.x];
  p[threadIdx.x] = __any(v > 0);
}
