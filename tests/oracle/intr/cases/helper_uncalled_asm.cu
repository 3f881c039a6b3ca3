// checks: a non-inline __device__ helper with elect.sync PTX that no kernel calls
// expect: ok
// note: whole-program compilation (no -rdc) emits no PTX for an unreferenced __device__ function, so ptxas never sees the asm
__device__ unsigned elect_one() {
  unsigned r;
  asm volatile("{\n .reg .pred P;\n elect.sync %0|P, 0xffffffff;\n}" : "=r"(r));
  return r;
}
__global__ void k(unsigned* p) { p[threadIdx.x] = 1; }
