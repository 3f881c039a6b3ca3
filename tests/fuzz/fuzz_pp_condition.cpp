// The `#if` evaluator behind arch sharing (analyzer/frontends/cuda/arch_macros.h): the first
// byte picks an arch, the rest is a directive's text from its condition on (any bytes).
#include "analyzer/frontends/cuda/arch_macros.h"
#include "tests/fuzz/fuzz_target.h"

CUDALINT_FUZZ_TARGET(pp_condition) {
  using namespace cudalint;
  static const domain::Arch archs[] = {{7, 5}, {8, 0}, {8, 6}, {9, 0}, {9, 0, 'a'}, {10, 0, 'a'}, {10, 3, 'f'}, {12, 0}};
  fuzz::Bytes in(data, size);
  const domain::Arch arch = archs[in.byte() % 8];
  std::string_view rest = size ? fuzz::as_text(data + 1, size - 1) : std::string_view();
  const std::string cond = cuda::directive_condition(rest, 0);
  CUDALINT_FUZZ_CHECK(cond.size() <= rest.size());
  CUDALINT_FUZZ_CHECK(cond.find('\n') == std::string::npos);
  // Strict: an identifier that is no arch macro is unknown. Lenient: it is an undefined name.
  auto strict = [&](std::string_view id) -> std::optional<cuda::Ident> {
    if (auto m = cuda::arch_macro(id, arch)) return cuda::Ident{m->defined, m->value};
    return std::nullopt;
  };
  auto lenient = [&](std::string_view id) -> std::optional<cuda::Ident> {
    if (auto m = cuda::arch_macro(id, arch)) return cuda::Ident{m->defined, m->value};
    return cuda::Ident{false, 0};
  };
  auto a = cuda::eval_condition(cond, strict);
  auto b = cuda::eval_condition(cond, lenient);
  // What the strict evaluation decided used no unknown name where it mattered: the lenient one
  // must agree.
  if (a) CUDALINT_FUZZ_CHECK(b && *a == *b);
  CUDALINT_FUZZ_CHECK(cuda::eval_condition(cond, lenient) == b);  // deterministic
  return 0;
}
