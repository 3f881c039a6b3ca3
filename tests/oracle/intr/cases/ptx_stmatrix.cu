// checks: inline PTX stmatrix.sync.aligned.m8n8.x1.shared.b16 (sm_90)
// feature: stmatrix
__global__ void k(unsigned* out, unsigned v) {
  __shared__ unsigned short s[8 * 8];
  unsigned a = (unsigned)__cvta_generic_to_shared(&s[(threadIdx.x % 8) * 8]);
  asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(a), "r"(v));
  __syncwarp();
  out[threadIdx.x] = s[threadIdx.x % 64];
}
