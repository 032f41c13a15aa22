#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tazuna::manifest::gotemplate {

/// Node kinds of Go's text/template parse tree (text/template/parse/node.go).
enum class NodeType {
  kText, kAction, kBool, kChain, kCommand, kDot, kField, kIdentifier, kIf, kList, kNil, kNumber, kPipe,
  kRange, kString, kTemplate, kVariable, kWith, kBreak, kContinue, kElse, kEnd,
};

/// A numeric constant with every interpretation Go's parser found for it (NumberNode).
struct Number {
  bool is_int = false, is_uint = false, is_float = false, is_complex = false;
  int64_t i = 0;
  uint64_t u = 0;
  double f = 0;
  double re = 0, im = 0;  ///< is_complex
  std::string text;       ///< as written
};

/// One parse-tree node; only the members of its type are used.
struct Node {
  NodeType type = NodeType::kList;
  size_t pos = 0;                            ///< byte offset in the template text
  std::string text;                          ///< kText bytes, kString value, kIdentifier name, kTemplate name
  std::vector<std::string> ident;            ///< kField and kChain field names, kVariable "$x" then fields
  std::vector<std::unique_ptr<Node>> nodes;  ///< kList items, kCommand operands, kPipe commands
  std::vector<std::unique_ptr<Node>> decl;   ///< kPipe: declared or assigned variables
  bool is_assign = false;                    ///< kPipe: `=` rather than `:=`
  bool b = false;                            ///< kBool
  Number number;                             ///< kNumber
  std::unique_ptr<Node> pipe;  ///< kAction, kIf, kRange, kWith, kTemplate (null: none); kChain: its term
  std::unique_ptr<Node> list, else_list;  ///< kIf, kRange, kWith (else_list may be null)
};

/// Named templates of one parse (the main one under the template's own name), as Go's treeSet.
using TreeSet = std::map<std::string, std::unique_ptr<Node>>;

}  // namespace tazuna::manifest::gotemplate
