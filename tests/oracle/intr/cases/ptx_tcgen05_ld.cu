// checks: inline PTX tcgen05.ld.sync.aligned.32x32b + tcgen05.wait::ld (arch-specific)
// feature: tcgen05.ld
// feature: tcgen05.wait
__global__ void k(unsigned* out) {
  __shared__ unsigned taddr;
  unsigned a = (unsigned)__cvta_generic_to_shared(&taddr);
  unsigned r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];" : "=r"(r) : "r"(taddr));
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  out[threadIdx.x] = r + a;
}
