// checks: __shfl_xor without _sync (removed from sm_70 on)
// feature: __shfl_xor
__global__ void k(int* p) {
  int v = p[threadIdx.x];
  p[threadIdx.x] = __shfl_xor(v, 1);
}
