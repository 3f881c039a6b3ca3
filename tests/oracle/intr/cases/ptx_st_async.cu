// checks: inline PTX st.async to distributed shared memory (sm_90)
// feature: st.async
__global__ void k(unsigned v) {
  __shared__ unsigned s[32];
  __shared__ unsigned long long bar;
  unsigned sa = (unsigned)__cvta_generic_to_shared(s), ba = (unsigned)__cvta_generic_to_shared(&bar);
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];" :: "r"(sa), "r"(v), "r"(ba) : "memory");
}
