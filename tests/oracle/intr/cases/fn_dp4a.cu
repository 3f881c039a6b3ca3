// checks: __dp4a/__dp2a_lo (sm_61)
// feature: __dp4a
// feature: __dp2a_lo
__global__ void k(int* p) { p[0] = __dp4a(p[1], p[2], p[3]) + __dp2a_lo(p[4], p[5], p[6]); }
