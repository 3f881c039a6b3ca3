// checks: inline PTX redux.sync.add.u32 and redux.sync.min.s32 (sm_80)
// feature: redux.sync
__global__ void k(unsigned* p, int* q) {
  unsigned r; int m;
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(p[threadIdx.x]));
  asm volatile("redux.sync.min.s32 %0, %1, 0xffffffff;" : "=r"(m) : "r"(q[threadIdx.x]));
  p[threadIdx.x] = r; q[threadIdx.x] = m;
}
