// Static Python evaluation: small tree-sitter helpers (node types, fields, named children).
#include <array>
#include <cstring>
#include <vector>

#include "analyzer/frontends/python/py_eval_internal.h"

namespace cudalint::python {

using namespace detail;

namespace detail {

TSFieldId field_id(FieldName name) {
  static const std::array<TSFieldId, FieldName::kCount> ids = [lang = tree_sitter_python()] {
    std::array<TSFieldId, FieldName::kCount> a{};
    for (size_t i = 0; i < FieldName::kCount; ++i)
      a[i] = ts_language_field_id_for_name(lang, FieldName::kNames[i],
                                           static_cast<uint32_t>(std::strlen(FieldName::kNames[i])));
    return a;
  }();
  return ids[name.index()];
}

}  // namespace detail

Span span_of(TSNode n) {
  if (ts_node_is_null(n)) return {};
  return {ts_node_start_byte(n), ts_node_end_byte(n)};
}

std::string_view type_of(TSNode n) {
  if (ts_node_is_null(n)) return {};
  // The grammar's symbol names, read once: ts_node_type looks the name up and the caller
  // measured it with strlen on every call. (Every tree here is tree-sitter-python's.)
  static const std::vector<std::string_view> names = [lang = ts_node_language(n)] {
    std::vector<std::string_view> v(ts_language_symbol_count(lang));
    for (size_t s = 0; s < v.size(); ++s)
      if (const char* name = ts_language_symbol_name(lang, static_cast<TSSymbol>(s))) v[s] = name;
    return v;
  }();
  const TSSymbol s = ts_node_symbol(n);
  return s < names.size() ? names[s] : std::string_view(ts_node_type(n));  // ERROR is 65535
}

TSNode field(TSNode n, FieldName name) {
  if (ts_node_is_null(n)) return n;
  const TSFieldId id = field_id(name);
  return id ? ts_node_child_by_field_id(n, id) : TSNode{};
}

NodeList named_children(TSNode n) {
  NodeList out;
  if (ts_node_is_null(n)) return out;
  // A few children: by index (ts_node_child walks from the first, so this is quadratic, but
  // cheaper than a cursor's allocations for short lists); more: with a cursor.
  const uint32_t count = ts_node_child_count(n);
  if (count <= 12) {
    for (uint32_t i = 0; i < count; ++i) {
      TSNode ch = ts_node_child(n, i);
      if (ts_node_is_named(ch) && !is_trivia(ts_node_type(ch))) out.push_back(ch);
    }
    return out;
  }
  for_each_named(n, [&](TSNode c) {
    out.push_back(c);
    return true;
  });
  return out;
}

}  // namespace cudalint::python
