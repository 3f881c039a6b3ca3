// checks: __isClusterShared and __clusterDim (sm_90)
// feature: __isClusterShared
// feature: __clusterDim
__global__ void k(int* p, unsigned* out) {
  __shared__ int s;
  out[0] = __isClusterShared(&s) + __clusterDim().x;
}
