// checks: an include guarded by __has_include for a header that does not exist
// feature: __reduce_min_sync
#if __has_include("include/does_not_exist.cuh")
#include "include/does_not_exist.cuh"
#endif
__global__ void k(int* p) { p[threadIdx.x] = __reduce_min_sync(0xffffffffu, p[threadIdx.x]); }
