// checks: inline PTX bmsk.clamp.b32 and szext.wrap.u32 (sm_70)
// feature: bmsk
// feature: szext
__global__ void k(unsigned* p) {
  unsigned a, b;
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(a) : "r"(p[0]), "r"(p[1]));
  asm("szext.wrap.u32 %0, %1, %2;" : "=r"(b) : "r"(p[2]), "r"(p[3]));
  p[threadIdx.x] = a + b;
}
