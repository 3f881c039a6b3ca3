// checks: inline PTX cvt.rn.bf16x2.f32 (sm_80)
// feature: cvt.rn.bf16x2
__global__ void k(const float* f, unsigned* o) {
  unsigned r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(f[0]), "f"(f[1]));
  o[threadIdx.x] = r;
}
