// checks: inline PTX ld.global.L2::256B prefetch-size qualifier (sm_80)
// feature: ld.global.L2::256B
__global__ void k(const int* g, int* o) {
  int r;
  asm volatile("ld.global.L2::256B.b32 %0, [%1];" : "=r"(r) : "l"(g + threadIdx.x));
  o[threadIdx.x] = r;
}
