// Bytes for the on-disk cache (disk_cache.h): fixed-width little-endian integers, strings and
// counts. The reader checks every bound and turns `ok()` false instead of reading past the end,
// so any input is safe to decode.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace cudalint::bytes {

class Writer {
 public:
  std::string out;

  void u8(uint8_t v) { out.push_back(static_cast<char>(v)); }
  void u32(uint32_t v) { raw(&v, 4); }
  void i32(int32_t v) { u32(static_cast<uint32_t>(v)); }
  void i64(int64_t v) { raw(&v, 8); }
  void f64(double v) { raw(&v, 8); }
  void boolean(bool v) { u8(v ? 1 : 0); }
  void str(std::string_view s) {
    u32(static_cast<uint32_t>(s.size()));
    out += s;
  }
  void strs(const std::vector<std::string>& v) {
    u32(static_cast<uint32_t>(v.size()));
    for (const auto& s : v) str(s);
  }

 private:
  void raw(const void* p, size_t n) { out.append(static_cast<const char*>(p), n); }
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_; }
  bool at_end() const { return in_.empty(); }
  void fail() { ok_ = false; }

  uint8_t u8() {
    uint8_t v = 0;
    raw(&v, 1);
    return v;
  }
  uint32_t u32() {
    uint32_t v = 0;
    raw(&v, 4);
    return v;
  }
  int32_t i32() { return static_cast<int32_t>(u32()); }
  int64_t i64() {
    int64_t v = 0;
    raw(&v, 8);
    return v;
  }
  double f64() {
    double v = 0;
    raw(&v, 8);
    return v;
  }
  bool boolean() {
    uint8_t v = u8();
    if (v > 1) ok_ = false;
    return v == 1;
  }
  std::string str() {
    uint32_t n = u32();
    if (!need(n)) return {};
    std::string s(in_.substr(0, n));
    in_.remove_prefix(n);
    return s;
  }
  // A count of elements that each take at least `min_bytes`: a corrupted count cannot make the
  // reader allocate more than the input could hold.
  uint32_t count(size_t min_bytes) {
    uint32_t n = u32();
    if (ok_ && static_cast<uint64_t>(n) * min_bytes > in_.size()) ok_ = false;
    return ok_ ? n : 0;
  }
  std::vector<std::string> strs() {
    std::vector<std::string> v(count(4));
    for (auto& s : v) s = str();
    return v;
  }
  // An enum stored as u8, at most `last`.
  template <typename E>
  E enumeration(E last) {
    uint8_t v = u8();
    if (v > static_cast<uint8_t>(last)) ok_ = false;
    return static_cast<E>(v);
  }

 private:
  bool need(size_t n) {
    if (!ok_ || in_.size() < n) {
      ok_ = false;
      return false;
    }
    return true;
  }
  void raw(void* p, size_t n) {
    if (!need(n)) return;
    std::memcpy(p, in_.data(), n);
    in_.remove_prefix(n);
  }

  std::string_view in_;
  bool ok_ = true;
};

}  // namespace cudalint::bytes
