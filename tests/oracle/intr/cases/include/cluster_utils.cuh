// Helper header for the oracle cases: cluster helpers used only by some includers.
#pragma once
__device__ __forceinline__ unsigned cluster_rank() { return __clusterRelativeBlockRank(); }
