// checks: inline PTX cvt.rn.f16x2.f32 (pack two floats, sm_80)
// feature: cvt.rn.f16x2.f32
__global__ void k(const float* f, unsigned* o) {
  unsigned r;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(f[0]), "f"(f[1]));
  o[threadIdx.x] = r;
}
