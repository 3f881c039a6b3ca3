// checks: a project arch macro from a local header guards the cluster helper
// expect: ok
#include "include/arch_config.cuh"
#if ORACLE_HAS_CLUSTERS
#include "include/cluster_utils.cuh"
#endif
__global__ void k(unsigned* p) {
#if ORACLE_HAS_CLUSTERS
  p[threadIdx.x] = cluster_rank();
#else
  p[threadIdx.x] = 0;
#endif
}
