// checks: inline PTX shfl.idx.b32 without .sync (not supported from sm_70 on)
// feature: shfl.idx
__global__ void k(int* p) {
  int v = p[threadIdx.x], r;
  asm volatile("shfl.idx.b32 %0, %1, 0, 0x1f;" : "=r"(r) : "r"(v));
  p[threadIdx.x] = r;
}
