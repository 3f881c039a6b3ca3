// checks: inline PTX fence.mbarrier_init.release.cluster (sm_90)
// feature: fence.mbarrier_init
__global__ void k() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
