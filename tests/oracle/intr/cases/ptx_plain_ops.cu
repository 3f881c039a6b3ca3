// checks: inline PTX that every arch accepts: lop3, prmt, shf, mov from %laneid, bar.sync, membar
// expect: ok
__global__ void k(unsigned* p) {
  unsigned r, l;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(p[0]), "r"(p[1]), "r"(p[2]));
  asm("prmt.b32 %0, %0, %1, 0x3210;" : "+r"(r) : "r"(p[3]));
  asm("shf.l.wrap.b32 %0, %0, %0, 3;" : "+r"(r));
  asm("mov.u32 %0, %%laneid;" : "=r"(l));
  asm volatile("bar.sync 0;");
  asm volatile("membar.gl;");
  p[threadIdx.x] = r + l;
}
