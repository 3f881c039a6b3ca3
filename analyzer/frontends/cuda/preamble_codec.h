// CUDA front-end: a precompiled preamble (preamble.h) as the on-disk cache keeps it, so that the
// next run on the same file (a pre-commit hook after another edit, an editor restarted) reads it
// instead of building it. Private to analyzer/frontends/cuda.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "analyzer/frontends/cuda/preamble.h"

namespace cudalint::cuda::detail {

// A preamble with the content hashes of the files its build read (path → content_hash).
struct StoredPreamble {
  std::shared_ptr<const Preamble> preamble;
  std::map<std::string, std::string> hashes;
};

// The bytes of `s`: its fields, then its PCH as it is. The trace's arch groups are left out
// (merge_preamble_trace drops them).
std::string encode_preamble(const StoredPreamble& s);

// The preamble `bytes` hold (nullopt: not one encode_preamble wrote). Its PCH is read in place:
// it keeps `bytes` alive.
std::optional<StoredPreamble> decode_preamble(std::string bytes);

}  // namespace cudalint::cuda::detail
