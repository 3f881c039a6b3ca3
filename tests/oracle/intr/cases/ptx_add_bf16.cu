// checks: inline PTX add.rn.bf16 (bf16 add instruction, sm_90)
// feature: add.rn.bf16
__global__ void k(unsigned short* p) {
  unsigned short r;
  asm("add.rn.bf16 %0, %1, %2;" : "=h"(r) : "h"(p[0]), "h"(p[1]));
  p[threadIdx.x] = r;
}
