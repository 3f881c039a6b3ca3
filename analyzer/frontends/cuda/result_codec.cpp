// CUDA front-end: the on-disk cache's entries of results (result_codec.h).
#include "analyzer/frontends/cuda/result_codec.h"

#include <sys/stat.h>

#include "analyzer/core/bytes.h"
#include "analyzer/core/source_file.h"
#include "analyzer/frontends/cuda/prelude_cache.h"

namespace cudalint::cuda::detail {

namespace {

// What is at `path` now, as a parse's look-up would record it (a file's content is compared apart).
Probe probe_now(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return Probe::Absent;
  return S_ISDIR(st.st_mode) ? Probe::Dir : S_ISREG(st.st_mode) ? Probe::File : Probe::Other;
}

// The fields of each cached struct, once for both directions (bytes.h). `S` is the struct,
// const when writing.
template <typename IO, typename S>
void use_fields(IO& io, S& u, const FeatureTable& table) {
  // A feature is stored as its row in the table, which is part of this build.
  if constexpr (IO::writing) {
    io.u32(static_cast<uint32_t>(u.feature - table.rows().data()));
  } else {
    uint32_t idx = io.u32();
    if (idx >= table.rows().size()) io.fail();
    else u.feature = &table.rows()[idx];
  }
  io(u.begin, u.end, u.spelled);
  io.enumeration(u.context, UseContext::Host);
  io(u.file, u.include_begin, u.include_end, u.via_header);
}

template <typename IO, typename S>
void arch_result_fields(IO& io, S& ar, const FeatureTable& table) {
  io(ar.arch.major, ar.arch.minor);
  if constexpr (IO::writing) io.u8(static_cast<uint8_t>(ar.arch.suffix));
  else ar.arch.suffix = static_cast<char>(io.u8());
  io(ar.arch.ptx, ar.parsed);
  bytes::list(io, ar.uses, 33, [&](IO& io2, auto& u) { use_fields(io2, u, table); });
}

template <typename IO, typename S>
void access_fields(IO& io, S& a) {
  io(a.begin, a.end, a.store, a.kernel, a.pointer, a.width, a.element, a.lane_stride, a.group_lanes,
     a.stride_symbol, a.symbol_certain, a.data_dependent, a.field_of_struct, a.row_position, a.run_merged,
     a.neighbour, a.neighbour_step, a.offset, a.offset_span, a.offset_step, a.sectors, a.ideal);
}

template <typename IO, typename S>
void result_fields(IO& io, S& r, const FeatureTable& table) {
  bytes::list(io, r.per_arch, 15, [&](IO& io2, auto& ar) { arch_result_fields(io2, ar, table); });
  bytes::list(io, r.accesses, 50, [](IO& io2, auto& a) { access_fields(io2, a); });
  bytes::list(io, r.syntax_errors, 12, [](IO& io2, auto& e) { io2(e.begin, e.end, e.message); });
  io(r.missing_includes, r.unanalysed_kernels);
}

std::optional<Result> read_result(bytes::Reader& rd, const FeatureTable& table) {
  Result r;
  result_fields(rd, r, table);
  if (!rd.ok() || !rd.at_end()) return std::nullopt;
  return r;
}

// The content hash of a file the parse read, through `cache` when there is one.
std::optional<std::string> hash_of_file(const std::string& path, PreludeCache* cache) {
  if (cache) return cache->file_hash(path);
  auto bytes = read_regular_file(path);
  if (!bytes) return std::nullopt;
  return content_hash(*bytes);
}

}  // namespace

std::optional<std::string> encode_entry(const Manifest& m, const Result& r, const FeatureTable& table,
                                        PreludeCache* cache) {
  bytes::Writer w;
  w.u32(static_cast<uint32_t>(m.size()));
  for (const auto& [path, probe] : m) {
    if (probe == Probe::Other) return std::nullopt;  // a device, or a file that changed mid-parse
    w.str(path);
    w.u8(static_cast<uint8_t>(probe));
    std::string hash;
    if (probe == Probe::Read) {
      auto h = hash_of_file(path, cache);
      if (!h) return std::nullopt;
      hash = std::move(*h);
    }
    w.str(hash);
  }
  result_fields(w, r, table);
  return std::move(w.out);
}

std::optional<Result> decode_entry(std::string_view entry, const FeatureTable& table, PreludeCache* cache) {
  bytes::Reader rd(entry);
  uint32_t n = rd.count(9);
  for (uint32_t i = 0; i < n && rd.ok(); ++i) {
    std::string path = rd.str();
    Probe was = rd.enumeration(Probe::Read);
    std::string hash = rd.str();
    if (!rd.ok() || probe_now(path) != (was == Probe::Read ? Probe::File : was)) return std::nullopt;
    if (was == Probe::Read) {
      auto h = hash_of_file(path, cache);
      if (!h || *h != hash) return std::nullopt;
    }
  }
  if (!rd.ok()) return std::nullopt;
  return read_result(rd, table);
}

}  // namespace cudalint::cuda::detail
