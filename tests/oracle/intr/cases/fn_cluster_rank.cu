// checks: __clusterRelativeBlockRank and __clusterSizeInBlocks (thread-block clusters, sm_90)
// feature: __clusterRelativeBlockRank
// feature: __clusterSizeInBlocks
__global__ void k(unsigned* out) {
  out[0] = __clusterRelativeBlockRank() + __clusterSizeInBlocks();
}
