// checks: inline PTX cvt.rna.tf32.f32 (sm_80)
// feature: cvt.rna.tf32
__global__ void k(float* f) {
  unsigned r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(f[threadIdx.x]));
  f[threadIdx.x] = __uint_as_float(r);
}
