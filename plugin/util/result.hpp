#pragma once

#include <cassert>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include "util/error.hpp"

namespace tazuna::util {

/// A value or an Error; mirrors the part of std::expected<T, Error> we use so it can become an
/// alias once we move to C++23. Construct from a T (success) or an Error (failure).
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : data_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool has_value() const { return data_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { assert(has_value()); return std::get<0>(data_); }
  const T& value() const& { assert(has_value()); return std::get<0>(data_); }
  T&& value() && { assert(has_value()); return std::get<0>(std::move(data_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { assert(!has_value()); return std::get<1>(data_); }
  Error& error() { assert(!has_value()); return std::get<1>(data_); }

  template <class U>
  T value_or(U&& fallback) const& { return has_value() ? value() : T(std::forward<U>(fallback)); }

 private:
  std::variant<T, Error> data_;
};

/// Result<void>: success carries nothing.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)) {}  // NOLINT: implicit by design

  bool has_value() const { return !error_.has_value(); }
  explicit operator bool() const { return has_value(); }
  const Error& error() const { assert(!has_value()); return *error_; }
  Error& error() { assert(!has_value()); return *error_; }

 private:
  std::optional<Error> error_;
};

using Status = Result<void>;

/// Success for Result<void>.
inline Status Ok() { return {}; }

}  // namespace tazuna::util
