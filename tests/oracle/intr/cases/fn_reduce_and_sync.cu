// checks: __reduce_and_sync (warp reduction, sm_80) called unguarded from a kernel
// feature: __reduce_and_sync
__global__ void k(unsigned* out, unsigned v) {
  out[threadIdx.x] = __reduce_and_sync(0xffffffffu, v + (unsigned)threadIdx.x);
}
