#include "analyzer/frontends/python/gb_serialize.h"

#include <cstdint>

#include "analyzer/core/bytes.h"

namespace cudalint::python::gb {

namespace {

// Summaries' own compound values on top of the shared encoding.
class Writer : public bytes::Writer {
 public:
  void span(const Span& s) {
    u32(s.begin);
    u32(s.end);
  }
  void val(const Val& v) {
    u8(static_cast<uint8_t>(v.kind));
    boolean(v.flag);
    str(v.text);
    u32(static_cast<uint32_t>(v.items.size()));
    for (const auto& i : v.items) val(i);
    strs(v.keys);
  }
  void vals(const NameMap<Val>& m) {
    u32(static_cast<uint32_t>(m.size()));
    for (const auto& [k, v] : m) {
      str(k);
      val(v);
    }
  }
};

class Reader : public bytes::Reader {
 public:
  using bytes::Reader::Reader;
  Span span() {
    Span s;
    s.begin = u32();
    s.end = u32();
    return s;
  }
  Val val(int depth = 0) {
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
  NameMap<Val> vals() {
    NameMap<Val> m;
    uint32_t n = count(14);
    m.reserve(n);  // exactly: summaries read back live as long as fresh ones (no growth slack)
    for (uint32_t i = 0; i < n && ok(); ++i) {
      std::string k = str();
      m[std::move(k)] = val();
    }
    return m;
  }
};

}  // namespace

std::string serialize(const Summary& s) {
  Writer w;
  w.u32(static_cast<uint32_t>(s.functions.size()));
  for (const auto& f : s.functions) {
    w.str(f.name());
    w.str(f.qualname);
    w.i32(f.cls);
    w.i32(f.self_cls);
    w.span(f.name_span);
    w.boolean(f.compiled.has_value());
    if (f.compiled) {
      w.span(f.compiled->span);
      w.boolean(f.compiled->fullgraph);
      w.u32(static_cast<uint32_t>(f.compiled->config.size()));
      for (const auto& [k, v] : f.compiled->config) {
        w.str(k);
        w.boolean(v);
      }
    }
    w.boolean(f.disabled);
    w.boolean(f.disabled_nonrecursive);
    w.boolean(f.opaque);
    w.boolean(f.scripted);
    w.boolean(f.has_breaks_in_loop);
    w.strs(f.params.to_vector());
    w.u32(static_cast<uint32_t>(f.returns.size()));
    for (const auto& v : f.returns) w.val(v);
    w.u32(static_cast<uint32_t>(f.breaks.size()));
    for (const auto& b : f.breaks) {
      w.u8(static_cast<uint8_t>(b.kind));
      w.u8(static_cast<uint8_t>(b.gate));
      w.span(b.span);
      w.str(b.what);
      w.str(b.registry);
      w.str(b.detail);
      w.str(b.needs);
      w.str(b.when);
    }
    w.u32(static_cast<uint32_t>(f.calls.size()));
    for (const auto& c : f.calls) {
      w.span(c.span);
      w.val(c.callee);
      w.str(c.needs);
      w.str(c.when);
      w.i32(c.positional);
      w.strs(c.keywords);
      w.boolean(c.splat);
    }
  }
  w.u32(static_cast<uint32_t>(s.classes.size()));
  for (const auto& c : s.classes) {
    w.str(c.name);
    w.str(c.qualname);
    w.span(c.name_span);
    w.u32(static_cast<uint32_t>(c.bases.size()));
    for (const auto& b : c.bases) w.val(b);
    w.vals(c.attrs);
    w.u32(static_cast<uint32_t>(c.methods.size()));
    for (const auto& [k, v] : c.methods) {
      w.str(k);
      w.i32(v);
    }
  }
  w.vals(s.globals);
  w.u32(static_cast<uint32_t>(s.compile_sites.size()));
  for (const auto& c : s.compile_sites) {
    w.span(c.span);
    w.val(c.target);
    w.boolean(c.fullgraph);
    w.boolean(c.method_form);
  }
  w.u32(static_cast<uint32_t>(s.config.size()));
  for (const auto& c : s.config) {
    w.str(c.key);
    w.boolean(c.value);
    w.span(c.span);
  }
  w.strs(s.imports);
  w.strs(s.elided);
  w.boolean(s.truncated);
  return std::move(w.out);
}

std::optional<Summary> deserialize(std::string_view bytes) {
  Reader r(bytes);
  Summary s;
  s.functions.resize(r.count(40));
  for (auto& f : s.functions) {
    if (!r.ok()) break;
    (void)r.str();  // the name: the last part of the qualified name that follows
    f.qualname = r.str();
    f.cls = r.i32();
    f.self_cls = r.i32();
    f.name_span = r.span();
    if (r.boolean()) {
      CompileMark m;
      m.span = r.span();
      m.fullgraph = r.boolean();
      uint32_t n = r.count(5);
      for (uint32_t i = 0; i < n && r.ok(); ++i) {
        std::string k = r.str();
        m.config[std::move(k)] = r.boolean();
      }
      f.compiled = std::move(m);
    }
    f.disabled = r.boolean();
    f.disabled_nonrecursive = r.boolean();
    f.opaque = r.boolean();
    f.scripted = r.boolean();
    f.has_breaks_in_loop = r.boolean();
    f.params = NameList(r.strs());
    f.returns.resize(r.count(3));
    for (auto& v : f.returns) v = r.val();
    f.breaks.resize(r.count(26));
    for (auto& b : f.breaks) {
      if (!r.ok()) break;
      b.kind = r.enumeration(kLastBreakKind);
      b.gate = r.enumeration(Gate::UnlessAutogradTraced);
      b.span = r.span();
      b.what = r.str();
      b.registry = r.str();
      b.detail = r.str();
      b.needs = r.str();
      b.when = r.str();
    }
    f.calls.resize(r.count(31));
    for (auto& c : f.calls) {
      if (!r.ok()) break;
      c.span = r.span();
      c.callee = r.val();
      c.needs = r.str();
      c.when = r.str();
      c.positional = r.i32();
      c.keywords = r.strs();
      c.splat = r.boolean();
    }
  }
  s.classes.resize(r.count(24));
  for (auto& c : s.classes) {
    if (!r.ok()) break;
    c.name = r.str();
    c.qualname = r.str();
    c.name_span = r.span();
    c.bases.resize(r.count(10));
    for (auto& b : c.bases) {
      if (!r.ok()) break;
      b = r.val();
    }
    c.attrs = r.vals();
    uint32_t n = r.count(8);
    c.methods.reserve(n);
    for (uint32_t i = 0; i < n && r.ok(); ++i) {
      std::string k = r.str();
      c.methods[std::move(k)] = r.i32();
    }
  }
  s.globals = r.vals();
  s.compile_sites.resize(r.count(20));
  for (auto& c : s.compile_sites) {
    if (!r.ok()) break;
    c.span = r.span();
    c.target = r.val();
    c.fullgraph = r.boolean();
    c.method_form = r.boolean();
  }
  s.config.resize(r.count(13));
  for (auto& c : s.config) {
    if (!r.ok()) break;
    c.key = r.str();
    c.value = r.boolean();
    c.span = r.span();
  }
  s.imports = r.strs();
  s.elided = r.strs();
  s.truncated = r.boolean();
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
