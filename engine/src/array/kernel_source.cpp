#include "ks/array/kernel_source.hpp"

#include "ks/array/dims.hpp"
#include "ks/core/error.hpp"

#include <algorithm>
#include <sstream>

namespace ks::array {

namespace {

std::string typeOf(DType t)
{
    return std::string(cudaTypeName(t));
}

// The element function every kernel calls: the body in its own scope with named values.
void emitOp(std::ostringstream& out, const MapSpec& spec)
{
    out << "__device__ __forceinline__ void ks_map_op(long long i, long long n";
    for (std::size_t k = 0; k < spec.outputs.size(); ++k)
        out << ", " << typeOf(spec.outputs[k]) << "& out" << k;
    for (std::size_t k = 0; k < spec.inputs.size(); ++k)
        out << ", const " << typeOf(spec.inputs[k].dtype) << " in" << k;
    out << ")\n{\n    (void)i;\n    (void)n;\n" << spec.body << "\n}\n\n";
}

// The preamble and the element function; the prelude goes before them once the whole kernel is
// known (withPrelude).
void emitHeader(std::ostringstream& out, const MapSpec& spec)
{
    if (!spec.preamble.empty())
        out << spec.preamble << "\n";
    emitOp(out, spec);
}

// "(T0* o0, const T1* p0, T2 s1, " for the contiguous kernels.
std::string contiguousParams(const MapSpec& spec)
{
    std::ostringstream p;
    for (std::size_t k = 0; k < spec.outputs.size(); ++k)
        p << typeOf(spec.outputs[k]) << "* o" << k << ", ";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        const std::string t = typeOf(spec.inputs[k].dtype);
        if (spec.inputs[k].scalar)
            p << t << " s" << k << ", ";
        else
            p << "const " << t << "* p" << k << ", ";
    }
    return p.str();
}

// "(char* o0, const char* p0, T1 s1, " for the kernels that address elements by byte strides.
std::string byteParams(const MapSpec& spec)
{
    std::ostringstream p;
    for (std::size_t k = 0; k < spec.outputs.size(); ++k)
        p << "char* o" << k << ", ";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        if (spec.inputs[k].scalar)
            p << typeOf(spec.inputs[k].dtype) << " s" << k << ", ";
        else
            p << "const char* p" << k << ", ";
    }
    return p.str();
}

// "ks_map_op(i, n, o0[i], p0[i], s1);": element i of contiguous operands.
std::string elementCall(const MapSpec& spec)
{
    std::ostringstream out;
    out << "ks_map_op(i, n";
    for (std::size_t k = 0; k < spec.outputs.size(); ++k)
        out << ", ks_at(o" << k << ", i)";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k)
        out << (spec.inputs[k].scalar ? ", s" : ", p") << k << (spec.inputs[k].scalar ? "" : "[i]");
    out << ");";
    return out.str();
}

std::string withPrelude(const MapSpec& spec, const std::string& kernels)
{
    return "// generated map kernel: " + spec.name + "\n" + preludeFor(kernels) + "\n" + kernels;
}

constexpr const char* kThreadIndex = "(long long)blockIdx.x * blockDim.x + threadIdx.x";
constexpr const char* kThreadCount = "(long long)gridDim.x * blockDim.x";

} // namespace

int mapVectorWidth(const MapSpec& spec)
{
    std::size_t widest = 1;
    for (DType t : spec.outputs)
        widest = std::max(widest, itemSize(t));
    for (const MapOperand& in : spec.inputs)
        if (!in.scalar)
            widest = std::max(widest, itemSize(in.dtype));
    return int(std::max<std::size_t>(1, 16 / widest));
}

std::string mapContiguousSource(const MapSpec& spec)
{
    const int v = mapVectorWidth(spec);
    std::ostringstream out;
    emitHeader(out, spec);
    const std::string params = contiguousParams(spec);

    // Vector kernel: V elements per access, then the tail of n % V elements element by element.
    out << "extern \"C\" __global__ void __launch_bounds__(256) " << kMapVectorKernel << "(" << params
        << "long long n)\n{\n";
    out << "    constexpr int V = " << v << ";\n";
    out << "    const long long nv = n / V;\n";
    out << "    const long long stride = " << kThreadCount << ";\n";
    out << "    for (long long j = " << kThreadIndex << "; j < nv; j += stride) {\n";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k)
        if (!spec.inputs[k].scalar)
            out << "        const ks::Vec<" << typeOf(spec.inputs[k].dtype) << ", V> a" << k
                << " = ks_cast<const ks::Vec<" << typeOf(spec.inputs[k].dtype) << ", V>>(p" << k << ")[j];\n";
    for (std::size_t k = 0; k < spec.outputs.size(); ++k)
        out << "        ks::Vec<" << typeOf(spec.outputs[k]) << ", V> r" << k << ";\n";
    out << "#pragma unroll\n        for (int e = 0; e < V; ++e)\n            ks_map_op(j * V + e, n";
    for (std::size_t k = 0; k < spec.outputs.size(); ++k)
        out << ", r" << k << ".v[e]";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k)
        out << (spec.inputs[k].scalar ? ", s" : ", a") << k << (spec.inputs[k].scalar ? "" : ".v[e]");
    out << ");\n";
    for (std::size_t k = 0; k < spec.outputs.size(); ++k)
        out << "        ks_cast<ks::Vec<" << typeOf(spec.outputs[k]) << ", V>>(o" << k << ")[j] = r" << k << ";\n";
    out << "    }\n";
    out << "    for (long long i = nv * V + " << kThreadIndex << "; i < n; i += stride)\n";
    out << "        " << elementCall(spec) << "\n}\n\n";

    // Scalar kernel: any alignment.
    out << "extern \"C\" __global__ void __launch_bounds__(256) " << kMapScalarKernel << "(" << params
        << "long long n)\n{\n";
    out << "    const long long stride = " << kThreadCount << ";\n";
    out << "    for (long long i = " << kThreadIndex << "; i < n; i += stride)\n";
    out << "        " << elementCall(spec) << "\n}\n";
    return withPrelude(spec, out.str());
}

std::string mapStridedSource(const MapSpec& spec, int rank, bool index64)
{
    if (rank < 1 || rank > kMaxDims)
        throwUsage("mapStridedSource", "rank " + std::to_string(rank) + " outside 1.." + std::to_string(kMaxDims));
    std::size_t arrays = spec.outputs.size();
    for (const MapOperand& in : spec.inputs)
        arrays += in.scalar ? 0 : 1;
    std::ostringstream out;
    emitHeader(out, spec);
    out << "struct ks_map_layout {\n    long long shape[" << rank << "];\n    long long strides["
        << std::max<std::size_t>(arrays, 1) << "][" << rank << "];\n};\n\n";
    out << "extern \"C\" __global__ void __launch_bounds__(256) " << kMapStridedKernel << "(" << byteParams(spec);
    const char* idx = index64 ? "unsigned long long" : "unsigned int";
    out << "const ks_map_layout L, long long n)\n{\n";
    out << "    typedef " << idx << " index_t;\n";
    out << "    const index_t stride = (index_t)gridDim.x * blockDim.x;\n";
    out << "    for (index_t i = (index_t)blockIdx.x * blockDim.x + threadIdx.x; i < (index_t)n; i += stride) {\n";
    out << "        index_t rem = i;\n";
    for (std::size_t a = 0; a < arrays; ++a)
        out << "        long long off" << a << " = 0;\n";
    out << "#pragma unroll\n        for (int d = " << rank - 1 << "; d >= 1; --d) {\n";
    out << "            const index_t extent = (index_t)L.shape[d];\n";
    out << "            const index_t c = rem % extent;\n";
    out << "            rem /= extent;\n";
    for (std::size_t a = 0; a < arrays; ++a)
        out << "            off" << a << " += (long long)c * L.strides[" << a << "][d];\n";
    out << "        }\n";
    for (std::size_t a = 0; a < arrays; ++a)
        out << "        off" << a << " += (long long)rem * L.strides[" << a << "][0];\n";
    out << "        ks_map_op((long long)i, n";
    std::size_t a = 0;
    for (std::size_t k = 0; k < spec.outputs.size(); ++k, ++a)
        out << ", ks_at(ks_cast<" << typeOf(spec.outputs[k]) << ">(o" << k << " + off" << a << "), 0)";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        if (spec.inputs[k].scalar) {
            out << ", s" << k;
        } else {
            out << ", *ks_cast<const " << typeOf(spec.inputs[k].dtype) << ">(p" << k << " + off" << a << ")";
            ++a;
        }
    }
    out << ");\n    }\n}\n";
    return withPrelude(spec, out.str());
}

std::string mapTiledSource(const MapSpec& spec, const std::vector<bool>& staged)
{
    if (staged.size() != spec.inputs.size())
        throwUsage("mapTiledSource", "one staged flag per input: " + std::to_string(spec.inputs.size()) + " inputs, " +
                                         std::to_string(staged.size()) + " flags");
    std::size_t arrays = spec.outputs.size();
    for (const MapOperand& in : spec.inputs)
        arrays += in.scalar ? 0 : 1;
    const int tile = kMapTile, rows = kMapTileRows;
    std::ostringstream out;
    emitHeader(out, spec);
    out << "struct ks_map_tiled_layout {\n    long long shape[2];\n    long long index[2];\n    long long strides["
        << arrays << "][2];\n};\n\n";
    out << "extern \"C\" __global__ void __launch_bounds__(" << tile * rows << ") " << kMapTiledKernel << "("
        << byteParams(spec);
    out << "const ks_map_tiled_layout L, long long n)\n{\n";
    out << "    const long long y0 = (long long)blockIdx.y * " << tile << ", x0 = (long long)blockIdx.x * " << tile
        << ";\n";
    // Element (y, x) of array `a` (outputs, then array inputs), through pointer `p`.
    auto element = [](const std::string& p, std::size_t a) {
        return p + " + y * L.strides[" + std::to_string(a) + "][0] + x * L.strides[" + std::to_string(a) + "][1]";
    };
    // Staged inputs: read with threadIdx.x along axis 0 (their contiguous axis), kept as [x][y].
    std::size_t a = spec.outputs.size();
    bool any = false;
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        if (spec.inputs[k].scalar)
            continue;
        if (staged[k]) {
            const std::string t = typeOf(spec.inputs[k].dtype);
            out << "    __shared__ " << t << " t" << k << "[" << tile << "][" << tile + 1 << "];\n";
            out << "#pragma unroll\n    for (int k = 0; k < " << tile / rows << "; ++k) {\n";
            out << "        const int j = threadIdx.y + k * " << rows << ";\n";
            out << "        const long long y = y0 + threadIdx.x, x = x0 + j;\n";
            out << "        if (y < L.shape[0] && x < L.shape[1])\n";
            out << "            t" << k << "[j][threadIdx.x] = *ks_cast<const " << t << ">("
                << element("p" + std::to_string(k), a) << ");\n    }\n";
            any = true;
        }
        ++a;
    }
    if (any)
        out << "    __syncthreads();\n";
    // Every element with threadIdx.x along axis 1 (the outputs' contiguous axis).
    // Unrolled (a constant trip count), so that the row offsets are one multiply and additions.
    out << "#pragma unroll\n    for (int k = 0; k < " << tile / rows << "; ++k) {\n";
    out << "        const int j = threadIdx.y + k * " << rows << ";\n";
    out << "        const long long y = y0 + j, x = x0 + threadIdx.x;\n";
    out << "        if (y >= L.shape[0] || x >= L.shape[1])\n            continue;\n";
    out << "        ks_map_op(y * L.index[0] + x * L.index[1], n";
    a = 0;
    for (std::size_t k = 0; k < spec.outputs.size(); ++k, ++a)
        out << ", ks_at(ks_cast<" << typeOf(spec.outputs[k]) << ">(" << element("o" + std::to_string(k), a)
            << "), 0)";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        if (spec.inputs[k].scalar) {
            out << ", s" << k;
            continue;
        }
        if (staged[k])
            out << ", t" << k << "[threadIdx.x][j]";
        else
            out << ", *ks_cast<const " << typeOf(spec.inputs[k].dtype) << ">(" << element("p" + std::to_string(k), a)
                << ")";
        ++a;
    }
    out << ");\n    }\n}\n";
    return withPrelude(spec, out.str());
}

std::string mapKey(const MapSpec& spec)
{
    std::string key = "map:" + spec.name + ":";
    for (DType t : spec.outputs)
        key += std::string(dtypeName(t)) + ",";
    key += ":";
    for (const MapOperand& in : spec.inputs)
        key += std::string(in.scalar ? "s" : "a") + std::string(dtypeName(in.dtype)) + ",";
    key += ":" + spec.body + ":" + spec.preamble;
    return key;
}

} // namespace ks::array
