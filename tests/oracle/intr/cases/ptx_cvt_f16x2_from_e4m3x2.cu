// checks: inline PTX cvt.rn.f16x2.e4m3x2 (fp8 to half2, sm_89)
// feature: cvt.rn.f16x2.e4m3x2
__global__ void k(const unsigned short* in, unsigned* o) {
  unsigned r;
  asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(r) : "h"(in[threadIdx.x]));
  o[threadIdx.x] = r;
}
