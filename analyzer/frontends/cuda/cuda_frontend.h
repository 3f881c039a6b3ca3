// CUDA front-end on Clang LibTooling 19: parses a .cu/.cuh in device mode once per target
// arch, as nvcc does, with cudalint's prelude instead of the CUDA headers, and lists the table
// features used by device code reachable for that arch.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/frontends/cuda/coalescing.h"
#include "analyzer/frontends/cuda/features.h"
#include "analyzer/domain/arch.h"
#include "analyzer/frontends/compile_db/compile_db.h"

namespace cudalint {
class DiskCache;
}

namespace cudalint::cuda {

// Where a use sits, which decides whether nvcc's device compilation for an arch sees it.
enum class UseContext {
  Emitted,      // a kernel, or a device function a kernel calls (directly or not): code-generated
  Device,       // a __device__/__host__ __device__ function no kernel calls: parsed, not emitted
  Template,     // a template never instantiated (non-dependent names only: they are bound there)
  Host,         // host-only code: parsed by nvcc's device pass, never compiled for the device
};

struct FeatureUse {
  const Feature* feature = nullptr;
  uint32_t begin = 0, end = 0;  // byte span in `file` (the analysed file when `file` is empty)
  std::string spelled;          // what the code names: `__hmax2`, `cp.async.ca.shared.global`
  UseContext context = UseContext::Emitted;
  // A use inside an included header: its absolute path (lexically normalised), and the
  // `#include` line in the analysed file that brings it in.
  std::string file;
  uint32_t include_begin = 0, include_end = 0;
  // Set by the engine when the header is not analysed itself: the use was moved to the
  // `#include` line of the analysed file, and this names the header for messages.
  std::string via_header;
};

struct ArchResult {
  domain::Arch arch;
  std::vector<FeatureUse> uses;  // sorted by (file, offset), one per (feature, place)
  bool parsed = false;           // false when Clang could not run at all
};

// A syntax error in the analysed file that missing headers cannot explain.
struct SyntaxError {
  uint32_t begin = 0, end = 0;
  std::string message;  // Clang's wording
};

// Precompiled preludes, one per distinct set of compiler flags (arch, defines, standard): the
// prelude is most of a small file's parse, and with a PCH Clang reads only the declarations a
// file uses. Shared by the threads of a run (and an editor session); thread-safe. Building one
// costs about one parse; a flag set whose PCH cannot be built or loaded falls back to parsing
// the prelude text.
// PCH bytes: owned, or the PCH embedded in the program (read in place, not copied).
using PchBytes = std::shared_ptr<const std::string_view>;

struct DriverJob;  // the cc1 command line Clang's driver makes of a parse's flags (driver_job.h)
namespace detail {
struct ArchParse;  // one parse for one arch (arch_parse.h)
struct Preamble;   // a file's precompiled preamble for one arch (preamble.h)
}

class PreludeCache {
 public:
  // Out of line: the cached futures are created in prelude_cache.cpp, built without RTTI, and
  // UBSan's vptr check flags their destruction from a translation unit built with it.
  // `disk`: also keep the PCHs on disk, so that the next run (a pre-commit hook, an editor
  // restart) loads them instead of building them.
  // `embedded`: a PCH built with the program (embedded_prelude_pch()), served for its key
  // without building or reading anything.
  explicit PreludeCache(const DiskCache* disk = nullptr, std::string_view embedded = {});
  ~PreludeCache();
  PreludeCache(const PreludeCache&) = delete;
  PreludeCache& operator=(const PreludeCache&) = delete;

  // The PCH bytes for `key`, built by `build` on first use (nullptr: none; parse the text).
  // `may_build` false: only a PCH at hand (embedded, built earlier, on disk) is returned.
  // With a disk cache, at most kMaxPchBytes of them stay in memory, the most recently used.
  static constexpr size_t kMaxPchBytes = size_t{64} << 20;
  PchBytes get(const std::string& key, const std::function<PchBytes()>& build, bool may_build = true);
  // The bytes of the PCHs held in memory that a disk cache also keeps (tests).
  size_t pch_bytes_kept() {
    std::lock_guard<std::mutex> lock(mu_);
    return pch_bytes_;
  }

  // The driver's cc1 command line for the flags `key`, made by `make` on first use (nullptr:
  // none to reuse; each parse runs the driver). The driver's work (finding the host's GCC and
  // the CUDA installation, choosing the cc1 flags) is the same for every file of a run.
  std::shared_ptr<const DriverJob> driver_job(const std::string& key,
                                              const std::function<std::shared_ptr<const DriverJob>()>& make);

  // Whether a PCH of the prelude and the standard headers `set` may be used: the sets already
  // admitted, and new ones while fewer than kMaxStdSets are (each PCH stays in memory, a few MB).
  static constexpr size_t kMaxStdSets = 16;
  bool admit_std_set(const std::string& set);

  // prelude_text(table), generated on first use (the table must outlive the cache).
  const std::string& prelude(const FeatureTable& table);
  // Whether one of `macros` (NAME or NAME=VALUE) names an identifier of prelude(table). The
  // prelude's identifiers are collected once, not scanned for each macro of each parse.
  bool prelude_names(const FeatureTable& table, const std::vector<std::string>& macros);
  // prelude_arch_text_for(arch), generated on first use.
  const std::string& arch_text(const domain::Arch& arch);
  // prelude_arch_text() (the queries left to `#if`), generated on first use.
  const std::string& generic_arch_text();

  // The content hash of the regular file at `path` (nullopt: unreadable, or not a regular
  // file), read and hashed once per version of the file: a cached result lists every file its
  // parse read, and every parse reads the same toolkit header (the driver reads the 1.1 MB
  // cuda.h for the toolkit's version) and the project's common headers. A version is the
  // file's device, inode, size, modification and change times, as stat reports them before and
  // after the read.
  std::optional<std::string> file_hash(const std::string& path);

  // The newest arch's parse an editor's first pass made (Options::newest_arch_only), kept for
  // the full run that follows with the same text, flags and buffers: that run takes it instead
  // of parsing that arch again. Taken once; the last few are kept.
  void keep_newest_parse(const std::string& key, std::shared_ptr<const detail::ArchParse> parse);
  std::shared_ptr<const detail::ArchParse> take_newest_parse(const std::string& key);
  bool has_newest_parses();

  // A file's precompiled preamble for one arch (Options::preamble), under a key of its text,
  // directory, flags and the editor's buffers: kept while every file its build read is
  // unchanged (file_hash) and none it did not find has appeared; else `build` makes it again
  // (nullptr: none). The last kMaxPreambles are kept (a few tens of MB each). With a disk cache
  // each one built is also kept there, the last kMaxDiskPreambles of them, and one not kept in
  // this process is looked for there first (a pre-commit run after another edit of the file).
  // `on_disk` false: memory only (a directory run's preambles shared by a group of its files).
  // Threads asking for one being built wait for it.
  static constexpr size_t kMaxPreambles = 16;
  static constexpr size_t kMaxDiskPreambles = 32;
  std::shared_ptr<const detail::Preamble> preamble(const std::string& key,
                                                   const std::function<std::shared_ptr<const detail::Preamble>()>& build,
                                                   bool on_disk = true);
  // Forgets the preambles whose keys start with `prefix` (a group's, once its files are done).
  void drop_preambles(std::string_view prefix);
  // How many preambles `build` was asked for so far (tests and benchmarks).
  size_t preambles_built() const { return preambles_built_.load(); }
  // How many are kept in memory now (tests).
  size_t preambles_kept() {
    std::lock_guard<std::mutex> lock(mu_);
    return preambles_.size();
  }

 private:
  const DiskCache* disk_ = nullptr;
  std::string_view embedded_key_, embedded_pch_;
  std::mutex mu_;
  struct KeptPch {
    std::shared_future<PchBytes> pch;
    uint64_t used = 0;  // uses_ at its last use
    size_t bytes = 0;   // counted in pch_bytes_ (0: not owned, or not to be dropped)
  };
  std::map<std::string, KeptPch> by_key_;
  uint64_t uses_ = 0;
  size_t pch_bytes_ = 0;
  std::map<std::string, std::shared_ptr<const DriverJob>> jobs_;
  std::map<const FeatureTable*, std::string> texts_;
  std::map<const FeatureTable*, std::set<std::string, std::less<>>> prelude_idents_;
  std::map<std::string, std::string> arch_texts_;  // by sm_name()
  std::optional<std::string> generic_arch_text_;
  std::set<std::string> std_sets_;
  struct FileVersion {
    uint64_t dev = 0, ino = 0, size = 0;
    int64_t mtime_ns = 0, ctime_ns = 0;
    friend bool operator==(const FileVersion&, const FileVersion&) = default;
  };
  std::map<std::string, std::pair<FileVersion, std::string>, std::less<>> file_hashes_;
  std::vector<std::pair<std::string, std::shared_ptr<const detail::ArchParse>>> newest_parses_;  // oldest first
  struct KeptPreamble {
    std::string key;
    std::shared_ptr<const detail::Preamble> preamble;
    std::map<std::string, std::string> hashes;  // of the files its build read
  };
  std::vector<KeptPreamble> preambles_;  // least recently used first
  std::map<std::string, std::shared_future<void>> preambles_building_;  // by key
  std::atomic<size_t> preambles_built_{0};
};

// The resource directory of the Clang cudalint was built with (its headers are there only
// where that LLVM is installed).
std::string default_clang_resource_dir();

struct Options {
  std::vector<domain::Arch> archs;          // distinct target archs
  std::optional<domain::CudaVersion> cuda;  // the build's toolkit (table rows in range)
  std::vector<std::string> include_dirs;   // -I (from compile_commands.json)
  std::vector<std::string> defines;        // -D (NAME or NAME=VALUE)
  std::vector<std::string> undefines;      // -U
  std::string std = "c++17";               // -std
  // nvcc's `--expt-extended-lambda`: <functional> and <utility> come before the file, as
  // CUDA's cuda_runtime.h includes them then (its __CUDACC_EXTENDED_LAMBDA__ is in `defines`).
  bool extended_lambda = false;
  // Unsaved editor buffers of other files (absolute path → text): includes see these.
  std::map<std::string, std::string> unsaved;
  // Precompiled preludes to use and fill; null: parse the prelude text each time.
  PreludeCache* prelude_cache = nullptr;
  // Build a PCH when the cache has none for these flags (building one costs about two parses of
  // a small file: not worth it for one or two parses).
  bool precompile_prelude = true;
  // Results kept on disk, keyed by the text and these options and checked against every path
  // the parse looked up (headers found and not found); null: always parse.
  const DiskCache* disk_cache = nullptr;
  // The calling thread's stack has at least kParseStackBytes: parse on it. Otherwise each parse
  // runs on a new thread with such a stack (creating and unmapping one per parse costs page
  // faults and TLB shootdowns).
  bool caller_has_parse_stack = false;
  // Parse the first and the last arch on two threads at once (the others usually share one of
  // their parses): for latency, when there are fewer files than cores (an editor, pre-commit).
  bool parallel_archs = false;
  // Parse the newest of `archs` only (an editor's first pass), as the run over every arch would
  // parse it first; Result::per_arch holds that arch alone. Never cached on disk.
  bool newest_arch_only = false;
  // Keep each arch's parse of the file's leading directives and the headers they include as a
  // precompiled preamble in the PreludeCache, and parse only the rest of the text when they are
  // unchanged (an editor re-checking a buffer after each edit, as clangd does). Building one costs
  // a little more than a parse: only for files parsed again in this process.
  bool preamble = false;
  // With `preamble`: the name of a group of files in one directory whose leading directives have
  // the same tokens (preamble_signature) and that are parsed with the same options: they share
  // one preamble per arch, kept under this name in memory only (a directory run's files).
  // Empty: the file's own.
  std::string preamble_group;
  // Collect the kernels' global loads and stores (Result::accesses, for the MEM rules): off when
  // no MEM rule is enabled for the file (a sizeable share of a parse's work).
  bool want_accesses = true;
  // A later arch's parse skips the bodies of functions the first arch's parse found it can
  // (their tokens and what they see are the same; no project template they could instantiate).
  // Off: every body is parsed (tests).
  bool reuse_bodies = true;
  // An arch whose preprocessing differs from the first parse's only in `#if`/`#else` branches,
  // inside plain functions, whose other branch holds nothing but arithmetic on the function's
  // scalar variables (or nothing) takes the first parse's uses without those of its branch
  // instead of a parse (Derivation in arch_derivation.h). Off: such archs are parsed (tests).
  bool derive_archs = true;
  // Parsed as text, the C++ standard library's headers keep only their functions' declarations:
  // Clang skips the bodies (not those of constexpr functions or of deduced return types, which
  // later code may evaluate or need). No project code and no device code is in them, and cudalint
  // reports nothing there; a std template's body only matters to host code's instantiations.
  // Off: they are parsed whole (tests).
  bool skip_std_bodies = true;
  // Clang's installed resource directory. The headers the standard library needs from it
  // (stddef.h, stdarg.h, its CUDA wrappers, ...) are embedded in cudalint, so a binary copied
  // where no LLVM is installed parses <vector> as one built there does; the others (immintrin.h,
  // sanitizer/...) are read from here. Empty: none (their includes are missing).
  std::string clang_resource_dir = default_clang_resource_dir();
};

// Clang recurses deeply on deeply nested input: parses need this much stack.
inline constexpr unsigned kParseStackBytes = 64u << 20;

struct Result {
  std::vector<ArchResult> per_arch;
  // Global loads and stores of the kernels (from the newest arch's parse, the first: the lane
  // strides do not depend on the arch; its branches are the code the newest GPUs run).
  std::vector<GlobalAccess> accesses;
  std::vector<SyntaxError> syntax_errors;  // at most one: the first (the rest usually cascade)
  std::vector<std::string> missing_includes;  // headers not found (skipped), as written
  std::vector<std::string> errors;         // failures of the front-end itself (never user code errors)
  // Kernel templates of this file that nothing in it instantiates (launched through another
  // file, or a macro cudalint cannot expand): their dependent calls were checked for no arch.
  std::vector<std::string> unanalysed_kernels;
  // Clang parses this analysis ran (0 when the cache answered): archs that preprocess alike
  // share one; for tests and benchmarks.
  unsigned clang_parses = 0;
  // Those of them that read the prelude precompiled (the rest parsed its text).
  unsigned pch_parses = 0;
  // Those of them that reused a driver job (PreludeCache::driver_job) instead of running the driver.
  unsigned reused_driver_parses = 0;
  // Parses whose PCH held the file's standard headers too (leading_std_includes).
  unsigned std_pch_parses = 0;
  // Function bodies later parses skipped, taking the first parse's findings (reuse_bodies).
  unsigned skipped_bodies = 0;
  // Standard library function bodies its parses of header text skipped (skip_std_bodies).
  unsigned std_bodies_skipped = 0;
  // Archs whose uses were derived from the first parse without a parse (Options::derive_archs).
  unsigned derived_archs = 0;
  // Parses that read a precompiled preamble instead of the file's leading includes (Options::preamble).
  unsigned preamble_parses = 0;
};

// `path` is the file's absolute path (for relative includes); `text` its content, which may be
// an unsaved buffer. Missing includes are skipped. Never throws.
Result analyze(std::string_view path, std::string_view text, const Options& opts, const FeatureTable& table);

// The tokens of `text`'s leading comments and directives, which decide its preamble: files of one
// directory with the same signature, parsed with the same options, can share one
// (Options::preamble_group). Empty: it has none (no leading `#include`).
std::string preamble_group_signature(std::string_view text);

// The prelude cudalint parses instead of the CUDA headers: the fixed part (prelude.cuh) and the
// declarations of every feature of `table`. The same text and the same declarations for every
// arch and toolkit version.
std::string prelude_text(const FeatureTable& table);

// The prelude precompiled for the default flags (C++17, no project macros), built when the
// program is built (prelude_pch_main.cpp) and embedded in it: "KEY\0PCH" for PreludeCache.
// Empty when not built in. Defined in the cudalint_prelude_pch library.
std::string_view embedded_prelude_pch();

// What prelude_pch_main.cpp embeds: the key and the PCH of the default flags ("" when Clang
// could not build it).
std::pair<std::string, std::string> precompile_default_prelude(const FeatureTable& table);

// Finds an include for leading_std_includes: {path, text} when it is there to read; {"", ""}
// when it is missing (a parse goes on without it); nullopt when it is there but not to be read
// (a system header: the block stops there).
using IncludeLookup = std::function<std::optional<std::pair<std::string, std::string>>(
    std::string_view name, bool angled, const std::string& dir)>;

// The standard library headers (`#include <vector>` ...) that the file's leading block of
// includes names, as `#include` lines in its order without repeats. The block is the lines before
// the first that is not blank, a comment, `#pragma once`, an include guard or an `#include`; it
// goes on into the first header it includes that `look` finds (`dir`: the file's directory), and
// ends with that header's block (the header's code follows). Missing headers and CUDA's (empty
// stubs here) are skipped. A PCH of the prelude and these headers serves the file's parses
// (cudalint keeps one per set of headers): nothing precedes them but what the PCH holds.
std::string leading_std_includes(std::string_view text, const std::string& dir, const IncludeLookup& look);

// The standard library headers the file and the project headers it includes name outside
// conditional groups, in the order a preprocessor meets them (a header once): included first
// by a PCH, they declare what they would have declared where they are, as long as nothing the
// project defines can change them. When something might (a header met after a feature-test
// macro, NDEBUG or a lower-case macro is defined, `#pragma pack`, torch's arch-dependent
// headers), leading_std_includes.
std::string hoistable_std_includes(std::string_view text, const std::string& dir, const IncludeLookup& look);

// The part of the prelude that depends on the arch and the toolkit version, as macros: the
// `<nv/target>` queries and the default `__CUDACC_VER_MAJOR__`. Parsed after the prelude (or its
// PCH, which is the same for every arch) and the command line's macros.
std::string prelude_arch_text();

// The same for one arch, with the queries already decided (no `#if` left where the arch
// decides it): what a parse uses unless the project's -D/-U name an arch macro.
std::string prelude_arch_text_for(const domain::Arch& arch);

}  // namespace cudalint::cuda
