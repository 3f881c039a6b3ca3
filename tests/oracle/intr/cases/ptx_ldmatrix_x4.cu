// checks: inline PTX ldmatrix.sync.aligned.m8n8.x4.shared.b16 (sm_75)
// feature: ldmatrix
__global__ void k(unsigned* out) {
  __shared__ unsigned short s[16 * 16];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  unsigned a = (unsigned)__cvta_generic_to_shared(&s[(threadIdx.x % 16) * 16]);
  unsigned r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  out[threadIdx.x] = r0 + r1 + r2 + r3;
}
