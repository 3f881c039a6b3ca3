// checks: inline PTX redux.sync.max.f32 (floating-point warp reduction, arch-specific Blackwell)
// feature: redux.sync.max.f32
__global__ void k(float* p) {
  float r;
  asm volatile("redux.sync.max.f32 %0, %1, 0xffffffff;" : "=f"(r) : "f"(p[threadIdx.x]));
  p[threadIdx.x] = r;
}
