// checks: atomicAdd_block on float4* (vector atomic overload, sm_90)
// feature: atomicAdd_block(float4*)
__global__ void k(float4* p) { atomicAdd_block(p, make_float4(1.f, 2.f, 3.f, 4.f)); }
