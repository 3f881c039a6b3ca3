// checks: inline PTX max.xorsign.abs.f16 (sm_86)
// feature: max.xorsign.abs
__global__ void k(unsigned short* p) {
  unsigned short r;
  asm("max.xorsign.abs.f16 %0, %1, %2;" : "=h"(r) : "h"(p[0]), "h"(p[1]));
  p[threadIdx.x] = r;
}
