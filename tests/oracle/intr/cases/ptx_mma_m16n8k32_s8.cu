// checks: inline PTX mma.sync m16n8k32 s8 with s32 accumulator (sm_80)
// feature: mma.sync.aligned.m16n8k32
__global__ void k(const unsigned* a, const unsigned* b, int* c) {
  int d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+r"(d0), "+r"(d1), "+r"(d2), "+r"(d3) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  c[threadIdx.x] = d0 + d1 + d2 + d3;
}
