#include "targets.hpp"

#include "ks/array/algorithm_source.hpp"
#include "ks/array/dtype.hpp"
#include "ks/array/elementwise_kernel.hpp"
#include "ks/core/error.hpp"
#include "ks/io/data_source.hpp"
#include "ks/io/image.hpp"
#include "ks/io/npy.hpp"
#include "ks/pipeline/check.hpp"
#include "ks/pipeline/infer.hpp"
#include "ks/project/json.hpp"
#include "ks/project/project.hpp"
#include "ks/project/recovery_store.hpp"
#include "ks/rtc/cache.hpp"
#include "ks/rtc/diagnostics.hpp"
#include "ks/syntax/highlight.hpp"
#include "ks/rtc/include_scanner.hpp"
#include "ks/syntax/kernel_signature.hpp"
#include "ks/syntax/type_layout.hpp"

#include <unistd.h>

#include <filesystem>
#include <iterator>
#include <fstream>

namespace ks::fuzz {

namespace fs = std::filesystem;

namespace {

void require(bool holds, const std::string& promise)
{
    if (!holds)
        throw Violation(promise);
}

// Splits the input at '\x1f' (ASCII unit separator) into `count` fields; missing fields are empty.
std::vector<std::string> fields(std::string_view input, std::size_t count)
{
    std::vector<std::string> out(count);
    std::size_t field = 0;
    for (char c : input) {
        if (c == '\x1f' && field + 1 < count) {
            ++field;
            continue;
        }
        out[field] += c;
    }
    return out;
}

// A folder of this process with a few include files that include each other (a cycle, a missing
// file, a nested folder), made once: what the include scanner and the project checks resolve
// against. Removed at exit.
const fs::path& fixtureDir()
{
    static const fs::path dir = [] {
        const fs::path d = fs::temp_directory_path() / ("ks-fuzz-" + std::to_string(::getpid()));
        fs::create_directories(d / "inc" / "deeper");
        auto write = [&](const fs::path& p, std::string_view text) { std::ofstream(d / p) << text; };
        write("inc/a.cuh", "#pragma once\n#include \"b.cuh\"\n__device__ float a(float x) { return x; }\n");
        write("inc/b.cuh", "#include \"a.cuh\"\n#include \"deeper/c.cuh\"\n#include <cuda_fp16.h>\n");
        write("inc/deeper/c.cuh", "#include \"../a.cuh\"\n#include \"missing.cuh\"\n");
        write("kernel.cu", "#include \"inc/a.cuh\"\n"
                           "extern \"C\" __global__ void fill(float* out, int n, float v)\n"
                           "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = v; }\n"
                           "__global__ void step(const float4* __restrict__ in, float4* out, cudaSurfaceObject_t s) {}\n");
        static struct Remover {
            fs::path dir;
            ~Remover()
            {
                std::error_code ec;
                fs::remove_all(dir, ec);
            }
        } remover{d};
        return d;
    }();
    return dir;
}

// Project files: the reader (JSON with positions, every field, names, referenced files) and every
// check of --validate short of compiling; an accepted project saves to text that reads back to the
// same project (serialize -> parse -> serialize is a fixed point). The input is read as a project
// file in the source tree's projects/ folder, so that the shipped projects' relative paths
// (../kernels/...) resolve; nothing is written.
void project(std::string_view input)
{
    const fs::path file = fs::path(KS_FUZZ_SOURCE_DIR) / "projects" / "fuzz-input.json";
    const project::LoadResult loaded = project::parseProject(input, file);
    if (!loaded.project) {
        require(!loaded.problems.empty(), "a project that does not load says why");
        return;
    }
    const project::Project& p = *loaded.project;
    rtc::CompileCache cache; // memory only; nothing is compiled
    pipeline::CheckOptions options;
    options.compileKernels = false;
    (void)pipeline::checkProject(p, cache, options);

    const std::string saved = project::serializeProject(p, file);
    const project::LoadResult again = project::parseProject(saved, file);
    require(again.ok(), "a saved project reads back: " +
                            (again.problems.empty() ? std::string("no project") : again.problems.front().message));
    require(project::serializeProject(*again.project, file) == saved, "saving a read-back project changes nothing");
}

// The JSON reader alone (strict RFC 8259, positions, a depth limit).
void json(std::string_view input)
{
    try {
        const project::Json j = project::Json::parse(input);
        (void)j;
    } catch (const project::JsonError& e) {
        require(e.pos().line >= 1 && e.pos().column >= 1, "a JSON error has a position");
    }
}

// NVRTC logs: the diagnostics parser, the likely-cause marking against a source and the formatter.
void diagnostics(std::string_view input)
{
    const auto parts = fields(input, 2);
    std::vector<rtc::Diagnostic> ds = rtc::parseLog(parts[0], "kernel.cu");
    rtc::markLikelyCauses(ds, parts[1], "kernel.cu");
    for (const rtc::Diagnostic& d : ds) {
        require(d.line >= 0 && d.column >= 0, "a diagnostic's line and column are not negative");
        (void)rtc::formatDiagnostic(d);
    }
}

// #include directives: the directive reader and the scanner that follows user includes on disk
// (include paths, cycles, missing and unreadable files, absolute paths such as /dev/zero).
void includes(std::string_view input)
{
    (void)rtc::findIncludeDirectives(input);
    const fs::path& dir = fixtureDir();
    const rtc::IncludeScan scan = rtc::scanIncludes(input, dir / "main.cu", {(dir / "inc").string()},
                                                    {"/usr/local/cuda/include"});
    Sha256 hash;
    scan.hashInto(hash);
}

// Kernel sources -> signatures (ks/syntax/kernel_signature.hpp): byte ranges inside the source and in
// order, lines that agree with them, type layouts that are sound, and the binding checks' words.
void signatures(std::string_view input)
{
    for (const syntax::KernelSignature& k : syntax::findKernels(input)) {
        (void)k.display();
        require(k.nameToken.begin < k.nameToken.end && k.nameToken.end <= input.size() &&
                    input.substr(k.nameToken.begin, k.nameToken.end - k.nameToken.begin) == k.name &&
                    k.line == syntax::lineOf(input, k.nameToken.begin),
                "a kernel's name token spells its name on its line");
        require(k.globalKeyword.end <= k.nameToken.begin && k.nameToken.end <= k.bodyBegin &&
                    k.bodyBegin < input.size() && input[k.bodyBegin] == '{',
                "__global__, the name and the body's brace come in order");
        for (const syntax::KernelParam& p : k.params) {
            require(p.range.begin < p.range.end && p.range.end <= k.bodyBegin &&
                        p.line == syntax::lineOf(input, p.range.begin),
                    "a parameter's range lies before the body, on its line");
            if (const auto layout = syntax::knownTypeLayout(p.type))
                require(layout->size > 0 && layout->align > 0 && (layout->align & (layout->align - 1)) == 0 &&
                            layout->size % layout->align == 0,
                        "a known type's layout is a positive size, a multiple of a power-of-two alignment");
            (void)pipeline::describeParam(p);
            if (p.record) {
                const syntax::TypeLayout l = p.record->layout;
                require(l.align > 0 && (l.align & (l.align - 1)) == 0 && l.size > 0 && l.size % l.align == 0,
                        "a record's size is a positive multiple of its power-of-two alignment");
                for (const syntax::RecordField& f : p.record->fields)
                    require(f.element.align > 0 && f.offset % f.element.align == 0 &&
                                f.offset + f.element.size * f.count <= l.size,
                            "a record's members lie inside it, each at a multiple of its alignment");
            }
            require(!(p.record && !p.recordProblem.empty()), "a record is laid out or says why not, not both");
        }
        // The project inferred from the kernel (--kernel FILE.cu:NAME): either one that serializes
        // and reads back as it was, or problems; never both, never neither.
        pipeline::InferOptions o;
        o.kernel = k.qualifiedName() + (k.isTemplate() ? "<float>" : "");
        const pipeline::Inference inf = pipeline::inferProject("fuzz.cu", input, o);
        require(inf.project.has_value() == inf.problems.empty(), "an inference gives a project or problems");
        if (inf.ok()) {
            require(inf.bindings.size() == k.params.size(), "every parameter gets a binding");
            const std::string text = project::serializeProject(*inf.project, "/fuzz/p.json");
            const project::LoadResult back = project::parseProject(text, "/fuzz/p.json");
            require(!back.project || project::serializeProject(*back.project, "/fuzz/p.json") == text,
                    "an inferred project reads back as it was written");
        }
    }
}

// Kernel source as the editor colours it (ks/syntax/highlight.hpp): every line's spans cover it exactly,
// and the cache's incremental result after an edit equals a fresh lex. The input is the text; its
// first two bytes also pick an edit (where, and how many bytes of the input's end to insert).
void highlight(std::string_view input)
{
    auto check = [](const syntax::SyntaxCache& c, std::string_view text) {
        std::size_t line = 0, begin = 0;
        for (;; ++line) {
            const std::size_t nl = text.find('\n', begin);
            const std::size_t len = (nl == std::string_view::npos ? text.size() : nl) - begin;
            std::uint32_t at = 0;
            for (const syntax::SyntaxSpan& sp : c.spans(line)) {
                require(sp.begin == at && sp.end > sp.begin, "a line's spans are adjacent and not empty");
                at = sp.end;
            }
            require(at == len, "a line's spans cover it exactly");
            if (nl == std::string_view::npos)
                break;
            begin = nl + 1;
        }
        require(c.lineCount() == line + 1, "one entry per line");
    };
    syntax::SyntaxCache cache;
    cache.update(input);
    check(cache, input);
    if (input.size() < 2)
        return;
    const std::size_t at = std::size_t(static_cast<unsigned char>(input[0])) * input.size() / 256;
    const std::size_t n = std::min(input.size(), std::size_t(static_cast<unsigned char>(input[1])) % 16);
    std::string edited(input);
    edited.insert(at, input.substr(input.size() - n));
    if (input[1] & 0x40) // and a deletion
        edited.erase(edited.size() / 2, std::size_t(static_cast<unsigned char>(input[0])) % 8);
    cache.update(edited);
    check(cache, edited);
    syntax::SyntaxCache fresh;
    fresh.update(edited);
    for (std::size_t i = 0; i < fresh.lineCount(); ++i)
        require(cache.spans(i) == fresh.spans(i), "the incremental spans equal a fresh lex");
}

// PyCUDA-style specs up to their generated source: ElementwiseKernel (argument string, operation,
// name, preamble, loop_prep, after_loop), ReductionKernel and scan specs, dtype names.
// The first byte picks which; the rest is fields separated by '\x1f'.
void arraySpecs(std::string_view input)
{
    if (input.empty())
        return;
    const char which = input[0];
    input.remove_prefix(1);
    try {
        switch (which % 4) {
        case 0: {
            auto f = fields(input, 6);
            array::ElementwiseKernel k(f[0], f[1], f[2].empty() ? "kernel" : f[2], f[3], f[4], f[5]);
            require(!k.source().empty(), "an elementwise kernel that constructs has source");
            break;
        }
        case 1: {
            auto f = fields(input, 7);
            array::ReductionSpec spec;
            spec.outType = f[0];
            spec.neutral = f[1];
            spec.reduceExpr = f[2];
            spec.mapExpr = f[3];
            spec.arguments = f[4];
            spec.preamble = f[5];
            if (!f[6].empty())
                spec.name = f[6];
            const array::GeneratedReduction g = array::generateReduction(spec);
            require(!g.source.empty() && !g.kernel.empty(), "a generated reduction has source and a kernel");
            require(g.vectorizable == !g.vectorKernel.empty(), "a vector kernel exactly when vectorizable");
            break;
        }
        case 2: {
            auto f = fields(input, 5);
            array::ScanSpec spec;
            spec.type = f[0];
            spec.scanExpr = f[1];
            spec.neutral = f[2];
            spec.exclusive = !f[3].empty() && f[3][0] == '1';
            spec.preamble = f[4];
            const array::GeneratedScan g = array::generateScan(spec);
            require(!g.source.empty() && !g.kernel.empty(), "a generated scan has source and a kernel");
            break;
        }
        default:
            if (const auto t = array::parseDType(input))
                require(array::parseDType(array::dtypeName(*t)) == t, "a dtype's name reads back as that dtype");
            (void)array::parseKernelArguments(input);
            break;
        }
    } catch (const Error&) {
        // a malformed spec: the parser's answer
    }
}

// Recovery files (unsaved edits kept across a crash): parse; what parses formats back to itself.
void recovery(std::string_view input)
{
    const auto entry = project::RecoveryStore::parse(input);
    if (!entry)
        return;
    // format() normalises the path, so the fixed point is the formatted text.
    const std::string again = project::RecoveryStore::format(entry->original, entry->text, entry->savedAtUnix);
    const auto reread = project::RecoveryStore::parse(again);
    require(reread && reread->text == entry->text && reread->savedAtUnix == entry->savedAtUnix &&
                project::RecoveryStore::format(reread->original, reread->text, reread->savedAtUnix) == again,
            "a formatted recovery entry parses back to itself");
}

// Compile cache entries on disk: a corrupt or hostile file is refused, never loaded as another
// build. Whatever decodes is exactly what encoding that result for that key writes, so an accepted
// entry can only be one this version wrote for this key.
void cacheEntry(std::string_view input)
{
    static const std::string key(64, 'a');
    std::string why;
    if (const auto result = rtc::decodeEntry(input, key, &why))
        require(rtc::encodeEntry(key, *result) == input, "an accepted cache entry is the one written for its key");
    else
        require(!why.empty(), "a refused cache entry says why");
    if (const auto payload = rtc::decodeResult(input))
        require(rtc::encodeResult(*payload) == input, "a decoded payload encodes back to the same bytes");
}

// Data files and specs (ks/io): the bytes as an .npy file, as an image file (header probe, then the
// decoder, which stb_image runs), and as a data spec. Each gives a ks::Error or an array whose bytes
// are exactly its shape times its element size; a spec that parses formats back to itself, and a
// generated one makes an array of the shape asked for.
void data(std::string_view input)
{
    const fs::path& dir = fixtureDir();
    auto promiseSize = [](const io::HostArray& a, const char* reader) {
        const auto expected = io::byteCount(a.dtype, a.shape);
        require(expected && a.bytes.size() == *expected,
                std::string(reader) + " returns exactly product(shape) * itemsize bytes");
    };
    // Plain writes: an fsync per input (writeFileAtomically) would halve the fuzzer's rate.
    auto writeInput = [&](const fs::path& p) { std::ofstream(p, std::ios::binary | std::ios::trunc) << input; };
    const fs::path npy = dir / "data.npy";
    writeInput(npy);
    try {
        promiseSize(io::readNpy(npy), "readNpy");
    } catch (const Error&) {
    }
    const fs::path image = dir / "data.img";
    writeInput(image);
    try {
        const io::ImageInfo info = io::probeImage(image);
        io::ImageOptions options;
        options.maxBytes = std::uint64_t(1) << 22; // the fuzzer's memory limit, not the decoder's
        options.channels = input.size() % 5;
        options.flipVertically = input.size() % 2 == 1;
        const io::HostArray a = io::readImage(image, options);
        promiseSize(a, "readImage");
        require(a.shape.size() >= 2 && a.shape[0] == info.height && a.shape[1] == info.width && a.dtype == info.dtype,
                "an image decodes to the size and type its header probe said");
    } catch (const Error&) {
    }
    try {
        const io::DataSpec spec = io::parseDataSpec(input);
        const std::string text = io::formatDataSpec(spec);
        require(io::formatDataSpec(io::parseDataSpec(text)) == text, "a formatted data spec reads back to itself");
        if (spec.kind != io::DataKind::Npy && spec.kind != io::DataKind::Image && spec.kind != io::DataKind::Raw) {
            io::LoadOptions options;
            options.dtype = io::kAllDtypes[input.size() % std::size(io::kAllDtypes)];
            options.shape = {3, std::int64_t(input.size() % 7)};
            const io::HostArray a = io::loadData(spec, options);
            promiseSize(a, "loadData");
            require(a.shape == options.shape && a.dtype == options.dtype, "generated data has the type and shape asked");
        }
    } catch (const Error&) {
    }
    // --arg NAME=bytes:HEX and NAME={"member": ...} for structs.
    try {
        const std::vector<std::uint8_t> bytes = project::parseHexBytes(input);
        require(project::parseHexBytes(project::formatHexBytes(bytes)) == bytes, "formatted bytes read back to themselves");
    } catch (const Error&) {
    }
    try {
        for (const project::RecordValue& v : project::parseRecordValues(input))
            (void)v.values.size();
    } catch (const Error&) {
    }
}

} // namespace

const std::vector<Target>& targets()
{
    static const std::vector<Target> all = {
        {"project", project, "project files: parseProject, --validate's checks short of compiling, save round trip"},
        {"json", json, "the positioned JSON reader under the project reader"},
        {"diagnostics", diagnostics, "NVRTC logs: parseLog, markLikelyCauses, formatDiagnostic"},
        {"includes", includes, "#include directives and the include scanner on disk"},
        {"signatures", signatures, "kernel source -> signatures and inferred projects: syntax::findKernels, knownTypeLayout, pipeline::inferProject"},
        {"highlight", highlight, "the editor's CUDA C++ lexer and its incremental cache: syntax::SyntaxCache"},
        {"array_specs", arraySpecs, "ElementwiseKernel, reduction and scan specs up to generated source"},
        {"recovery", recovery, "recovery files: RecoveryStore::parse/format"},
        {"cache_entry", cacheEntry, "compile cache disk entries: decodeEntry, decodeResult"},
        {"data", data, "data files and specs: readNpy, probeImage + readImage (stb_image), parseDataSpec, parseHexBytes, parseRecordValues"},
    };
    return all;
}

const Target* findTarget(std::string_view name)
{
    for (const Target& t : targets())
        if (name == t.name)
            return &t;
    return nullptr;
}

} // namespace ks::fuzz
