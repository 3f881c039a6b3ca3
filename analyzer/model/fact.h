// A fact about the build together with where it was read from.
#pragma once

#include <optional>

#include "analyzer/core/diagnostic.h"

namespace cudalint::model {

template <typename T>
struct Fact {
  T value{};
  Origin origin;             // file and bytes the value was read from
  bool conditional = false;  // only on some paths (an `if` branch, an ARG default)
};

// Unknown facts are empty optionals: rules stay silent on them.
template <typename T>
using MaybeFact = std::optional<Fact<T>>;

}  // namespace cudalint::model
