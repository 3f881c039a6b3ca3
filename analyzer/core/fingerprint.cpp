// primaryLocationLineHash as GitHub's codeql-action computes it (src/fingerprints.ts),
// reimplemented from its description: a rolling hash over the next 100 non-blank UTF-16
// code units from every line start.
#include "analyzer/core/fingerprint.h"

#include <array>
#include <cstdint>
#include <unordered_map>

namespace cudalint {
namespace {

constexpr size_t kBlockSize = 100;
constexpr uint64_t kMultiplier = 37;
// JS strings end with no terminator; the reference feeds this sentinel after the text.
constexpr uint32_t kEndOfFile = 65535;

constexpr uint64_t pow_mod64(uint64_t base, size_t exp) {
  uint64_t r = 1;
  for (size_t i = 0; i < exp; ++i) r *= base;  // wraps mod 2^64 like JS Long
  return r;
}
// Weight of the unit leaving the window: 37^100 (mod 2^64).
constexpr uint64_t kFirstMod = pow_mod64(kMultiplier, kBlockSize);

// Decodes one code point at `i` (advancing it). Invalid or truncated sequences decode to
// U+FFFD one byte at a time, as a lenient UTF-8 reader (Node's) would.
uint32_t next_code_point(std::string_view s, size_t& i) {
  auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) { ++i; return b0; }
  size_t len = 0;
  uint32_t cp = 0, min = 0;
  if ((b0 & 0xE0) == 0xC0) { len = 2; cp = b0 & 0x1F; min = 0x80; }
  else if ((b0 & 0xF0) == 0xE0) { len = 3; cp = b0 & 0x0F; min = 0x800; }
  else if ((b0 & 0xF8) == 0xF0) { len = 4; cp = b0 & 0x07; min = 0x10000; }
  else { ++i; return 0xFFFD; }
  if (i + len > s.size()) { ++i; return 0xFFFD; }
  for (size_t k = 1; k < len; ++k) {
    auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) { ++i; return 0xFFFD; }
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) { ++i; return 0xFFFD; }
  i += len;
  return cp;
}

std::string to_hex(uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), kDigits[v & 0xF]);
    v >>= 4;
  } while (v != 0);
  return out;
}

class LineHasher {
 public:
  explicit LineHasher(size_t max_lines) : max_lines_(max_lines) { line_numbers_.fill(-1); }

  // Every line up to max_lines has its hash.
  bool done() const { return outputs_ >= max_lines_; }

  void process(uint32_t unit) {
    // Blanks never count, and the LF of a CRLF was already counted as the CR.
    if (unit == ' ' || unit == '\t' || (prev_cr_ && unit == '\n')) {
      prev_cr_ = false;
      return;
    }
    if (unit == '\r') {
      unit = '\n';
      prev_cr_ = true;
    } else {
      prev_cr_ = false;
    }
    // The slot is about to leave the window: its line's 100 units are complete.
    if (line_numbers_[index_] != -1) output();
    if (line_start_) {
      line_start_ = false;
      line_numbers_[index_] = ++line_number_;
    }
    if (unit == '\n') line_start_ = true;
    update(unit);
  }

  // The hashes so far, without the end of the text (done(): all that were asked for).
  std::vector<std::string> take() { return std::move(hashes_); }

  std::vector<std::string> finish() {
    process(kEndOfFile);
    // Pad with zeros so that the last lines also see a full window.
    for (size_t i = 0; i < kBlockSize; ++i) {
      if (line_numbers_[index_] != -1) output();
      update(0);
    }
    return std::move(hashes_);
  }

 private:
  void update(uint32_t unit) {
    uint64_t leaving = window_[index_];
    window_[index_] = unit;
    hash_ = kMultiplier * hash_ + unit - kFirstMod * leaving;
    index_ = (index_ + 1) % kBlockSize;
  }

  void output() {
    int n = ++counts_[hash_];  // by value: the same count as by its hex spelling
    auto line = static_cast<size_t>(line_numbers_[index_]);
    if (hashes_.size() < line) hashes_.resize(line);
    hashes_[line - 1] = to_hex(hash_) + ":" + std::to_string(n);
    line_numbers_[index_] = -1;
    ++outputs_;
  }

  std::array<uint32_t, kBlockSize> window_{};
  std::array<int64_t, kBlockSize> line_numbers_{};
  std::unordered_map<uint64_t, int> counts_;
  std::vector<std::string> hashes_;
  size_t max_lines_, outputs_ = 0;
  uint64_t hash_ = 0;
  size_t index_ = 0;
  int64_t line_number_ = 0;
  bool line_start_ = true;
  bool prev_cr_ = false;
};

}  // namespace

std::vector<std::string> line_hashes(std::string_view text, size_t max_lines) {
  LineHasher h(max_lines);
  size_t i = 0;
  // A line's hash is final once its window has passed: the rest of a long file is not read for
  // a finding near its top (a line's count depends only on the lines before it).
  while (i < text.size() && !h.done()) {
    uint32_t cp = next_code_point(text, i);
    if (cp >= 0x10000) {  // surrogate pair, as JS charCodeAt sees it
      cp -= 0x10000;
      h.process(0xD800 + (cp >> 10));
      h.process(0xDC00 + (cp & 0x3FF));
    } else {
      h.process(cp);
    }
  }
  std::vector<std::string> out = h.done() ? h.take() : h.finish();
  if (out.size() > max_lines) out.resize(max_lines);
  return out;
}

}  // namespace cudalint
