// checks: inline PTX mma.sync m8n8k16 s8 (sm_75)
// feature: mma.sync.aligned.m8n8k16
__global__ void k(const unsigned* a, const unsigned* b, int* c) {
  int d0 = 0, d1 = 0;
  asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0, %1}, {%2}, {%3}, {%0, %1};"
               : "+r"(d0), "+r"(d1) : "r"(a[0]), "r"(b[0]));
  c[threadIdx.x] = d0 + d1;
}
