// checks: __ballot without _sync (removed from sm_70 on)
// feature: __ballot
__global__ void k(int* p) {
  int v = p[threadIdx.x];
  p[threadIdx.x] = (int)__ballot(v > 0);
}
