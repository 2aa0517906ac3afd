#pragma once
// A small JSON reader that remembers where every value and key came from (line:column), so that a
// malformed project can be reported at its place. nlohmann's DOM has no positions; this reader is
// used only to parse project files (writing goes through nlohmann::ordered_json).
//
// Strict RFC 8259: no comments, no trailing commas; duplicate keys are an error. Numbers keep
// whether they were written as integers.

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ks::project {

struct SourcePos {
    int line = 0;   // 1-based; 0: unknown
    int column = 0; // 1-based, counted in bytes
};

// What went wrong, where. `what()` is "LINE:COL: message".
class JsonError : public std::runtime_error {
public:
    JsonError(SourcePos pos, std::string message);
    SourcePos pos() const noexcept { return m_pos; }
    const std::string& message() const noexcept { return m_message; }

private:
    SourcePos m_pos;
    std::string m_message;
};

class Json {
public:
    enum class Type { Null, Bool, Number, String, Array, Object };
    struct Member;

    Json() = default;
    Type type() const noexcept { return m_type; }
    SourcePos pos() const noexcept { return m_pos; }
    bool isNull() const noexcept { return m_type == Type::Null; }
    bool isBool() const noexcept { return m_type == Type::Bool; }
    bool isNumber() const noexcept { return m_type == Type::Number; }
    bool isInteger() const noexcept { return m_type == Type::Number && m_integer; }
    bool isString() const noexcept { return m_type == Type::String; }
    bool isArray() const noexcept { return m_type == Type::Array; }
    bool isObject() const noexcept { return m_type == Type::Object; }

    // Unchecked accessors: the caller has checked the type.
    bool boolean() const noexcept { return m_bool; }
    double number() const noexcept { return m_number; }
    std::int64_t integer() const noexcept { return m_int; }
    const std::string& string() const noexcept { return m_string; }
    const std::vector<Json>& items() const noexcept { return m_items; }
    const std::vector<Member>& members() const noexcept { return m_members; }
    // The member named `key` of an object, or null.
    const Json* find(std::string_view key) const noexcept;

    // "a string", "a number", "an object", ...
    static std::string_view typeName(Type t) noexcept;

    static Json parse(std::string_view text); // throws JsonError

private:
    friend class JsonParser;
    Type m_type = Type::Null;
    SourcePos m_pos;
    bool m_bool = false;
    bool m_integer = false;
    double m_number = 0;
    std::int64_t m_int = 0;
    std::string m_string;
    std::vector<Json> m_items;
    std::vector<Member> m_members;
};

struct Json::Member {
    std::string key;
    SourcePos keyPos;
    Json value;
};

} // namespace ks::project
