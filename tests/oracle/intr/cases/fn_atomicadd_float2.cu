// checks: atomicAdd on float2* (vector atomic overload, sm_90)
// feature: atomicAdd(float2*)
__global__ void k(float2* p) { atomicAdd(p, make_float2(1.f, 2.f)); }
