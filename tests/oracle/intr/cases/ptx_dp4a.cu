// checks: inline PTX dp4a.u32.u32 (sm_61)
// feature: dp4a
__global__ void k(unsigned* p) {
  unsigned r;
  asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(p[0]), "r"(p[1]), "r"(p[2]));
  p[threadIdx.x] = r;
}
