// checks: a local header with an sm_90 cluster helper that this file never calls
// feature: __clusterRelativeBlockRank
#include "include/cluster_utils.cuh"
__global__ void k(unsigned* p) { p[threadIdx.x] = 1; }
