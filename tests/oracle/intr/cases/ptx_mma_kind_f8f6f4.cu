// checks: inline PTX mma.sync m16n8k32 .kind::f8f6f4 with e2m1 inputs (sm_120a)
// feature: mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4
__global__ void k(const unsigned* a, const unsigned* b, float* c) {
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  c[threadIdx.x] = d0 + d1 + d2 + d3;
}
