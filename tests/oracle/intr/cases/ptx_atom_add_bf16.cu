// checks: inline PTX atom.global.add.noftz.bf16 (sm_90)
// feature: atom.global.add.noftz.bf16
__global__ void k(unsigned short* p, unsigned short v) {
  unsigned short r;
  asm volatile("atom.global.add.noftz.bf16 %0, [%1], %2;" : "=h"(r) : "l"(p), "h"(v) : "memory");
  p[threadIdx.x + 1] = r;
}
