// checks: __nanosleep (sm_70): fine on sm_75+
// feature: __nanosleep
__global__ void k() { __nanosleep(100); }
