// checks: a __device__ helper using redux.sync PTX, called from a kernel
// feature: redux.sync
__device__ unsigned warp_add(unsigned v) {
  unsigned r;
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
  return r;
}
__global__ void k(unsigned* p) { p[threadIdx.x] = warp_add(p[threadIdx.x]); }
