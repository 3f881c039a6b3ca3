// checks: inline PTX cvt.rn.satfinite.e2m3x2.f32 (fp6 conversion)
// feature: cvt.rn.satfinite.e2m3x2
__global__ void k(const float* f, unsigned short* o) {
  unsigned short r;
  asm("cvt.rn.satfinite.e2m3x2.f32 %0, %1, %2;" : "=h"(r) : "f"(f[0]), "f"(f[1]));
  o[threadIdx.x] = r;
}
