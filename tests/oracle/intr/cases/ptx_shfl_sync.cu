// checks: inline PTX shfl.sync.bfly.b32 and vote.sync.ballot.b32 (sm_30+/sm_70 .sync forms)
// feature: shfl.sync
// feature: vote.sync
__global__ void k(unsigned* p) {
  unsigned r, b;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=r"(r) : "r"(p[threadIdx.x]));
  asm volatile("{\n .reg .pred q;\n setp.ne.u32 q, %1, 0;\n vote.sync.ballot.b32 %0, q, 0xffffffff;\n}" : "=r"(b) : "r"(r));
  p[threadIdx.x] = r + b;
}
