#pragma once

// The functions a helmfile template sees in the Go tazuna: sprig v3's TxtFuncMap without env and
// expandenv (a helmfile must not read the environment behind helmfile.vars' back), plus helm's toYaml,
// fromYaml, toJson and fromJson as the Go tool defines them. Pure: no I/O, no clock, no randomness; the
// sprig functions whose result depends on those are not here (a template calling one is rendered by the
// helmfile binary, or refused without it).

#include <set>
#include <string>

#include "manifest/gotemplate/functions.hpp"

namespace tazuna::manifest {

/// The functions above, each as Go calls it (same results, same errors).
const gotemplate::FunctionMap& SprigFunctions();

/// The functions of sprig's TxtFuncMap (and the Go tool's four) that SprigFunctions leaves out because
/// their result depends on the clock, randomness or the network; env and expandenv are not among them.
const std::set<std::string>& SprigFunctionsLeftOut();

}  // namespace tazuna::manifest
