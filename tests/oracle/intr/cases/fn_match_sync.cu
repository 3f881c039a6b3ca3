// checks: __match_any_sync/__match_all_sync (sm_70): fine on sm_75+
// feature: __match_any_sync
// feature: __match_all_sync
__global__ void k(unsigned* out, int v) {
  int pred;
  out[0] = __match_any_sync(0xffffffffu, v) | __match_all_sync(0xffffffffu, v, &pred);
}
