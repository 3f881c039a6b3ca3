// checks: inline PTX cvt.rn.satfinite.e2m1x2.f32 (fp4 conversion)
// feature: cvt.rn.satfinite.e2m1x2
__global__ void k(const float* f, unsigned short* o) {
  unsigned short r;
  asm("{\n .reg .b8 t;\n cvt.rn.satfinite.e2m1x2.f32 t, %1, %2;\n cvt.u16.u8 %0, t;\n}" : "=h"(r) : "f"(f[0]), "f"(f[1]));
  o[threadIdx.x] = r;
}
