// checks: inline PTX min.NaN.f16x2 (sm_80)
// feature: min.NaN
__global__ void k(unsigned* p) {
  unsigned r;
  asm("min.NaN.f16x2 %0, %1, %2;" : "=r"(r) : "r"(p[0]), "r"(p[1]));
  p[threadIdx.x] = r;
}
