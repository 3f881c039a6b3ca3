// checks: inline PTX ld.global.L1::evict_last (sm_70)
// feature: ld.global.L1::evict_last
__global__ void k(const int* g, int* o) {
  int r;
  asm volatile("ld.global.L1::evict_last.b32 %0, [%1];" : "=r"(r) : "l"(g + threadIdx.x));
  o[threadIdx.x] = r;
}
