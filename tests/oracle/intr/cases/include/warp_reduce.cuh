// Helper header for the oracle cases: an unguarded sm_80 warp reduction.
#pragma once
__device__ __forceinline__ int warp_reduce_add(int v) { return __reduce_add_sync(0xffffffffu, v); }
