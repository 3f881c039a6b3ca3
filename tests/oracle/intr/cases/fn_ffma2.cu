// checks: __ffma2_rz on float2 (sm_100)
// feature: __ffma2_rz
__global__ void k(float2* p) { p[0] = __ffma2_rz(p[1], p[2], p[3]); }
