// checks: atomicCAS on unsigned short (sm_70): no constraint on sm_75+
// feature: atomicCAS
__global__ void k(unsigned short* p) { atomicCAS(p, (unsigned short)0, (unsigned short)1); }
