// checks: __all without _sync (removed from sm_70 on)
// feature: __all
__global__ void k(int* p) {
  int v = p[threadIdx.x];
  p[threadIdx.x] = __all(v > 0);
}
