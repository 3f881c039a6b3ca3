// Static Python evaluation internals, shared by py_eval.cpp and the files split from it
// (py_value.cpp, py_tree.cpp, py_statements.cpp, py_calls.cpp). Every recursive function takes a
// Guard, so at most kMaxDepth of them are on the C++ stack together, whatever the nesting of the
// input; loops over children use tree cursors, which are linear where ts_node_child(i) would be
// quadratic. Private to analyzer/frontends/python.
#pragma once

#include <string_view>

#include <tree_sitter/api.h>

#include "analyzer/frontends/python/py_eval.h"

namespace cudalint::python {

// Counts one level of C++ recursion; refuses beyond kMaxDepth.
class Interpreter::Guard {
 public:
  explicit Guard(Interpreter& in) : in_(in), ok_(in.depth_ < kMaxDepth) {
    if (ok_) ++in_.depth_;
  }
  ~Guard() {
    if (ok_) --in_.depth_;
  }
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;
  bool ok() const { return ok_; }

 private:
  Interpreter& in_;
  bool ok_;
};

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
