// checks: inline PTX ld.global.v8.f32 (256-bit vector load)
// feature: ld.global.v8
__global__ void k(const float* g, float* o) {
  float r[8];
  asm volatile("ld.global.v8.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];"
               : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3]), "=f"(r[4]), "=f"(r[5]), "=f"(r[6]), "=f"(r[7]) : "l"(g + 8 * threadIdx.x));
  o[threadIdx.x] = r[0] + r[7];
}
