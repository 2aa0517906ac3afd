#include "ks/array/map.hpp"

#include "ks/array/runtime.hpp"
#include "ks/core/error.hpp"

#include <limits>
#include <vector>

namespace ks::array {

namespace {

struct alignas(16) ParamSlot {
    unsigned char bytes[16];
};

bool sameLayout(const DeviceArray& a, const DeviceArray& b)
{
    return a.data() == b.data() && a.shape() == b.shape() && a.strides() == b.strides() && a.dtype() == b.dtype();
}

// Which of two axes an array runs along in memory: 1 or 0 for the one of smaller byte stride, -1
// when neither (a broadcast axis, or equal strides), so that either reading order suits it.
int contiguousAxis(const Dims& strides)
{
    const std::int64_t s0 = strides[0] < 0 ? -strides[0] : strides[0];
    const std::int64_t s1 = strides[1] < 0 ? -strides[1] : strides[1];
    if (s0 == 0 || s1 == 0 || s0 == s1)
        return -1;
    return s1 < s0 ? 1 : 0;
}

// Two collapsed axes along which some array input runs against the outputs (a transposed copy,
// `a + b.T`): the tiled kernel (mapTiledSource), oriented so the outputs run along axis 1. Returns
// false, launching nothing, where it does not apply or would not pay (an extent below a tile, too
// many rows of tiles for the grid, staging beyond static shared memory).
template <class PushOperands>
bool runTiled(Runtime& rt, const MapSpec& spec, Dims shape, std::vector<Dims> strides, PushOperands pushOperands,
              std::vector<void*>& params, long long& count)
{
    int along = -1; // the outputs' axis
    for (std::size_t k = 0; k < spec.outputs.size(); ++k) {
        const int c = contiguousAxis(strides[k]);
        if (c >= 0 && along >= 0 && c != along)
            return false;
        along = c >= 0 ? c : along;
    }
    along = along < 0 ? 1 : along;
    std::vector<bool> staged(spec.inputs.size(), false);
    bool any = false;
    std::size_t sharedBytes = 0;
    for (std::size_t k = 0, a = spec.outputs.size(); k < spec.inputs.size(); ++k) {
        if (spec.inputs[k].scalar)
            continue;
        const int c = contiguousAxis(strides[a++]);
        staged[k] = c >= 0 && c != along;
        any = any || staged[k];
        if (staged[k])
            sharedBytes += std::size_t(kMapTile) * (kMapTile + 1) * itemSize(spec.inputs[k].dtype);
    }
    if (!any || sharedBytes > 48 * 1024)
        return false;
    std::int64_t index[2] = {shape[1], 1};
    if (along == 0) {
        std::swap(shape[0], shape[1]);
        std::swap(index[0], index[1]);
        for (Dims& st : strides)
            std::swap(st[0], st[1]);
    }
    const std::int64_t tilesX = (shape[1] + kMapTile - 1) / kMapTile, tilesY = (shape[0] + kMapTile - 1) / kMapTile;
    if (shape[0] < kMapTile || shape[1] < kMapTile || tilesY > 65535 || tilesX > std::numeric_limits<int>::max())
        return false;
    std::vector<long long> layout = {shape[0], shape[1], index[0], index[1]};
    for (const Dims& st : strides)
        layout.insert(layout.end(), {st[0], st[1]});
    std::string key = mapKey(spec) + ":tiled:";
    for (const bool b : staged)
        key += b ? 't' : '-';
    const cuda::Function& f = rt.kernel(key, kMapTiledKernel, [&] { return mapTiledSource(spec, staged); },
                                        "ks_map_" + spec.name + ".cu");
    pushOperands();
    params.push_back(layout.data());
    params.push_back(&count);
    cuda::LaunchConfig config;
    config.grid = {unsigned(tilesX), unsigned(tilesY), 1};
    config.block = {unsigned(kMapTile), unsigned(kMapTileRows), 1};
    rt.launch(f, config, params.data());
    return true;
}

} // namespace

Dims collapseDims(const Dims& shape, std::span<Dims> strides)
{
    Dims outShape;
    std::vector<Dims> outStrides(strides.size());
    for (int d = 0; d < shape.size(); ++d) {
        if (shape[d] == 1)
            continue;
        bool merge = !outShape.empty();
        for (std::size_t a = 0; a < strides.size() && merge; ++a)
            merge = outStrides[a].back() == strides[a][d] * shape[d];
        if (merge) {
            outShape[outShape.size() - 1] *= shape[d];
            for (std::size_t a = 0; a < strides.size(); ++a)
                outStrides[a][outStrides[a].size() - 1] = strides[a][d];
        } else {
            outShape.push_back(shape[d]);
            for (std::size_t a = 0; a < strides.size(); ++a)
                outStrides[a].push_back(strides[a][d]);
        }
    }
    if (outShape.empty()) {
        outShape.push_back(shape.product() == 0 ? 0 : 1);
        for (Dims& s : outStrides)
            s.push_back(0);
    }
    for (std::size_t a = 0; a < strides.size(); ++a)
        strides[a] = outStrides[a];
    return outShape;
}

void runMap(const MapSpec& spec, std::span<const DeviceArray> outputs, std::span<const MapArg> inputs)
{
    if (outputs.size() != spec.outputs.size() || inputs.size() != spec.inputs.size())
        throwUsage("runMap", "map '" + spec.name + "' takes " + std::to_string(spec.outputs.size()) + " outputs and " +
                                 std::to_string(spec.inputs.size()) + " inputs; given " +
                                 std::to_string(outputs.size()) + " and " + std::to_string(inputs.size()));
    // Struct elements reach maps only as their words (elementWords): anything else is an operation
    // they do not have (where, mul_add, the cumath functions, astype to a number...).
    auto refuseStruct = [&](const DeviceArray& a) {
        if (a.structType())
            throwUsage(spec.name, "'" + spec.name + "' is not defined for the " + a.describe() +
                                      ": struct elements support fills, copies, take/put and ElementwiseKernel");
    };
    for (const DeviceArray& a : outputs)
        refuseStruct(a);
    for (const MapArg& in : inputs)
        if (const DeviceArray* a = std::get_if<DeviceArray>(&in))
            refuseStruct(*a);
    // A map with no outputs (a scatter, writing through an address it is given) runs over the shape
    // of its first array input.
    const DeviceArray* first = outputs.empty() ? nullptr : &outputs[0];
    for (std::size_t k = 0; k < inputs.size() && !first; ++k)
        first = std::get_if<DeviceArray>(&inputs[k]);
    if (!first)
        throwUsage("runMap", "map '" + spec.name + "' has no array to run over");
    Runtime& rt = first->runtime();
    const Dims shape = first->shape();
    for (std::size_t k = 0; k < outputs.size(); ++k) {
        if (outputs[k].dtype() != spec.outputs[k])
            throwUsage("runMap", "map '" + spec.name + "' output " + std::to_string(k) + " must be " +
                                     std::string(dtypeName(spec.outputs[k])) + ", got the " + outputs[k].describe());
        if (!(outputs[k].shape() == shape))
            throwUsage("runMap", "map '" + spec.name + "' outputs differ in shape: " + shape.toString() + " and " +
                                     outputs[k].shape().toString());
        if (outputs[k].runtimePtr() != &rt)
            throwUsage("runMap", "map '" + spec.name + "' mixes arrays of different runtimes");
        outputs[k].requireWritable("ks::array::" + spec.name);
    }
    // Array inputs broadcast to the output shape; overlapping inputs with another layout are copied.
    std::vector<DeviceArray> arrays(outputs.begin(), outputs.end());
    std::vector<ParamSlot> scalars(inputs.size());
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        const MapOperand& operand = spec.inputs[k];
        if (const Scalar* s = std::get_if<Scalar>(&inputs[k])) {
            if (!operand.scalar)
                throwUsage("runMap", "map '" + spec.name + "' input " + std::to_string(k) + " must be an array");
            s->store(operand.dtype, scalars[k].bytes);
            continue;
        }
        const DeviceArray& in = std::get<DeviceArray>(inputs[k]);
        if (operand.scalar)
            throwUsage("runMap", "map '" + spec.name + "' input " + std::to_string(k) + " must be a scalar");
        if (in.dtype() != operand.dtype)
            throwUsage("runMap", "map '" + spec.name + "' input " + std::to_string(k) + " must be " +
                                     std::string(dtypeName(operand.dtype)) + ", got the " + in.describe());
        if (in.runtimePtr() != &rt)
            throwUsage("runMap", "map '" + spec.name + "' mixes arrays of different runtimes");
        DeviceArray view = in.broadcastTo(shape);
        for (const DeviceArray& out : outputs)
            if (!sameLayout(view, out) && view.mayShareMemory(out)) {
                view = in.copy().broadcastTo(shape);
                break;
            }
        arrays.push_back(std::move(view));
    }
    const std::int64_t n = shape.product();
    if (n == 0)
        return;

    std::vector<CUdeviceptr> pointers;
    pointers.reserve(arrays.size());
    for (const DeviceArray& a : arrays)
        pointers.push_back(a.data());
    std::vector<void*> params;
    // Parameters: outputs, then inputs in order (array pointer or scalar value), then [layout,] n.
    auto pushOperands = [&] {
        for (std::size_t k = 0; k < outputs.size(); ++k)
            params.push_back(&pointers[k]);
        std::size_t arrayIndex = outputs.size();
        for (std::size_t k = 0; k < inputs.size(); ++k)
            params.push_back(spec.inputs[k].scalar ? static_cast<void*>(scalars[k].bytes)
                                                   : static_cast<void*>(&pointers[arrayIndex++]));
    };
    long long count = n;

    bool contiguous = true;
    for (const DeviceArray& a : arrays)
        contiguous = contiguous && a.isCContiguous();
    if (contiguous) {
        const int v = mapVectorWidth(spec);
        bool aligned = v > 1;
        for (const DeviceArray& a : arrays)
            aligned = aligned && a.data() % (std::uint64_t(v) * a.itemSize()) == 0;
        const std::string key = mapKey(spec) + ":contiguous";
        const cuda::Function& f =
            rt.kernel(key, aligned ? kMapVectorKernel : kMapScalarKernel, [&] { return mapContiguousSource(spec); },
                      "ks_map_" + spec.name + ".cu");
        pushOperands();
        params.push_back(&count);
        rt.launch(f, rt.gridStrideConfig(std::uint64_t(aligned ? std::max<std::int64_t>(n / v, 1) : n)),
                  params.data());
        return;
    }

    std::vector<Dims> strides;
    for (const DeviceArray& a : arrays)
        strides.push_back(a.strides());
    const Dims collapsed = collapseDims(shape, strides);
    const int rank = collapsed.size();
    if (rank == 2 && runTiled(rt, spec, collapsed, strides, pushOperands, params, count))
        return;
    const bool index64 = std::uint64_t(n) > std::numeric_limits<unsigned int>::max();
    std::vector<long long> layout;
    for (int d = 0; d < rank; ++d)
        layout.push_back(collapsed[d]);
    for (const Dims& s : strides)
        for (int d = 0; d < rank; ++d)
            layout.push_back(s[d]);
    const std::string key = mapKey(spec) + ":strided" + std::to_string(rank) + (index64 ? ":i64" : ":i32");
    const cuda::Function& f = rt.kernel(key, kMapStridedKernel,
                                        [&] { return mapStridedSource(spec, rank, index64); },
                                        "ks_map_" + spec.name + ".cu");
    pushOperands();
    params.push_back(layout.data());
    params.push_back(&count);
    rt.launch(f, rt.gridStrideConfig(std::uint64_t(n)), params.data());
}

} // namespace ks::array
