// checks: __shfl_sync/__ballot_sync/__any_sync/__all_sync/__activemask/__syncwarp: the _sync forms are fine everywhere
// feature: __shfl_sync
// feature: __ballot_sync
// feature: __any_sync
// feature: __all_sync
// feature: __activemask
// feature: __syncwarp
__global__ void k(int* p) {
  unsigned m = __activemask();
  int v = __shfl_sync(m, p[threadIdx.x], 0) + __shfl_xor_sync(m, p[0], 1) + __shfl_down_sync(m, p[1], 2) + __shfl_up_sync(m, p[2], 1);
  p[threadIdx.x] = v + __ballot_sync(m, v > 0) + __any_sync(m, v) + __all_sync(m, v);
  __syncwarp();
}
