// checks: __fadd2_rn on float2 (packed fp32 add, sm_100)
// feature: __fadd2_rn
__global__ void k(float2* p) { p[0] = __fadd2_rn(p[1], p[2]); }
