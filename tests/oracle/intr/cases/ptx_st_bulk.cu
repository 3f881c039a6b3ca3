// checks: inline PTX st.bulk.weak.shared::cta (bulk zero-fill, sm_100)
// feature: st.bulk
__global__ void k(int* out) {
  __shared__ alignas(128) int s[64];
  unsigned a = (unsigned)__cvta_generic_to_shared(s);
  asm volatile("st.bulk.weak.shared::cta [%0], 256, 0;" :: "r"(a) : "memory");
  out[threadIdx.x] = s[threadIdx.x % 64];
}
