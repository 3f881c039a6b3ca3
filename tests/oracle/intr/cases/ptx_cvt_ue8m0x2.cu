// checks: inline PTX cvt.rz.satfinite.ue8m0x2.f32 (block-scale exponent conversion)
// feature: cvt.rz.satfinite.ue8m0x2
__global__ void k(const float* f, unsigned short* o) {
  unsigned short r;
  asm("cvt.rz.satfinite.ue8m0x2.f32 %0, %1, %2;" : "=h"(r) : "f"(f[0]), "f"(f[1]));
  o[threadIdx.x] = r;
}
