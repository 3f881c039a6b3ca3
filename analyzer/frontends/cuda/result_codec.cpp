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

void write_result(bytes::Writer& w, const Result& r, const FeatureTable& table) {
  w.u32(static_cast<uint32_t>(r.per_arch.size()));
  for (const auto& ar : r.per_arch) {
    w.i32(ar.arch.major);
    w.i32(ar.arch.minor);
    w.u8(static_cast<uint8_t>(ar.arch.suffix));
    w.boolean(ar.arch.ptx);
    w.boolean(ar.parsed);
    w.u32(static_cast<uint32_t>(ar.uses.size()));
    for (const auto& u : ar.uses) {
      w.u32(static_cast<uint32_t>(u.feature - table.rows().data()));
      w.u32(u.begin);
      w.u32(u.end);
      w.str(u.spelled);
      w.u8(static_cast<uint8_t>(u.context));
      w.str(u.file);
      w.u32(u.include_begin);
      w.u32(u.include_end);
      w.str(u.via_header);
    }
  }
  w.u32(static_cast<uint32_t>(r.accesses.size()));
  for (const auto& a : r.accesses) {
    w.u32(a.begin);
    w.u32(a.end);
    w.boolean(a.store);
    w.str(a.kernel);
    w.str(a.pointer);
    w.u32(a.width);
    w.u32(a.element);
    w.boolean(a.lane_stride.has_value());
    w.i64(a.lane_stride.value_or(0));
    w.u32(a.group_lanes);
    w.str(a.stride_symbol);
    w.boolean(a.symbol_certain);
    w.boolean(a.data_dependent);
    w.boolean(a.field_of_struct);
    w.boolean(a.row_position);
    w.boolean(a.run_merged);
    w.i64(a.offset);
    w.i64(a.offset_span);
    w.i64(a.offset_step);
    w.f64(a.sectors);
    w.f64(a.ideal);
  }
  w.u32(static_cast<uint32_t>(r.syntax_errors.size()));
  for (const auto& e : r.syntax_errors) {
    w.u32(e.begin);
    w.u32(e.end);
    w.str(e.message);
  }
  w.strs(r.missing_includes);
  w.strs(r.unanalysed_kernels);
}

std::optional<Result> read_result(bytes::Reader& rd, const FeatureTable& table) {
  Result r;
  r.per_arch.resize(rd.count(15));
  for (auto& ar : r.per_arch) {
    if (!rd.ok()) break;
    ar.arch.major = rd.i32();
    ar.arch.minor = rd.i32();
    ar.arch.suffix = static_cast<char>(rd.u8());
    ar.arch.ptx = rd.boolean();
    ar.parsed = rd.boolean();
    ar.uses.resize(rd.count(33));
    for (auto& u : ar.uses) {
      if (!rd.ok()) break;
      uint32_t idx = rd.u32();
      if (idx >= table.rows().size()) rd.fail();
      else u.feature = &table.rows()[idx];
      u.begin = rd.u32();
      u.end = rd.u32();
      u.spelled = rd.str();
      u.context = rd.enumeration(UseContext::Host);
      u.file = rd.str();
      u.include_begin = rd.u32();
      u.include_end = rd.u32();
      u.via_header = rd.str();
    }
  }
  r.accesses.resize(rd.count(50));
  for (auto& a : r.accesses) {
    if (!rd.ok()) break;
    a.begin = rd.u32();
    a.end = rd.u32();
    a.store = rd.boolean();
    a.kernel = rd.str();
    a.pointer = rd.str();
    a.width = rd.u32();
    a.element = rd.u32();
    bool has = rd.boolean();
    int64_t stride = rd.i64();
    if (has) a.lane_stride = stride;
    a.group_lanes = rd.u32();
    a.stride_symbol = rd.str();
    a.symbol_certain = rd.boolean();
    a.data_dependent = rd.boolean();
    a.field_of_struct = rd.boolean();
    a.row_position = rd.boolean();
    a.run_merged = rd.boolean();
    a.offset = rd.i64();
    a.offset_span = rd.i64();
    a.offset_step = rd.i64();
    a.sectors = rd.f64();
    a.ideal = rd.f64();
  }
  r.syntax_errors.resize(rd.count(12));
  for (auto& e : r.syntax_errors) {
    if (!rd.ok()) break;
    e.begin = rd.u32();
    e.end = rd.u32();
    e.message = rd.str();
  }
  r.missing_includes = rd.strs();
  r.unanalysed_kernels = rd.strs();
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
  write_result(w, r, table);
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
