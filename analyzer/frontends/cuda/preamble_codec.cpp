// CUDA front-end: preambles on disk (preamble_codec.h).
#include "analyzer/frontends/cuda/preamble_codec.h"

#include "analyzer/core/bytes.h"
#include "analyzer/frontends/cuda/prelude_cache.h"

namespace cudalint::cuda::detail {

namespace {

template <typename IO, typename S>
void cond_fields(IO& io, S& c) {
  io(c.text, c.value);
  bytes::string_map(io, c.defined, 5);
  bytes::string_set(io, c.expanded);
}

template <typename IO, typename S>
void trace_fields(IO& io, S& t) {
  io(t.unpredictable, t.defines_in_arch_groups);
  bytes::list(io, t.conds, 14, [](IO& io2, auto& c) { cond_fields(io2, c); });
  bytes::list(io, t.ifdefs, 5, [](IO& io2, auto& d) { io2(d.first, d.second); });
  bytes::string_set(io, t.expanded);
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
  bytes::string_map(w, s.hashes, 8);
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
  bytes::string_map(rd, s.hashes, 8);
  if (!rd.ok() || !rd.at_end() || bytes.size() == sizeof meta + meta) return std::nullopt;
  p->pch = own_pch(std::move(bytes), sizeof meta + meta);  // the rest, read where it lies
  s.preamble = std::move(p);
  return s;
}

}  // namespace cudalint::cuda::detail
