// checks: inline PTX discard.global.L2 (sm_80)
// feature: discard.global.L2
__global__ void k(int* g) {
  asm volatile("discard.global.L2 [%0], 128;" :: "l"(g) : "memory");
}
