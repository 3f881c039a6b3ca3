// Static Python evaluation internals, shared by py_eval.cpp and the files split from it
// (py_value.cpp). Private to analyzer/frontends/python.
#pragma once

#include <string_view>

#include <tree_sitter/api.h>

#include "analyzer/frontends/python/py_eval.h"

namespace cudalint::python {

namespace detail {

using K = Value::Kind;

// The last component of a dotted path: "os.path.join" -> "join".
std::string_view last_component(std::string_view path);

}  // namespace detail

}  // namespace cudalint::python
