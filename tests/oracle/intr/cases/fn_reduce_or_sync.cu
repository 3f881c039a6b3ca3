// checks: __reduce_or_sync (warp reduction, sm_80) called unguarded from a kernel
// feature: __reduce_or_sync
__global__ void k(unsigned* out, unsigned v) {
  out[threadIdx.x] = __reduce_or_sync(0xffffffffu, v + (unsigned)threadIdx.x);
}
