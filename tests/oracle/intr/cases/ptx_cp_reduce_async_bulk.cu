// checks: inline PTX cp.reduce.async.bulk .add.u32 (sm_90)
// feature: cp.reduce.async.bulk
// feature: cp.async.bulk
__global__ void k(unsigned* g) {
  __shared__ alignas(128) unsigned s[64];
  s[threadIdx.x % 64] = 1;
  unsigned sa = (unsigned)__cvta_generic_to_shared(s);
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], 256;" :: "l"(g), "r"(sa) : "memory");
  asm volatile("cp.async.bulk.commit_group;");
}
