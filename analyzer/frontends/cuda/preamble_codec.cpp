// CUDA front-end: preambles on disk (preamble_codec.h).
#include "analyzer/frontends/cuda/preamble_codec.h"

#include "analyzer/core/bytes.h"

namespace cudalint::cuda::detail {

namespace {

template <typename IO, typename S>
void cond_fields(IO& io, S& c) {
  io(c.text, c.value);
  if constexpr (IO::writing) {
    io.u32(static_cast<uint32_t>(c.defined.size()));
    for (const auto& [name, v] : c.defined) io(name, v);
    io.u32(static_cast<uint32_t>(c.expanded.size()));
    for (const auto& name : c.expanded) io.str(name);
  } else {
    for (uint32_t i = 0, n = io.count(5); i < n && io.ok(); ++i) {
      std::string name = io.str();
      bool v = io.boolean();
      c.defined.emplace(std::move(name), v);
    }
    for (uint32_t i = 0, n = io.count(4); i < n && io.ok(); ++i) c.expanded.insert(io.str());
  }
}

template <typename IO, typename S>
void trace_fields(IO& io, S& t) {
  io(t.unpredictable, t.defines_in_arch_groups);
  bytes::list(io, t.conds, 14, [](IO& io2, auto& c) { cond_fields(io2, c); });
  bytes::list(io, t.ifdefs, 5, [](IO& io2, auto& d) { io2(d.first, d.second); });
  if constexpr (IO::writing) {
    io.u32(static_cast<uint32_t>(t.expanded.size()));
    for (const auto& name : t.expanded) io.str(name);
  } else {
    for (uint32_t i = 0, n = io.count(4); i < n && io.ok(); ++i) t.expanded.insert(io.str());
  }
  bytes::list(io, t.arch_spans, 12, [](IO& io2, auto& sp) { io2(sp.file, sp.begin, sp.end); });
}

template <typename IO, typename S>
void preamble_fields(IO& io, S& p) {
  io(p.text, p.path, p.missing, p.errors);
  trace_fields(io, p.trace);
  if constexpr (IO::writing) {
    io.u32(static_cast<uint32_t>(p.probes.size()));
    for (const auto& [path, probe] : p.probes) {
      io.str(path);
      io.u8(static_cast<uint8_t>(probe));
    }
  } else {
    for (uint32_t i = 0, n = io.count(5); i < n && io.ok(); ++i) {
      std::string path = io.str();
      p.probes.emplace(std::move(path), io.enumeration(Probe::Read));
    }
  }
}

}  // namespace

std::string encode_preamble(const StoredPreamble& s) {
  bytes::Writer w;
  preamble_fields(w, *s.preamble);
  w.u32(static_cast<uint32_t>(s.hashes.size()));
  for (const auto& [path, hash] : s.hashes) w(path, hash);
  std::string out;
  const uint64_t meta = w.out.size();
  out.append(reinterpret_cast<const char*>(&meta), sizeof meta);
  out += w.out;
  if (s.preamble->pch) out += *s.preamble->pch;
  return out;
}

std::optional<StoredPreamble> decode_preamble(std::string bytes) {
  uint64_t meta = 0;
  if (bytes.size() < sizeof meta) return std::nullopt;
  std::memcpy(&meta, bytes.data(), sizeof meta);
  if (meta > bytes.size() - sizeof meta) return std::nullopt;
  auto p = std::make_shared<Preamble>();
  StoredPreamble s;
  bytes::Reader rd(std::string_view(bytes).substr(sizeof meta, meta));
  preamble_fields(rd, *p);
  for (uint32_t i = 0, n = rd.count(8); i < n && rd.ok(); ++i) {
    std::string path = rd.str();
    s.hashes.emplace(std::move(path), rd.str());
  }
  if (!rd.ok() || !rd.at_end() || bytes.size() == sizeof meta + meta) return std::nullopt;
  // The PCH is the rest, read where it lies: the view's owner holds the bytes.
  auto holder = std::make_shared<std::pair<std::string, std::string_view>>(std::move(bytes), std::string_view());
  holder->second = std::string_view(holder->first).substr(sizeof meta + meta);
  const std::string_view* view = &holder->second;
  p->pch = PchBytes(std::move(holder), view);
  s.preamble = std::move(p);
  return s;
}

}  // namespace cudalint::cuda::detail
