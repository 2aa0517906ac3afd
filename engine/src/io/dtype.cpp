#include "ks/io/dtype.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace ks::io {

namespace {

char kindLetter(DtypeKind k) noexcept
{
    switch (k) {
    case DtypeKind::Bool: return 'b';
    case DtypeKind::Int: return 'i';
    case DtypeKind::UInt: return 'u';
    case DtypeKind::Float: return 'f';
    }
    return '?';
}

struct Spelling {
    std::string_view text;
    Dtype dtype;
};

// Names users type. The descr forms ("f4", "<u2") are read by readDescr.
constexpr std::array kSpellings = {
    Spelling{"bool", Dtype::boolean()},
    Spelling{"int8", Dtype::int8()},
    Spelling{"char", Dtype::int8()},
    Spelling{"signed char", Dtype::int8()},
    Spelling{"schar", Dtype::int8()},
    Spelling{"byte", Dtype::int8()},
    Spelling{"uint8", Dtype::uint8()},
    Spelling{"uchar", Dtype::uint8()},
    Spelling{"unsigned char", Dtype::uint8()},
    Spelling{"ubyte", Dtype::uint8()},
    Spelling{"int16", Dtype::int16()},
    Spelling{"short", Dtype::int16()},
    Spelling{"uint16", Dtype::uint16()},
    Spelling{"ushort", Dtype::uint16()},
    Spelling{"unsigned short", Dtype::uint16()},
    Spelling{"float16", Dtype::float16()},
    Spelling{"half", Dtype::float16()},
    Spelling{"int32", Dtype::int32()},
    Spelling{"int", Dtype::int32()},
    Spelling{"intc", Dtype::int32()},
    Spelling{"uint32", Dtype::uint32()},
    Spelling{"uint", Dtype::uint32()},
    Spelling{"unsigned", Dtype::uint32()},
    Spelling{"unsigned int", Dtype::uint32()},
    Spelling{"uintc", Dtype::uint32()},
    Spelling{"float32", Dtype::float32()},
    Spelling{"float", Dtype::float32()},
    Spelling{"single", Dtype::float32()},
    Spelling{"int64", Dtype::int64()},
    Spelling{"long long", Dtype::int64()},
    Spelling{"longlong", Dtype::int64()},
    Spelling{"uint64", Dtype::uint64()},
    Spelling{"unsigned long long", Dtype::uint64()},
    Spelling{"ulonglong", Dtype::uint64()},
    Spelling{"float64", Dtype::float64()},
    Spelling{"double", Dtype::float64()},
};

// The letter-and-size form with an optional byte order: "<f4", ">i2", "|u1", "f8", "?".
std::optional<Dtype> readDescr(std::string_view text, ByteOrder& order)
{
    order = ByteOrder::Little;
    if (!text.empty() && (text[0] == '<' || text[0] == '>' || text[0] == '|' || text[0] == '=')) {
        if (text[0] == '>')
            order = ByteOrder::Big;
        text.remove_prefix(1);
    }
    if (text == "?")
        return Dtype::boolean();
    if (text.size() != 2 || text[1] < '1' || text[1] > '8')
        return std::nullopt;
    const std::uint8_t size = std::uint8_t(text[1] - '0');
    for (const Dtype d : kAllDtypes)
        if (kindLetter(d.kind) == text[0] && d.size == size) {
            if (size == 1) // one byte has no order: numpy writes '|'
                order = ByteOrder::Little;
            return d;
        }
    return std::nullopt;
}

} // namespace

std::string Dtype::descr() const
{
    return std::string(1, size == 1 ? '|' : '<') + kindLetter(kind) + char('0' + size);
}

std::string_view Dtype::name() const noexcept
{
    for (const Spelling& s : kSpellings) // the first spelling of each dtype is numpy's name
        if (s.dtype == *this)
            return s.text;
    return "?";
}

std::optional<Dtype> parseDtype(std::string_view text, ByteOrder* order)
{
    ByteOrder readOrder = ByteOrder::Little;
    std::optional<Dtype> d = readDescr(text, readOrder);
    if (!d) {
        // Case and repeated spaces do not matter in the names ("Unsigned  Int").
        std::string name;
        for (char c : text) {
            if (c == ' ' && (name.empty() || name.back() == ' '))
                continue;
            name += char(std::tolower(static_cast<unsigned char>(c)));
        }
        while (!name.empty() && name.back() == ' ')
            name.pop_back();
        const auto it = std::find_if(kSpellings.begin(), kSpellings.end(),
                                     [&](const Spelling& s) { return s.text == name; });
        if (it != kSpellings.end())
            d = it->dtype;
    }
    if (!d || (readOrder == ByteOrder::Big && !order))
        return std::nullopt;
    if (order)
        *order = readOrder;
    return d;
}

std::string unsupportedDtypeReason(std::string_view descr)
{
    ByteOrder order;
    if (parseDtype(descr, &order))
        return {};
    if (!descr.empty() && (descr[0] == '[' || descr[0] == '(' || descr[0] == '{'))
        return "a structured dtype " + std::string(descr.substr(0, 60)) + " is not supported";
    std::string_view t = descr;
    if (!t.empty() && (t[0] == '<' || t[0] == '>' || t[0] == '|' || t[0] == '='))
        t.remove_prefix(1);
    const std::string quoted = "('" + std::string(descr.substr(0, 60)) + "')";
    if (t.empty())
        return "an empty dtype " + quoted + " is not a numpy dtype";
    int bytes = 0;
    for (char c : t.substr(1)) {
        if (c < '0' || c > '9' || bytes > 1000)
            break;
        bytes = bytes * 10 + (c - '0');
    }
    const std::string bits = std::to_string(8 * bytes);
    switch (t[0]) {
    case 'c': return "complex" + bits + " " + quoted + " is not supported";
    case 'f': return "float" + bits + " " + quoted + " is not supported";
    case 'i': return "int" + bits + " " + quoted + " is not supported";
    case 'u': return "uint" + bits + " " + quoted + " is not supported";
    case 'U': return "strings " + quoted + " are not supported";
    case 'S':
    case 'a': return "byte strings " + quoted + " are not supported";
    case 'O': return "Python objects " + quoted + " are not supported";
    case 'V': return "raw records " + quoted + " are not supported";
    case 'M':
    case 'm': return "dates and times " + quoted + " are not supported";
    default: return quoted.substr(1, quoted.size() - 2) + " is not a numpy dtype";
    }
}

} // namespace ks::io
