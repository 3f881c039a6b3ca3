// checks: inline PTX atom.global.v2.f32.add (vector atomics, sm_90)
// feature: atom.global.v2
__global__ void k(float* p) {
  float a, b;
  asm volatile("atom.global.v2.f32.add {%0, %1}, [%2], {%3, %4};" : "=f"(a), "=f"(b) : "l"(p), "f"(1.f), "f"(2.f) : "memory");
  p[threadIdx.x + 2] = a + b;
}
