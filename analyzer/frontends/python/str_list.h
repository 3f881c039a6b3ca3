// Python front-end: the strings of an evaluated list argument (sources, compiler flags), shared
// by the setup.py and JIT `load()` front-ends. Private to analyzer/frontends/python.
#pragma once

#include "analyzer/frontends/python/py_eval.h"
#include "analyzer/frontends/python/setup_py.h"

namespace cudalint::python {

// The items that are strings; incomplete when the value or one of its items is not known.
// `one_string_is_list`: a single string stands for a list of one, as cpp_extension's load()
// accepts (setup.py's Extension takes lists only).
inline StrList str_list(const Value& v, Span span, bool one_string_is_list) {
  StrList l;
  l.span = span;
  if (one_string_is_list && v.is(Value::Kind::Str)) {
    l.items.push_back({v.text, v.span});
    return l;
  }
  if (!v.is_seq()) {
    l.complete = false;
    return l;
  }
  l.complete = v.complete;
  for (const Value& x : v.items) {
    if (x.is(Value::Kind::Str)) l.items.push_back({x.text, x.span});
    else l.complete = false;
  }
  return l;
}

}  // namespace cudalint::python
