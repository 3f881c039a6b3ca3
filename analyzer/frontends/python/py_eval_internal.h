// Static Python evaluation internals, shared by py_eval.cpp and the files split from it
// (py_value.cpp, py_tree.cpp). Private to analyzer/frontends/python.
#pragma once

#include <string_view>

#include <tree_sitter/api.h>

#include "analyzer/frontends/python/py_eval.h"

namespace cudalint::python {

namespace detail {

using K = Value::Kind;

inline bool is_trivia(std::string_view type) { return type == "comment" || type == "line_continuation"; }

// Calls f(child) for each named, non-comment child until f returns false.
template <typename F>
void for_each_named(TSNode n, F&& f) {
  if (ts_node_is_null(n)) return;
  TSTreeCursor c = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode ch = ts_tree_cursor_current_node(&c);
      if (ts_node_is_named(ch) && !is_trivia(ts_node_type(ch)) && !f(ch)) break;
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
}

// The grammar's id of a field (0: no such field, as in an older grammar: nothing is found), the
// ids read once (every tree here is tree-sitter-python's).
TSFieldId field_id(FieldName name);

// The last component of a dotted path: "os.path.join" -> "join".
std::string_view last_component(std::string_view path);

}  // namespace detail

}  // namespace cudalint::python
