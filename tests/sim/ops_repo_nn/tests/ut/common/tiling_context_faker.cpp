#include "tiling_context_faker.h"

namespace gert {
TilingContextFaker& TilingContextFaker::SetOpType(const std::string& type)
{
    OpTilingContextBuilder::OpType(type.c_str()).OpName(type.c_str());
    return *this;
}
TilingContextFaker& TilingContextFaker::NodeIoNum(size_t inputs, size_t outputs)
{
    inputInstanceNum_.assign(inputs, 1);
    outputInstanceNum_.assign(outputs, 1);
    inputTensors_.resize(inputs);
    outputTensors_.resize(outputs);
    return *this;
}
static void Describe(Tensor& t, ge::DataType dtype, ge::Format origin, ge::Format storage,
                     const std::vector<int64_t>& dims)
{
    t.SetDataType(dtype);
    t.SetOriginFormat(origin);
    t.SetStorageFormat(storage);
    for (Shape* s : {&t.MutableOriginShape(), &t.MutableStorageShape()}) {
        s->SetDimNum(dims.size());
        for (size_t i = 0; i < dims.size(); ++i) s->SetDim(i, dims[i]);
    }
}
TilingContextFaker& TilingContextFaker::NodeInputTd(size_t index, ge::DataType dtype, ge::Format origin,
                                                    ge::Format storage, const std::vector<int64_t>& dims)
{
    Describe(inputTensors_.at(index), dtype, origin, storage, dims);
    return *this;
}
TilingContextFaker& TilingContextFaker::NodeOutputTd(size_t index, ge::DataType dtype, ge::Format origin,
                                                     ge::Format storage, const std::vector<int64_t>& dims)
{
    Describe(outputTensors_.at(index), dtype, origin, storage, dims);
    return *this;
}
TilingContextFaker& TilingContextFaker::ConstInput(size_t index, const void* data)
{
    inputTensors_.at(index).SetData(TensorData(data));
    return *this;
}
TilingContextFaker& TilingContextFaker::InputTensors(const std::vector<TensorV2*>& tensors)
{
    std::vector<Tensor*> plain(tensors.begin(), tensors.end());
    OpTilingContextBuilder::InputTensors(plain);
    return *this;
}
KernelRunContextHolder TilingContextFaker::Build()
{
    OpTilingContextBuilder::IOInstanceNum(inputInstanceNum_, outputInstanceNum_);
    std::vector<Tensor*> in, out;
    for (Tensor& t : inputTensors_) in.push_back(&t);
    for (Tensor& t : outputTensors_) out.push_back(&t);
    OpTilingContextBuilder::InputTensors(in);
    OpTilingContextBuilder::OutputTensors(out);
    OpTilingContextBuilder::DeterministicLevel(0);
    tilingContextHolder_ = OpTilingContextBuilder::Build();
    context_ = tilingContextHolder_.GetContext();
    return std::move(*this);
}
}  // namespace gert
