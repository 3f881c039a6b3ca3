// One libFuzzer target per tests/fuzz/fuzz_<name>.cpp. CUDALINT_FUZZ_TARGET(name) defines the
// body once; the fuzz executable (CUDALINT_FUZZ_MAIN) exposes it as LLVMFuzzerTestOneInput, and
// the unit tests (tests/unit/fuzz_regression_test.cpp) call cudalint::fuzz::target_<name> on
// every input in tests/fuzz/regressions/<name>/, so every crash found stays fixed under gcc too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace cudalint::fuzz {

// A property the target checks failed: print it and abort, which libFuzzer reports as a crash
// (and the regression test sees as a death).
[[noreturn]] inline void fail(const char* what, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: fuzz check failed: %s\n", file, line, what);
  std::abort();
}

// Bytes as text, as the engine hands files to front-ends (any bytes at all: the engine checks
// UTF-8 first, but the front-ends promise never to crash on anything).
inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

inline bool span_ok(const Span& s, size_t size) { return s.begin <= s.end && s.end <= size; }

// Splits `text` at `sep` into at most `max_parts` parts (the last takes the rest).
inline std::vector<std::string_view> split_parts(std::string_view text, std::string_view sep, size_t max_parts) {
  std::vector<std::string_view> out;
  while (out.size() + 1 < max_parts) {
    size_t p = text.find(sep);
    if (p == std::string_view::npos) break;
    out.push_back(text.substr(0, p));
    text.remove_prefix(p + sep.size());
  }
  out.push_back(text);
  return out;
}

// Reads typed values from fuzz bytes (a tiny FuzzedDataProvider that also builds with gcc).
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : p_(data), n_(size) {}
  bool empty() const { return n_ == 0; }
  uint8_t byte() {
    if (!n_) return 0;
    --n_;
    return *p_++;
  }
  uint32_t u32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = (v << 8) | byte();
    return v;
  }
  uint32_t small(uint32_t max) { return max ? byte() % (max + 1) : 0; }
  // A string ended by a 0 byte (or the input), at most `max` bytes.
  std::string str(size_t max = 64) {
    std::string s;
    while (n_ && s.size() < max) {
      uint8_t c = byte();
      if (c == 0) break;
      s += static_cast<char>(c);
    }
    return s;
  }
  std::string_view rest() {
    std::string_view r(reinterpret_cast<const char*>(p_), n_);
    p_ += n_;
    n_ = 0;
    return r;
  }

 private:
  const uint8_t* p_;
  size_t n_;
};

}  // namespace cudalint::fuzz

#define CUDALINT_FUZZ_CHECK(cond) \
  do {                             \
    if (!(cond)) ::cudalint::fuzz::fail(#cond, __FILE__, __LINE__); \
  } while (0)

#ifdef CUDALINT_FUZZ_MAIN
#define CUDALINT_FUZZ_TARGET(name)                                                          \
  namespace cudalint::fuzz {                                                                \
  int target_##name(const uint8_t* data, size_t size);                                      \
  }                                                                                         \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {                 \
    return ::cudalint::fuzz::target_##name(data, size);                                     \
  }                                                                                         \
  int cudalint::fuzz::target_##name(const uint8_t* data, size_t size)
#else
#define CUDALINT_FUZZ_TARGET(name)                                                          \
  namespace cudalint::fuzz {                                                                \
  int target_##name(const uint8_t* data, size_t size);                                      \
  }                                                                                         \
  int cudalint::fuzz::target_##name(const uint8_t* data, size_t size)
#endif
