// checks: inline PTX tcgen05.mma.cta_group::1.kind::f16 + tcgen05.commit (arch-specific)
// feature: tcgen05.mma
// feature: tcgen05.commit
__global__ void k(unsigned long long adesc, unsigned long long bdesc, unsigned idesc, unsigned dtmem) {
  __shared__ unsigned long long bar;
  unsigned ba = (unsigned)__cvta_generic_to_shared(&bar);
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %4, 0;\n"
               " tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n}"
               :: "r"(dtmem), "l"(adesc), "l"(bdesc), "r"(idesc), "r"(1));
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" :: "r"(ba) : "memory");
}
