#include "analyzer/core/huge_pages.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace cudalint {

void prefer_huge_pages() {
#if defined(__linux__) && defined(M_TRIM_THRESHOLD) && defined(M_MMAP_THRESHOLD) && !defined(__SANITIZE_ADDRESS__)
  // Freed memory stays in the heaps instead of going back to the kernel, to be faulted in (and
  // zeroed) again by the next file: glibc trims a heap's top past 128 KiB by default (discarding
  // its huge pages) and maps blocks past its dynamic mmap threshold afresh each time. Cold runs
  // of the 5% bench tree went from 17,000-259,000 minor faults (1.9-4.7 s of system time) to
  // 14,000-25,000 (1.5-1.9 s), with the same peak memory. An editor session keeps up to 128 MiB
  // of the main heap's freed top.
  (void)mallopt(M_MMAP_THRESHOLD, 32 << 20);
  (void)mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
#if defined(__linux__) && defined(M_TOP_PAD) && defined(MADV_HUGEPAGE) && !defined(__SANITIZE_ADDRESS__)
  // glibc marks its heaps this way only under GLIBC_TUNABLES=glibc.malloc.hugetlb=1, read before
  // main runs; this does the same in process for the main heap. The heap is reserved 1 GiB
  // ahead (untouched pages cost nothing) so that the mark made now covers it as it fills;
  // growth past that is left unmarked. Worker threads' arenas stay as they are: forcing every
  // thread onto this one heap (M_ARENA_MAX=1) made a cold -j2 run ~1.8x slower on its lock.
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  if (mallopt(M_TOP_PAD, 1 << 30) != 1) return;
  // Grow the heap now (blocks below the mmap threshold, until the break moves), so that the
  // reserve exists to be marked: a later growth would be a region of its own, unmarked.
  const auto before = reinterpret_cast<uintptr_t>(sbrk(0));
  if (before == static_cast<uintptr_t>(-1)) return;
  void* blocks[64];
  int n = 0;
  while (n < 64 && reinterpret_cast<uintptr_t>(sbrk(0)) == before)
    if (!(blocks[n++] = std::malloc(96 << 10))) break;
  const auto end = reinterpret_cast<uintptr_t>(sbrk(0));
  const uintptr_t begin = (before + kHuge - 1) & ~(kHuge - 1);
  if (end != static_cast<uintptr_t>(-1) && end > begin + kHuge)
    (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  for (int i = 0; i < n; ++i) std::free(blocks[i]);
#endif
}

void prefer_huge_pages_in_thread() {
#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(__SANITIZE_ADDRESS__)
  constexpr uintptr_t kHeapMax = uintptr_t{64} << 20;  // glibc's HEAP_MAX_SIZE on 64-bit
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  void* p = std::malloc(64);
  const auto a = reinterpret_cast<uintptr_t>(p);
  const auto brk = reinterpret_cast<uintptr_t>(sbrk(0));
  // Above the break: a heap of its own (the main heap lies below it and is marked already).
  if (p && brk != static_cast<uintptr_t>(-1) && a > brk) {
    (void)madvise(reinterpret_cast<void*>(a & ~(kHeapMax - 1)), kHeapMax, MADV_HUGEPAGE);
    // glibc grows a thread's heap a few pages at a time (mprotect), so the 2 MiB range around
    // a new page rarely lies inside the writable part yet and is faulted in 4 KiB at a time.
    // Growing it by 16 MiB now (freed again at once, kept as the heap's top: the trim threshold
    // is above it) lets the next ranges fault in whole.
    if (void* grow = std::malloc(16 << 20)) {
      std::free(grow);
      // The first range can never be a huge page (the heap's header page is in it already):
      // fill it in one call instead of ~500 faults, which cost ~10 us each in a microVM (about
      // 5 ms of a one-file check). Older kernels refuse the advice; nothing else changes.
#ifdef MADV_POPULATE_WRITE
      const uintptr_t first = a & ~(kHuge - 1);
      (void)madvise(reinterpret_cast<void*>(first), kHuge, MADV_POPULATE_WRITE);
#endif
    }
  }
  std::free(p);
#endif
}

}  // namespace cudalint

#if defined(__linux__) && defined(MADV_POPULATE_READ)
// The linker's bounds of the program's code.
extern "C" const char __executable_start[], etext[];
namespace {
// The program's code mapped in one call, before the static constructors run, instead of ~200
// page faults (each maps 64 KiB around it) spread over the run: ~2-4 ms less per process
// (a one-file check of the 1,000-line bench file, 21 interleaved runs: 49.2 -> 45.5 ms;
// --version 7.4 -> 8.1 ms). Only page tables change; older kernels refuse the advice.
__attribute__((constructor(101))) void prefault_text() {
  const auto b = reinterpret_cast<uintptr_t>(__executable_start) & ~uintptr_t{4095};
  (void)madvise(reinterpret_cast<void*>(b), reinterpret_cast<uintptr_t>(etext) - b, MADV_POPULATE_READ);
}
}  // namespace
#endif
