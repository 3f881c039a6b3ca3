// checks: __reduce_xor_sync (warp reduction, sm_80) called unguarded from a kernel
// feature: __reduce_xor_sync
__global__ void k(unsigned* out, unsigned v) {
  out[threadIdx.x] = __reduce_xor_sync(0xffffffffu, v + (unsigned)threadIdx.x);
}
