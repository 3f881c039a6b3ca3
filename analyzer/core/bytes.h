// Bytes for the on-disk cache (disk_cache.h): fixed-width little-endian integers, strings and
// counts. The reader checks every bound and turns `ok()` false instead of reading past the end,
// so any input is safe to decode.
//
// A serialized struct lists its fields once, in one function template used both ways:
//   template <class IO, class T> void fields(IO& io, T& t) { io(t.a, t.b); io.enumeration(t.k, kLast); }
// called with a Writer and a const T, or with a Reader and a T to fill. `io.writing` tells the
// two apart where a field is not written as it is read. list() does the same for a vector.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace cudalint::bytes {

class Writer {
 public:
  static constexpr bool writing = true;
  std::string out;

  // Fields in order (see the top of this file).
  template <typename... T>
  void operator()(const T&... v) {
    (put(v), ...);
  }
  void put(uint32_t v) { u32(v); }
  void put(int32_t v) { i32(v); }
  void put(int64_t v) { i64(v); }
  void put(double v) { f64(v); }
  void put(bool v) { boolean(v); }
  void put(const std::string& v) { str(v); }
  void put(const std::vector<std::string>& v) { strs(v); }
  void put(const std::optional<int64_t>& v) {  // present, then the value (0 when absent)
    boolean(v.has_value());
    i64(v.value_or(0));
  }
  template <typename E>
  void enumeration(E v, E /*last: the reader's bound*/) {
    u8(static_cast<uint8_t>(v));
  }

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
  static constexpr bool writing = false;
  explicit Reader(std::string_view in) : in_(in) {}

  // Fields in order (see the top of this file).
  template <typename... T>
  void operator()(T&... v) {
    (get(v), ...);
  }
  void get(uint32_t& v) { v = u32(); }
  void get(int32_t& v) { v = i32(); }
  void get(int64_t& v) { v = i64(); }
  void get(double& v) { v = f64(); }
  void get(bool& v) { v = boolean(); }
  void get(std::string& v) { v = str(); }
  void get(std::vector<std::string>& v) { v = strs(); }
  void get(std::optional<int64_t>& v) {
    bool has = boolean();
    int64_t x = i64();
    if (has) v = x;
    else v.reset();
  }
  template <typename E>
  void enumeration(E& v, E last) {
    v = enumeration(last);
  }
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

// A vector of serialized structs: its size, then each element by `each(io, element)`; read
// back, a size is bounded by `min_bytes` per element and reading stops at the first failure.
// `IO` is a Writer or a Reader (or a class derived from one).
template <typename IO, typename V, typename F>
void list(IO& io, V& v, size_t min_bytes, F&& each) {
  if constexpr (IO::writing) {
    (void)min_bytes;
    io.u32(static_cast<uint32_t>(v.size()));
    for (const auto& e : v) each(io, e);
  } else {
    v.resize(io.count(min_bytes));
    for (auto& e : v) {
      if (!io.ok()) break;
      each(io, e);
    }
  }
}

// A map keyed by strings, each value one field (io(key, value)): its size, then each pair; read
// back, a size is bounded by `min_bytes` per pair. A map that can reserve gets exactly its size.
template <typename IO, typename M>
void string_map(IO& io, M& m, size_t min_bytes) {
  if constexpr (IO::writing) {
    (void)min_bytes;
    io.u32(static_cast<uint32_t>(m.size()));
    for (const auto& [k, v] : m) io(k, v);
  } else {
    const uint32_t n = io.count(min_bytes);
    if constexpr (requires { m.reserve(n); }) m.reserve(n);
    for (uint32_t i = 0; i < n && io.ok(); ++i) {
      std::string k;
      std::remove_cvref_t<decltype(m.begin()->second)> v{};
      io(k, v);
      m[std::move(k)] = std::move(v);
    }
  }
}

// A set of strings: its size, then each.
template <typename IO, typename S>
void string_set(IO& io, S& s) {
  if constexpr (IO::writing) {
    io.u32(static_cast<uint32_t>(s.size()));
    for (const auto& e : s) io.str(e);
  } else {
    for (uint32_t i = 0, n = io.count(4); i < n && io.ok(); ++i) s.insert(io.str());
  }
}

}  // namespace cudalint::bytes
