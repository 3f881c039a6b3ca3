// checks: inline PTX vote.ballot.b32 without .sync (not supported from sm_70 on)
// feature: vote.ballot
__global__ void k(unsigned* p) {
  unsigned r;
  asm volatile("{\n .reg .pred q;\n setp.ne.u32 q, %1, 0;\n vote.ballot.b32 %0, q;\n}" : "=r"(r) : "r"(p[threadIdx.x]));
  p[threadIdx.x] = r;
}
