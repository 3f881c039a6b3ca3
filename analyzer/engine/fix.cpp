#include "analyzer/engine/fix.h"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

namespace cudalint {

size_t apply_fixes(std::string& text, const std::vector<const Fix*>& fixes) {
  // Accept fixes in order of their first edit; a fix is all-or-nothing.
  std::vector<const Fix*> order = fixes;
  auto first = [](const Fix* f) {
    uint32_t b = UINT32_MAX;
    for (const auto& e : f->edits) b = std::min(b, e.span.begin);
    return b;
  };
  std::stable_sort(order.begin(), order.end(), [&](const Fix* a, const Fix* b) { return first(a) < first(b); });
  std::vector<Edit> accepted;
  size_t applied = 0;
  for (const Fix* f : order) {
    bool clash = false;
    for (const auto& e : f->edits) {
      if (e.span.end > text.size() || e.span.begin > e.span.end) { clash = true; break; }
      for (const auto& a : accepted) {
        bool overlap = e.span.begin < a.span.end && a.span.begin < e.span.end;
        bool same_point = e.span.begin == a.span.begin && (e.span.begin == e.span.end || a.span.begin == a.span.end);
        if (overlap || same_point) { clash = true; break; }
      }
      if (clash) break;
    }
    if (clash) continue;
    accepted.insert(accepted.end(), f->edits.begin(), f->edits.end());
    ++applied;
  }
  std::sort(accepted.begin(), accepted.end(), [](const Edit& a, const Edit& b) { return a.span.begin > b.span.begin; });
  for (const auto& e : accepted) text.replace(e.span.begin, e.span.end - e.span.begin, e.replacement);
  return applied;
}

namespace {

// Lines with their '\n' (the last may lack it), so a changed final newline is a changed line.
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

enum class Op : uint8_t { Equal, Delete, Insert };
struct DiffOp {
  Op op;
  size_t a, b;  // lines of old/new consumed before this one
};

// Myers' O((N+M)D) shortest edit script, keeping each round's frontier for the walk back.
std::vector<DiffOp> diff_lines(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  const long n = static_cast<long>(a.size()), m = static_cast<long>(b.size()), max = n + m;
  std::vector<long> v(2 * max + 3, 0);
  const long off = max + 1;
  std::vector<std::vector<long>> trace;  // trace[d][k + d]: the frontier before round d, k in [-d, d]
  long d_end = 0;
  for (long d = 0; d <= max; ++d) {
    trace.emplace_back(v.begin() + off - d, v.begin() + off + d + 1);
    bool done = false;
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
      long y = x - k;
      while (x < n && y < m && a[x] == b[y]) ++x, ++y;
      v[off + k] = x;
      if (x >= n && y >= m) { done = true; break; }
    }
    if (done) { d_end = d; break; }
  }
  std::vector<DiffOp> ops;
  long x = n, y = m;
  for (long d = d_end; d >= 0; --d) {
    const auto& f = trace[d];
    auto at = [&](long k) { return f[k + d]; };
    long k = x - y, prev_k;
    if (d == 0) prev_k = 0;
    else prev_k = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1;
    long prev_x = d == 0 ? 0 : at(prev_k), prev_y = prev_x - prev_k;
    while (x > prev_x && y > prev_y) { --x, --y; ops.push_back({Op::Equal, size_t(x), size_t(y)}); }
    if (d > 0) {
      if (x == prev_x) ops.push_back({Op::Insert, size_t(prev_x), size_t(prev_y)});
      else ops.push_back({Op::Delete, size_t(prev_x), size_t(prev_y)});
    }
    x = prev_x, y = prev_y;
  }
  std::reverse(ops.begin(), ops.end());
  return ops;
}

void put_line(std::string& out, char prefix, std::string_view line) {
  out += prefix;
  out += line;
  if (!line.ends_with('\n')) out += "\n\\ No newline at end of file\n";
}

std::string hunk_range(size_t start, size_t count) {
  // 1-based first line; an empty range names the line before it (0 at the top), as diff -u does.
  if (count == 1) return fmt::format("{}", start + 1);
  return fmt::format("{},{}", count == 0 ? start : start + 1, count);
}

}  // namespace

std::string unified_diff(std::string_view old_text, std::string_view new_text, std::string_view path, int context) {
  if (old_text == new_text) return {};
  auto a = split_lines(old_text), b = split_lines(new_text);
  // The common head and tail are not searched (fixes are local), only kept for context.
  size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) ++tail;
  std::vector<std::string_view> am(a.begin() + head, a.end() - tail), bm(b.begin() + head, b.end() - tail);
  std::vector<DiffOp> ops;
  for (size_t i = 0; i < head; ++i) ops.push_back({Op::Equal, i, i});
  for (auto op : diff_lines(am, bm)) ops.push_back({op.op, op.a + head, op.b + head});
  for (size_t i = 0; i < tail; ++i) ops.push_back({Op::Equal, a.size() - tail + i, b.size() - tail + i});

  std::string out = fmt::format("--- a/{}\n+++ b/{}\n", path, path);
  const size_t ctx = static_cast<size_t>(std::max(context, 0));
  size_t i = 0;
  while (i < ops.size()) {
    while (i < ops.size() && ops[i].op == Op::Equal) ++i;
    if (i == ops.size()) break;
    size_t begin = i >= ctx ? i - ctx : 0;
    // The hunk takes in later changes while the equal lines between them are at most 2 * context.
    size_t last = i;
    for (size_t j = i + 1; j < ops.size(); ++j) {
      if (ops[j].op != Op::Equal) last = j;
      else if (j - last > 2 * ctx) break;
    }
    size_t end = std::min(ops.size(), last + ctx + 1);
    size_t old_count = 0, new_count = 0;
    for (size_t j = begin; j < end; ++j) {
      if (ops[j].op != Op::Insert) ++old_count;
      if (ops[j].op != Op::Delete) ++new_count;
    }
    out += fmt::format("@@ -{} +{} @@\n", hunk_range(ops[begin].a, old_count), hunk_range(ops[begin].b, new_count));
    for (size_t j = begin; j < end; ++j) {
      switch (ops[j].op) {
        case Op::Equal: put_line(out, ' ', a[ops[j].a]); break;
        case Op::Delete: put_line(out, '-', a[ops[j].a]); break;
        case Op::Insert: put_line(out, '+', b[ops[j].b]); break;
      }
    }
    i = end;
  }
  return out;
}

}  // namespace cudalint
