#include "analyzer/frontends/python/gb_serialize.h"

#include <cstdint>

#include "analyzer/core/bytes.h"

namespace cudalint::python::gb {

namespace {

// Summaries' own compound values on top of the shared encoding.
class Writer : public bytes::Writer {
 public:
  using bytes::Writer::put;
  template <typename... T>
  void operator()(const T&... v) {
    (put(v), ...);
  }
  void put(const Span& s) {
    u32(s.begin);
    u32(s.end);
  }
  void put(const Val& v) {
    u8(static_cast<uint8_t>(v.kind));
    boolean(v.flag);
    str(v.text);
    u32(static_cast<uint32_t>(v.items.size()));
    for (const auto& i : v.items) put(i);
    strs(v.keys);
  }
  void put(const NameMap<Val>& m) {
    u32(static_cast<uint32_t>(m.size()));
    for (const auto& [k, v] : m) {
      str(k);
      put(v);
    }
  }
};

class Reader : public bytes::Reader {
 public:
  using bytes::Reader::Reader;
  using bytes::Reader::get;
  template <typename... T>
  void operator()(T&... v) {
    (get(v), ...);
  }
  void get(Span& s) {
    s.begin = u32();
    s.end = u32();
  }
  void get(Val& v) { v = val(0); }
  void get(NameMap<Val>& m) {
    m = NameMap<Val>();
    uint32_t n = count(14);
    m.reserve(n);  // exactly: summaries read back live as long as fresh ones (no growth slack)
    for (uint32_t i = 0; i < n && ok(); ++i) {
      std::string k = str();
      m[std::move(k)] = val(0);
    }
  }

 private:
  Val val(int depth) {
    Val v;
    if (depth > 4096) {
      fail();
      return v;
    }
    v.kind = enumeration(Val::Kind::Scalar);
    v.flag = boolean();
    v.text = str();
    v.items.resize(count(10));
    for (auto& i : v.items) {
      if (!ok()) break;
      i = val(depth + 1);
    }
    v.keys = strs();
    return v;
  }
};

// The fields of each serialized struct, once for both directions (bytes.h). `S` is the struct,
// const when writing.
template <typename IO, typename S>
void break_fields(IO& io, S& b) {
  io(b.rule);
  io.enumeration(b.gate, kLastGate);
  io(b.span, b.what, b.registry, b.detail, b.needs, b.when);
}

template <typename IO, typename S>
void call_fields(IO& io, S& c) {
  io(c.span, c.callee, c.needs, c.when, c.positional, c.keywords, c.splat);
}

template <typename IO, typename S>
void compile_mark_fields(IO& io, S& m) {
  io(m.span, m.fullgraph);
  bytes::string_map(io, m.config, 5);
}

template <typename IO, typename S>
void function_fields(IO& io, S& f) {
  if constexpr (IO::writing) {
    io.str(f.name());  // read back and dropped: the last part of the qualified name that follows
  } else {
    (void)io.str();
  }
  io(f.qualname, f.cls, f.self_cls, f.name_span);
  if constexpr (IO::writing) {
    io.boolean(f.compiled.has_value());
    if (f.compiled) compile_mark_fields(io, *f.compiled);
  } else if (io.boolean()) {
    CompileMark m;
    compile_mark_fields(io, m);
    f.compiled = std::move(m);
  }
  io(f.disabled, f.disabled_nonrecursive, f.opaque, f.scripted, f.has_breaks_in_loop);
  if constexpr (IO::writing) io.strs(f.params.to_vector());
  else f.params = NameList(io.strs());
  bytes::list(io, f.returns, 3, [](IO& io2, auto& v) { io2(v); });
  bytes::list(io, f.breaks, 26, [](IO& io2, auto& b) { break_fields(io2, b); });
  bytes::list(io, f.calls, 31, [](IO& io2, auto& c) { call_fields(io2, c); });
}

template <typename IO, typename S>
void class_fields(IO& io, S& c) {
  io(c.name, c.qualname, c.name_span);
  bytes::list(io, c.bases, 10, [](IO& io2, auto& b) { io2(b); });
  io(c.attrs);
  bytes::string_map(io, c.methods, 8);
}

template <typename IO, typename S>
void summary_fields(IO& io, S& s) {
  bytes::list(io, s.functions, 40, [](IO& io2, auto& f) { function_fields(io2, f); });
  bytes::list(io, s.classes, 24, [](IO& io2, auto& c) { class_fields(io2, c); });
  io(s.globals);
  bytes::list(io, s.compile_sites, 20, [](IO& io2, auto& c) { io2(c.span, c.target, c.fullgraph, c.method_form); });
  bytes::list(io, s.config, 13, [](IO& io2, auto& c) { io2(c.key, c.value, c.span); });
  io(s.imports, s.elided, s.truncated);
}

}  // namespace

std::string serialize(const Summary& s) {
  Writer w;
  summary_fields(w, s);
  return std::move(w.out);
}

std::optional<Summary> deserialize(std::string_view bytes) {
  Reader r(bytes);
  Summary s;
  summary_fields(r, s);
  if (!r.ok() || !r.at_end()) return std::nullopt;
  // Indices must stay inside the summary (the model indexes with them).
  const int nf = static_cast<int>(s.functions.size()), nc = static_cast<int>(s.classes.size());
  for (const auto& f : s.functions)
    if (f.cls < -1 || f.cls >= nc || f.self_cls < -1 || f.self_cls >= nc) return std::nullopt;
  for (const auto& c : s.classes)
    for (const auto& [k, i] : c.methods)
      if (i < 0 || i >= nf) return std::nullopt;
  return s;
}

}  // namespace cudalint::python::gb
