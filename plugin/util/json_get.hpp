#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tazuna::util {

// Readers for JSON that came from outside (API server answers, state ConfigMaps, rendered objects).
// nlohmann's value()/get<>()/at() throw on a missing key or a wrong type, and a throw inside an apply
// worker ends the process; these never throw: a value of the wrong type reads as absent.

/// `object[key]` when `object` is an object that has `key`, else a null value (never throws).
const nlohmann::json& JsonField(const nlohmann::json& object, std::string_view key);
/// `object[key]` when it is a JSON object, else an empty object.
const nlohmann::json& JsonObject(const nlohmann::json& object, std::string_view key);
/// `object[key]` when it is a JSON array, else an empty array.
const nlohmann::json& JsonArray(const nlohmann::json& object, std::string_view key);
/// `object[key]` when it is a string, else "" (or `fallback`).
std::string JsonString(const nlohmann::json& object, std::string_view key, std::string_view fallback = "");
/// `object[key]` when it is an integer that fits int64, else `fallback`.
int64_t JsonInt(const nlohmann::json& object, std::string_view key, int64_t fallback = 0);
/// `object[key]` when it is a boolean, else `fallback`.
bool JsonBool(const nlohmann::json& object, std::string_view key, bool fallback = false);
/// `parent[key]` as an object to write into: a `parent` or member of another shape (a server answer
/// that is not what it should be) is replaced by an empty object first, so indexing never throws.
nlohmann::json& WritableObject(nlohmann::json& parent, std::string_view key);
/// Whether JSON text nests objects and arrays deeper than `limit` levels (strings are skipped; the text
/// need not be valid). Serialising, comparing or walking such a value recurses once per level, so
/// text from outside is refused past a limit instead of overflowing the stack.
bool NestsDeeperThan(std::string_view text, size_t limit);
/// The nesting depth no Kubernetes object comes near (CRD schemas nest a few dozen levels).
inline constexpr size_t kMaxJsonDepth = 1000;

/// metadata.<field> of an object when it is a string, else "" (name, namespace, uid, resourceVersion).
std::string MetaString(const nlohmann::json& object, std::string_view field);

}  // namespace tazuna::util
