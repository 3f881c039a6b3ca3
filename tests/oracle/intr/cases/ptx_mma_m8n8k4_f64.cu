// checks: inline PTX mma.sync m8n8k4 f64 (sm_80)
// feature: mma.sync.aligned.m8n8k4.row.col.f64
__global__ void k(const double* a, const double* b, double* c) {
  double d0 = 0, d1 = 0;
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
               : "+d"(d0), "+d"(d1) : "d"(a[threadIdx.x]), "d"(b[threadIdx.x]));
  c[threadIdx.x] = d0 + d1;
}
