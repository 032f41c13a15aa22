#pragma once

#include <set>
#include <string>

#include "manifest/gotemplate/node.hpp"
#include "manifest/gotemplate/source.hpp"
#include "util/result.hpp"

namespace tazuna::manifest::gotemplate {

/// Most nested parentheses and control structures (Go allows 10,000 parentheses and any number of
/// controls; this bound keeps the recursion of parser and executor on the stack: the ASan build's
/// 8 MiB stack overflowed near 850 nested parentheses).
inline constexpr int kMaxNesting = 500;

/// Parses `source.text` as Go's template.New(name).Parse(text) does: the main template goes into the
/// result under `name`, `{{define}}` and `{{block}}` bodies under theirs (a second non-empty
/// definition of a name is an error, an empty one never replaces a non-empty one). `functions` are
/// the callable names (builtins included); calling any other is an error, as are undefined variables,
/// `{{break}}`/`{{continue}}` outside `{{range}}` and every syntax error Go's parser reports.
/// Errors are kInput TemplateError(source, position, message).
util::Result<TreeSet> Parse(const Source& source, const std::string& name, const std::set<std::string>& functions);

}  // namespace tazuna::manifest::gotemplate
