// checks: inline PTX ldmatrix m16n16 .b8 (8-bit element shapes: arch-specific Blackwell targets)
// feature: ldmatrix.sync.aligned.m16n16
__global__ void k(unsigned* out) {
  __shared__ unsigned char s[16 * 16];
  unsigned a = (unsigned)__cvta_generic_to_shared(&s[(threadIdx.x % 16) * 16]);
  unsigned r0, r1;
  asm volatile("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
  out[threadIdx.x] = r0 ^ r1;
}
