// checks: inline PTX mma.sync m8n8k4 f16 (the Volta shape, sm_70)
// feature: mma.sync.aligned.m8n8k4
__global__ void k(const unsigned* a, const unsigned* b, float* c) {
  float d[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%0, %1, %2, %3, %4, %5, %6, %7};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]));
  c[threadIdx.x] = d[0] + d[7];
}
