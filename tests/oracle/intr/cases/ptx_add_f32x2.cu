// checks: inline PTX add.rn.f32x2 (packed fp32, sm_100)
// feature: add.rn.f32x2
__global__ void k(unsigned long long* p) {
  unsigned long long r;
  asm("add.rn.f32x2 %0, %1, %2;" : "=l"(r) : "l"(p[0]), "l"(p[1]));
  p[threadIdx.x] = r;
}
