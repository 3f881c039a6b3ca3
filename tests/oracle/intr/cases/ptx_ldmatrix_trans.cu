// checks: inline PTX ldmatrix .x2.trans (sm_75)
// feature: ldmatrix
__global__ void k(unsigned* out) {
  __shared__ unsigned short s[16 * 8];
  unsigned a = (unsigned)__cvta_generic_to_shared(&s[(threadIdx.x % 16) * 8]);
  unsigned r0, r1;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
  out[threadIdx.x] = r0 ^ r1;
}
