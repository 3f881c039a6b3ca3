// CUDA front-end: a file's precompiled preamble (as clangd keeps one). The analysed file's
// leading directives and comments, with every header they include, parsed once for an arch and
// kept as a PCH chained on the prelude's; a later parse of the same file for that arch reads it
// and parses only the rest of the text. Private to analyzer/frontends/cuda.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <clang/Lex/PPCallbacks.h>

#include "analyzer/domain/arch.h"
#include "analyzer/frontends/cuda/arch_trace.h"
#include "analyzer/frontends/cuda/cuda_frontend.h"
#include "analyzer/frontends/cuda/virtual_files.h"

namespace cudalint::cuda {

struct DriverJob;

namespace detail {

// Where a parse reads a preamble's PCH.
constexpr std::string_view kPreamblePchPath = "/cudalint/preamble.pch";

// Missing includes are skipped and recorded: a missing torch or project header must not stop the
// analysis.
class MissingIncludes : public clang::PPCallbacks {
 public:
  explicit MissingIncludes(std::vector<std::string>& missing) : missing_(missing) {}
  bool FileNotFound(llvm::StringRef name) override;

 private:
  std::vector<std::string>& missing_;
};

// A preamble's PCH kept in an unlinked temporary file instead of in memory, read back for each
// parse: a group's preambles are held while its files are analysed (TransformerEngine's
// activation kernels: 7 archs, 18 MB each), where a parse needs one at a time.
class SpilledPch {
 public:
  // nullptr: no temporary file could be written (the bytes stay in memory).
  static std::shared_ptr<const SpilledPch> write(std::string_view bytes);
  ~SpilledPch();
  SpilledPch(const SpilledPch&) = delete;
  SpilledPch& operator=(const SpilledPch&) = delete;
  PchBytes read() const;  // nullptr: unreadable

 private:
  SpilledPch(int fd, size_t size) : fd_(fd), size_(size) {}
  int fd_ = -1;
  size_t size_ = 0;
};

struct Preamble {
  std::string text;  // the analysed file's first text.size() bytes
  // The in-memory file those bytes were parsed as: beside the analysed file, so that their
  // includes resolve as they do there.
  std::string path;
  PchBytes pch;  // chained on the prelude PCH of the driver job it was built with
  std::shared_ptr<const SpilledPch> spilled;  // where it is when `pch` is null
  PchBytes load_pch() const { return pch ? pch : spilled ? spilled->read() : nullptr; }
  // What their preprocessing did, as a parse of the whole file would have recorded it first.
  ArchTrace trace;
  std::vector<std::string> missing;
  Manifest probes;     // what the build looked up on the real file system
  bool errors = false;  // Clang's errors in the headers (a parse with them is not "clean")
};

// How many leading bytes of `text` a preamble takes: its leading comments and preprocessor
// directives up to a line start, when they include something (0: no preamble).
size_t preamble_size(std::string_view text);

// `text` with its first `n` bytes blanked (newlines kept): offsets and lines stay the same.
std::string blank_preamble(std::string_view text, size_t n);

// What a preamble's PCH depends on in its text: its tokens (comments are not tokens), each with
// whether it starts a line and follows whitespace (which decide directives and macro forms).
// Two texts with the same signature differ only in comments and blank space.
std::string preamble_signature(std::string_view text);

// Offsets in a preamble's text `from` → the same tokens' offsets in `to` (the same signature):
// each token's start in both, in order.
class PreambleShift {
 public:
  PreambleShift() = default;  // no shift
  PreambleShift(std::string_view from, std::string_view to);
  uint32_t operator()(uint32_t offset) const;

 private:
  std::vector<std::pair<uint32_t, uint32_t>> starts_;
};

// The preamble of `text` (the file at `file`) for `arch`, built with the driver job's flags and
// in-memory files and the editor's `unsaved` buffers. nullptr: none (no invocation, or an error in
// the preamble's own text, which the full parse reports). `shared`: for the other files of its
// group too (Options::preamble_group), under a name that is not the file's, its PCH spilled.
// `own_stack`: the calling thread has kParseStackBytes of stack (else it builds on a new thread).
std::shared_ptr<const Preamble> build_preamble(const DriverJob& job, const std::string& resource_dir,
                                               const std::map<std::string, std::string>& unsaved,
                                               const std::string& file, std::string_view text, size_t size,
                                               const domain::Arch& arch, bool shared = false,
                                               bool own_stack = false);

// Appends the preamble's trace to `into`, the trace of a parse of the rest (its conditions came
// first), its places in the analysed file moved by `shift`. The arch groups are left out: a parse
// with a preamble derives no other arch.
void merge_preamble_trace(const ArchTrace& preamble, const PreambleShift& shift, ArchTrace& into);

}  // namespace detail
}  // namespace cudalint::cuda
