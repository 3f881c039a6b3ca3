// checks: inline PTX cp.async.bulk shared::cta->global bulk_group with commit/wait (sm_90)
// feature: cp.async.bulk
__global__ void k(int4* g) {
  __shared__ alignas(128) int4 s[64];
  s[threadIdx.x % 64] = make_int4(1, 2, 3, 4);
  unsigned sa = (unsigned)__cvta_generic_to_shared(s);
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 1024;" :: "l"(g), "r"(sa) : "memory");
  asm volatile("cp.async.bulk.commit_group;");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
