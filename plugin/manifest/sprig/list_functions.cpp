// sprig's list functions, each with its must form.
#include "manifest/sprig/function_map.hpp"

#include <cmath>

namespace tazuna::manifest::sprig {
namespace {

// A list function given as both its panicking and its must form (the same result or error here).
void AddListFn(gotemplate::FunctionMap& m, const std::string& name, gotemplate::Signature sig, Body body) {
  std::string must = "must" + name;
  must[4] = static_cast<char>(must[4] - 'a' + 'A');
  m[must] = {sig, body};
  m[name] = {std::move(sig), std::move(body)};
}

}  // namespace

void AddLists(gotemplate::FunctionMap& m) {
  const Body list = [](Args& a) -> Result<GoValue> { return GoValue::Slice(a); };
  m["list"] = {Sig({}, kAny), list};
  m["tuple"] = {Sig({}, kAny), list};
  const Body push = [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "push");
    if (!l) return l.error();
    GoSlice out = **l;
    out.push_back(a[1]);
    return GoValue::Slice(std::move(out));
  };
  AddListFn(m, "append", Sig({kAny, kAny}), push);
  AddListFn(m, "push", Sig({kAny, kAny}), push);
  AddListFn(m, "prepend", Sig({kAny, kAny}), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "prepend");
    if (!l) return l.error();
    GoSlice out{a[1]};
    out.insert(out.end(), (*l)->begin(), (*l)->end());
    return GoValue::Slice(std::move(out));
  });
  AddListFn(m, "first", Sig({kAny}), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "find first");
    if (!l) return l.error();
    return (*l)->empty() ? GoValue::Nil() : (*l)->front();
  });
  AddListFn(m, "last", Sig({kAny}), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "find last");
    if (!l) return l.error();
    return (*l)->empty() ? GoValue::Nil() : (*l)->back();
  });
  AddListFn(m, "rest", Sig({kAny}), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "find rest");
    if (!l) return l.error();
    if ((*l)->empty()) return GoValue::Slice({});
    return GoValue::Slice(GoSlice((*l)->begin() + 1, (*l)->end()));
  });
  AddListFn(m, "initial", Sig({kAny}), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "find initial");
    if (!l) return l.error();
    if ((*l)->empty()) return GoValue::Slice({});
    return GoValue::Slice(GoSlice((*l)->begin(), (*l)->end() - 1));
  });
  AddListFn(m, "reverse", Sig({kAny}), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "find reverse");
    if (!l) return l.error();
    return GoValue::Slice(GoSlice((*l)->rbegin(), (*l)->rend()));
  });
  AddListFn(m, "compact", Sig({kAny}), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "compact");
    if (!l) return l.error();
    GoSlice out;
    for (const GoValue& v : **l) {
      if (!Empty(v)) out.push_back(v);
    }
    return GoValue::Slice(std::move(out));
  });
  AddListFn(m, "uniq", Sig({kAny}), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "find uniq");
    if (!l) return l.error();
    GoSlice out;
    for (const GoValue& v : **l) {
      if (!InList(out, v)) out.push_back(v);
    }
    return GoValue::Slice(std::move(out));
  });
  AddListFn(m, "without", Sig({kAny}, kAny), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "find without");
    if (!l) return l.error();
    const GoSlice omit(a.begin() + 1, a.end());
    GoSlice out;
    for (const GoValue& v : **l) {
      if (!InList(omit, v)) out.push_back(v);
    }
    return GoValue::Slice(std::move(out));
  });
  AddListFn(m, "has", Sig({kAny, kAny}), [](Args& a) -> Result<GoValue> {
    if (a[1].kind == GoKind::kNil) return GoValue::Bool(false);
    auto l = SliceArg(a[1], "find has");
    if (!l) return l.error();
    return GoValue::Bool(InList(**l, a[0]));
  });
  AddListFn(m, "concat", Sig({}, kAny), [](Args& a) -> Result<GoValue> {
    GoSlice out;
    for (const GoValue& v : a) {
      if (v.kind != GoKind::kSlice) {
        if (v.kind == GoKind::kNil) return Fail("runtime error: invalid memory address or nil pointer dereference");
        return Fail("Cannot concat type " + (v.kind == GoKind::kMap ? std::string("map") : v.TypeName()) + " as list");
      }
      out.insert(out.end(), v.slice->begin(), v.slice->end());
    }
    return GoValue::Slice(std::move(out));
  });
  m.erase("mustConcat");
  AddListFn(m, "slice", Sig({kAny}, kAny), [](Args& a) -> Result<GoValue> {
    if (a[0].kind != GoKind::kSlice) {
      if (a[0].kind == GoKind::kNil) return Fail("runtime error: invalid memory address or nil pointer dereference");
      return Fail("list should be type of slice or array but " + (a[0].kind == GoKind::kMap ? std::string("map") : a[0].TypeName()));
    }
    const GoSlice& l = *a[0].slice;
    if (l.empty()) return GoValue::Nil();
    const auto len = static_cast<int64_t>(l.size());
    const int64_t start = a.size() > 1 ? ToInt64(a[1]) : 0;
    const int64_t end = a.size() > 2 ? ToInt64(a[2]) : len;
    if (start < 0 || end > len || start > end) return Fail("reflect: slice index out of range");
    return GoValue::Slice(GoSlice(l.begin() + start, l.begin() + end));
  });
  AddListFn(m, "chunk", Sig({kAny, kAny}), [](Args& a) -> Result<GoValue> {
    auto size = IntArg(a[0]);
    if (!size) return size.error();
    auto l = SliceArg(a[1], "chunk");
    if (!l) return l.error();
    const auto len = static_cast<int64_t>((*l)->size());
    const double chunks = std::floor(static_cast<double>(len - 1) / static_cast<double>(*size)) + 1;
    if (!std::isfinite(chunks) || chunks < 0) return Fail("runtime error: makeslice: len out of range");
    const auto cs = static_cast<int64_t>(chunks);
    GoSlice out;
    for (int64_t i = 0; i < cs; ++i) {
      int64_t clen = *size;
      if (i == cs - 1) {
        clen = static_cast<int64_t>(std::floor(std::fmod(static_cast<double>(len), static_cast<double>(*size))));
        if (clen == 0) clen = *size;
      }
      if (clen < 0) return Fail("runtime error: makeslice: len out of range");
      GoSlice part;
      for (int64_t j = 0; j < clen; ++j) {
        const int64_t ix = i * *size + j;
        if (ix < 0 || ix >= len) return Fail("reflect: slice index out of range");
        part.push_back((**l)[static_cast<size_t>(ix)]);
      }
      out.push_back(GoValue::Slice(std::move(part)));
    }
    return GoValue::Slice(std::move(out));
  });
}

}  // namespace tazuna::manifest::sprig
