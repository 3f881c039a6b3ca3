// checks: __fmul2_rd on float2 (sm_100)
// feature: __fmul2_rd
__global__ void k(float2* p) { p[0] = __fmul2_rd(p[1], p[2]); }
