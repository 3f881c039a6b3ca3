#pragma once

namespace cudalint {

// Lets the main heap fault in 2 MiB transparent huge pages where the kernel offers them on request
// (transparent_hugepage=madvise): one page fault per 2 MiB instead of per 4 KiB. A large run's
// time was ~17% page faults, each costly on a virtual machine. Call once, first thing in main,
// before threads start. Best effort: where the calls fail nothing changes but the speed.
// Also keeps freed memory in the heaps (higher trim and mmap thresholds): see huge_pages.cpp.
void prefer_huge_pages();

// The same for the calling thread's own malloc heap (glibc gives each further thread an arena:
// a 64 MiB-aligned mapping, faulted in 4 KiB at a time). Call first thing in a worker thread;
// nothing happens on a thread that allocates from the main heap.
void prefer_huge_pages_in_thread();

}  // namespace cudalint
