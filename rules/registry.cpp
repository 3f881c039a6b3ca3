// The explicit rule registry: one line per rule, sorted by id.
#include "rules/registry.h"

#include <array>

namespace cudalint::rules {

std::unique_ptr<Rule> make_abi001();
std::unique_ptr<Rule> make_abi004();
std::unique_ptr<Rule> make_arch001();
std::unique_ptr<Rule> make_arch002();
std::unique_ptr<Rule> make_arch003();
std::unique_ptr<Rule> make_arch004();
std::unique_ptr<Rule> make_arch007();
std::unique_ptr<Rule> make_arch008();
std::unique_ptr<Rule> make_arch010();
std::unique_ptr<Rule> make_arch011();
std::unique_ptr<Rule> make_arch012();
std::unique_ptr<Rule> make_bld001();
std::unique_ptr<Rule> make_bld002();
std::unique_ptr<Rule> make_bld003();
std::unique_ptr<Rule> make_bld004();
std::unique_ptr<Rule> make_bld005();
std::unique_ptr<Rule> make_bld102();
std::unique_ptr<Rule> make_bld104();
std::unique_ptr<Rule> make_bld105();
std::unique_ptr<Rule> make_bld202();
std::unique_ptr<Rule> make_bld204();
std::unique_ptr<Rule> make_bld205();
std::unique_ptr<Rule> make_conf001();
std::unique_ptr<Rule> make_conf002();
std::unique_ptr<Rule> make_gb001();
std::unique_ptr<Rule> make_gb002();
std::unique_ptr<Rule> make_gb003();
std::unique_ptr<Rule> make_gb004();
std::unique_ptr<Rule> make_gb005();
std::unique_ptr<Rule> make_gb006();
std::unique_ptr<Rule> make_gb007();
std::unique_ptr<Rule> make_gb008();
std::unique_ptr<Rule> make_gb009();
std::unique_ptr<Rule> make_gb010();
std::unique_ptr<Rule> make_gb011();
std::unique_ptr<Rule> make_gb012();
std::unique_ptr<Rule> make_gb013();
std::unique_ptr<Rule> make_gb014();
std::unique_ptr<Rule> make_gb015();
std::unique_ptr<Rule> make_gb016();
std::unique_ptr<Rule> make_gb017();
std::unique_ptr<Rule> make_gb018();
std::unique_ptr<Rule> make_gb019();
std::unique_ptr<Rule> make_gb020();
std::unique_ptr<Rule> make_gb021();
std::unique_ptr<Rule> make_gb022();
std::unique_ptr<Rule> make_gb023();
std::unique_ptr<Rule> make_gb024();
std::unique_ptr<Rule> make_gb025();
std::unique_ptr<Rule> make_gb026();
std::unique_ptr<Rule> make_gb027();
std::unique_ptr<Rule> make_gb028();
std::unique_ptr<Rule> make_gb029();
std::unique_ptr<Rule> make_gb030();
std::unique_ptr<Rule> make_intr001();
std::unique_ptr<Rule> make_intr002();
std::unique_ptr<Rule> make_intr003();
std::unique_ptr<Rule> make_intr004();
std::unique_ptr<Rule> make_mem001();
std::unique_ptr<Rule> make_mem002();
std::unique_ptr<Rule> make_mem003();
std::unique_ptr<Rule> make_mem004();
std::unique_ptr<Rule> make_parse001();
std::unique_ptr<Rule> make_parse002();
std::unique_ptr<Rule> make_parse003();
std::unique_ptr<Rule> make_parse004();
std::unique_ptr<Rule> make_parse005();
std::unique_ptr<Rule> make_parse006();
std::unique_ptr<Rule> make_sup001();
std::unique_ptr<Rule> make_sup002();
std::unique_ptr<Rule> make_ver001();
std::unique_ptr<Rule> make_ver002();
std::unique_ptr<Rule> make_ver003();
std::unique_ptr<Rule> make_ver005();
std::unique_ptr<Rule> make_ver008();

namespace {
constexpr std::array kRegistry{
    RegistryEntry{"ABI001", &make_abi001},
    RegistryEntry{"ABI004", &make_abi004},
    RegistryEntry{"ARCH001", &make_arch001},
    RegistryEntry{"ARCH002", &make_arch002},
    RegistryEntry{"ARCH003", &make_arch003},
    RegistryEntry{"ARCH004", &make_arch004},
    RegistryEntry{"ARCH007", &make_arch007},
    RegistryEntry{"ARCH008", &make_arch008},
    RegistryEntry{"ARCH010", &make_arch010},
    RegistryEntry{"ARCH011", &make_arch011},
    RegistryEntry{"ARCH012", &make_arch012},
    RegistryEntry{"BLD001", &make_bld001},
    RegistryEntry{"BLD002", &make_bld002},
    RegistryEntry{"BLD003", &make_bld003},
    RegistryEntry{"BLD004", &make_bld004},
    RegistryEntry{"BLD005", &make_bld005},
    RegistryEntry{"BLD102", &make_bld102},
    RegistryEntry{"BLD104", &make_bld104},
    RegistryEntry{"BLD105", &make_bld105},
    RegistryEntry{"BLD202", &make_bld202},
    RegistryEntry{"BLD204", &make_bld204},
    RegistryEntry{"BLD205", &make_bld205},
    RegistryEntry{"CONF001", &make_conf001},
    RegistryEntry{"CONF002", &make_conf002},
    RegistryEntry{"GB001", &make_gb001},
    RegistryEntry{"GB002", &make_gb002},
    RegistryEntry{"GB003", &make_gb003},
    RegistryEntry{"GB004", &make_gb004},
    RegistryEntry{"GB005", &make_gb005},
    RegistryEntry{"GB006", &make_gb006},
    RegistryEntry{"GB007", &make_gb007},
    RegistryEntry{"GB008", &make_gb008},
    RegistryEntry{"GB009", &make_gb009},
    RegistryEntry{"GB010", &make_gb010},
    RegistryEntry{"GB011", &make_gb011},
    RegistryEntry{"GB012", &make_gb012},
    RegistryEntry{"GB013", &make_gb013},
    RegistryEntry{"GB014", &make_gb014},
    RegistryEntry{"GB015", &make_gb015},
    RegistryEntry{"GB016", &make_gb016},
    RegistryEntry{"GB017", &make_gb017},
    RegistryEntry{"GB018", &make_gb018},
    RegistryEntry{"GB019", &make_gb019},
    RegistryEntry{"GB020", &make_gb020},
    RegistryEntry{"GB021", &make_gb021},
    RegistryEntry{"GB022", &make_gb022},
    RegistryEntry{"GB023", &make_gb023},
    RegistryEntry{"GB024", &make_gb024},
    RegistryEntry{"GB025", &make_gb025},
    RegistryEntry{"GB026", &make_gb026},
    RegistryEntry{"GB027", &make_gb027},
    RegistryEntry{"GB028", &make_gb028},
    RegistryEntry{"GB029", &make_gb029},
    RegistryEntry{"GB030", &make_gb030},
    RegistryEntry{"INTR001", &make_intr001},
    RegistryEntry{"INTR002", &make_intr002},
    RegistryEntry{"INTR003", &make_intr003},
    RegistryEntry{"INTR004", &make_intr004},
    RegistryEntry{"MEM001", &make_mem001},
    RegistryEntry{"MEM002", &make_mem002},
    RegistryEntry{"MEM003", &make_mem003},
    RegistryEntry{"MEM004", &make_mem004},
    RegistryEntry{"PARSE001", &make_parse001},
    RegistryEntry{"PARSE002", &make_parse002},
    RegistryEntry{"PARSE003", &make_parse003},
    RegistryEntry{"PARSE004", &make_parse004},
    RegistryEntry{"PARSE005", &make_parse005},
    RegistryEntry{"PARSE006", &make_parse006},
    RegistryEntry{"SUP001", &make_sup001},
    RegistryEntry{"SUP002", &make_sup002},
    RegistryEntry{"VER001", &make_ver001},
    RegistryEntry{"VER002", &make_ver002},
    RegistryEntry{"VER003", &make_ver003},
    RegistryEntry{"VER005", &make_ver005},
    RegistryEntry{"VER008", &make_ver008},
};
}  // namespace

std::span<const RegistryEntry> registry() { return kRegistry; }

std::string_view doc_for(std::string_view rule_name) {
  for (const auto& d : all_rule_docs())
    if (d.name == rule_name) return d.markdown;
  return {};
}

std::string_view doc_path_for(std::string_view rule_name) {
  for (const auto& d : all_rule_docs())
    if (d.name == rule_name) return d.path;
  return {};
}

}  // namespace cudalint::rules
