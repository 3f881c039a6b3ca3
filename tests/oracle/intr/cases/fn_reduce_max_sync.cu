// checks: __reduce_max_sync (warp reduction, sm_80) called unguarded from a kernel
// feature: __reduce_max_sync
__global__ void k(int* out, int v) {
  out[threadIdx.x] = __reduce_max_sync(0xffffffffu, v + (int)threadIdx.x);
}
