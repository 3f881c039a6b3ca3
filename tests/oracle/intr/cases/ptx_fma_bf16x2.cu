// checks: inline PTX fma.rn.bf16x2 (sm_80)
// feature: fma.rn.bf16x2
__global__ void k(unsigned* p) {
  unsigned r;
  asm("fma.rn.bf16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(p[0]), "r"(p[1]), "r"(p[2]));
  p[threadIdx.x] = r;
}
