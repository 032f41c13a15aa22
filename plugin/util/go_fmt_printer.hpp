#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/go_value.hpp"

namespace tazuna::util {

/// The state of one fmt call (Go's pp and fmt structs): flags of the current verb and the output.
/// Internal to go_fmt*.cpp.
class GoPrinter {
 public:
  std::string buf;

  void DoPrint(const std::vector<GoValue>& args);
  void DoPrintln(const std::vector<GoValue>& args);
  void DoPrintf(std::string_view format, const std::vector<GoValue>& args);

 private:
  struct Flags {
    bool plus = false, minus = false, sharp = false, space = false, zero = false;
    bool plus_v = false, sharp_v = false;
    bool wid_present = false, prec_present = false;
    int wid = 0, prec = 0;
  };

  // print.go: what a verb does with a value.
  void PrintArg(const GoValue& arg, char32_t verb);
  void PrintValue(const GoValue& value, char32_t verb, int depth);
  void BadVerb(char32_t verb);
  void FmtBool(bool v, char32_t verb);
  void FmtInteger(uint64_t v, bool is_signed, char32_t verb);
  void FmtFloat(double v, char32_t verb);
  void FmtComplex(double re, double im, char32_t verb);
  void FmtString(const std::string& v, char32_t verb);
  void PrintStruct(const GoValue& value, char32_t verb, int depth);
  void PrintContainer(const GoValue& value, char32_t verb, int depth);
  size_t ParseVerbFlags(std::string_view format, size_t i);
  size_t ParseWidthAndPrecision(std::string_view format, size_t i, const std::vector<GoValue>& args);
  size_t ArgNumber(std::string_view format, size_t i, size_t num_args);
  void WriteExtra(const std::vector<GoValue>& args);

  // format.go: padding and number/string encodings under the current flags.
  void WritePadding(int n);
  void Pad(std::string_view text);
  void FmtBoolean(bool v);
  void FmtUnicode(uint64_t u);
  void FmtIntegerBase(uint64_t u, int base, bool is_signed, char32_t verb, bool upper);
  void FmtS(std::string_view s);
  void FmtSbx(std::string_view s, bool upper);
  void FmtQ(std::string_view s);
  void FmtC(uint64_t c);
  void FmtQc(uint64_t c);
  void FmtFloatRaw(double v, char verb, int prec);
  std::string_view TruncateString(std::string_view s) const;

  Flags f_;
  const GoValue* arg_ = nullptr;    ///< pp.arg: the operand being printed (null: none)
  const GoValue* value_ = nullptr;  ///< pp.value: the value printValue is at (null: none)
  size_t arg_num_ = 0;
  bool reordered_ = false;
  bool good_arg_num_ = true;
  bool after_index_ = false;
};

}  // namespace tazuna::util
