// checks: __threadfence_cluster (sm_90)
// feature: __threadfence_cluster
__global__ void k(int* p) { p[0] = 1; __threadfence_cluster(); p[1] = 2; }
