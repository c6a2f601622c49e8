// SPDX-License-Identifier: GPL-3.0-or-later
// Strided views (core/tensors): PyTorch's known cases, the op parser's errors, and the view rule checked
// against brute force on thousands of random shapes, strides and op chains — a view must address exactly
// the elements the input addressed, in the same order, and whenever some strides for the new shape could
// produce that order, view must succeed (every reshape that could be a view is one).
#include "tensors/tensor_chain.h"
#include "tensors/view_rule.h"

#include <QTest>

#include <algorithm>
#include <numeric>
#include <optional>
#include <random>

using namespace lse::tensors;

namespace {

TensorView contiguous(const Sizes &shape)
{
    const auto view = makeView(shape);
    if (!view)
        qFatal("makeView refused %s", sizesText(shape).c_str());
    return *view;
}

TensorOp op(const std::string &text)
{
    const auto parsed = parseTensorOp(text);
    if (!parsed)
        qFatal("cannot parse %s: %s", text.c_str(), parsed.problems().front().message.c_str());
    return *parsed;
}

TensorChain chain(const TensorView &start, const std::vector<std::string> &ops, std::int64_t dtype_bytes = 4)
{
    std::vector<TensorOp> parsed;
    for (const std::string &text : ops)
        parsed.push_back(op(text));
    return runTensorChain(start, parsed, dtype_bytes);
}

// Brute force: the strides (and offset) a view of `shape` would need to visit `addresses` in row-major
// order. Element e_k (index 1 in dimension k, 0 elsewhere) fixes stride k; every element then checks it.
bool someStridesProduce(const std::vector<std::int64_t> &addresses, const Sizes &shape)
{
    if (addresses.empty())
        return true;
    TensorView candidate;
    candidate.shape = shape;
    candidate.strides.assign(shape.size(), 0);
    candidate.offset = addresses.front();
    const Sizes row_major = contiguousStrides(shape);
    for (std::size_t k = 0; k < shape.size(); ++k)
        if (shape[k] > 1)
            candidate.strides[k] = addresses[static_cast<std::size_t>(row_major[k])] - addresses.front();
    return candidate.storageIndices() == addresses;
}

// The values a view shows, in row-major logical order, read through its storage.
std::vector<std::int64_t> logicalValues(const ChainStep &step)
{
    std::vector<std::int64_t> values;
    for (std::int64_t index : step.view->storageIndices())
        values.push_back(step.storage_values[static_cast<std::size_t>(index)]);
    return values;
}

// An independent dense model of the ops: a shape and its values in row-major order, each op defined by
// which input element every output element is (no strides involved).
struct Dense {
    Sizes shape;
    std::vector<std::int64_t> values;

    static Sizes unravel(std::int64_t flat, const Sizes &shape)
    {
        Sizes index(shape.size(), 0);
        for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
            index[d] = flat % shape[d];
            flat /= shape[d];
        }
        return index;
    }
    std::int64_t at(const Sizes &index) const
    {
        std::int64_t flat = 0;
        for (std::size_t d = 0; d < shape.size(); ++d)
            flat = flat * shape[d] + index[d];
        return values[static_cast<std::size_t>(flat)];
    }
    std::int64_t numel() const
    {
        std::int64_t n = 1;
        for (std::int64_t s : shape)
            n *= s;
        return n;
    }
    // out[i] = in[source(i)]
    template <typename Source>
    Dense mapped(const Sizes &new_shape, Source source) const
    {
        Dense out{new_shape, {}};
        for (std::int64_t flat = 0; flat < out.numel(); ++flat)
            out.values.push_back(at(source(unravel(flat, new_shape))));
        return out;
    }
    Dense reshaped(const Sizes &new_shape) const { return Dense{new_shape, values}; }
};

// The dense model of one op; the generator below only makes valid ops with non-negative arguments.
Dense applyDense(const Dense &in, const TensorOp &tensor_op)
{
    const Sizes &a = tensor_op.args;
    auto permuted = [&](const Sizes &perm) {
        Sizes shape;
        for (std::int64_t p : perm)
            shape.push_back(in.shape[p]);
        return in.mapped(shape, [&](const Sizes &index) {
            Sizes source(index.size());
            for (std::size_t i = 0; i < perm.size(); ++i)
                source[perm[i]] = index[i];
            return source;
        });
    };
    switch (tensor_op.kind) {
    case OpKind::Transpose: {
        Sizes perm(in.shape.size());
        std::iota(perm.begin(), perm.end(), 0);
        std::swap(perm[a[0]], perm[a[1]]);
        return permuted(perm);
    }
    case OpKind::T:
    case OpKind::ReverseDims: {
        Sizes perm(in.shape.size());
        std::iota(perm.rbegin(), perm.rend(), 0);
        return permuted(perm);
    }
    case OpKind::Permute:
        return permuted(a);
    case OpKind::Narrow:
    case OpKind::Slice: {
        const std::int64_t start = a[1];
        const std::int64_t stop = tensor_op.kind == OpKind::Narrow ? a[1] + a[2] : a[2];
        const std::int64_t step = tensor_op.kind == OpKind::Narrow ? 1 : a[3];
        Sizes shape = in.shape;
        shape[a[0]] = std::max<std::int64_t>(0, (stop - start + step - 1) / step);
        return in.mapped(shape, [&](Sizes index) {
            index[a[0]] = start + index[a[0]] * step;
            return index;
        });
    }
    case OpKind::Expand:
        return in.mapped(a, [&](const Sizes &index) {
            Sizes source(in.shape.size());
            const std::size_t lead = a.size() - in.shape.size();
            for (std::size_t d = 0; d < in.shape.size(); ++d)
                source[d] = in.shape[d] == 1 ? 0 : index[d + lead];
            return source;
        });
    case OpKind::Unsqueeze: {
        Sizes shape = in.shape;
        shape.insert(shape.begin() + a[0], 1);
        return in.reshaped(shape);
    }
    case OpKind::Squeeze: {
        Sizes shape;
        for (std::int64_t s : in.shape)
            if (s != 1)
                shape.push_back(s);
        return in.reshaped(shape);
    }
    case OpKind::View:
    case OpKind::Reshape:
        return in.reshaped(a);
    case OpKind::Flatten:
        return in.reshaped({in.numel()});
    case OpKind::Contiguous:
        return in;
    }
    return in;
}

// A random shape with `numel` elements: a random factorisation into 1–4 dimensions with size-1 dimensions sprinkled in.
Sizes randomShapeOf(std::int64_t numel, std::mt19937 &random)
{
    Sizes shape;
    std::int64_t left = numel;
    const int dims = std::uniform_int_distribution<int>(1, 4)(random);
    for (int d = 0; d < dims - 1 && left > 0; ++d) {
        std::vector<std::int64_t> divisors;
        for (std::int64_t k = 1; k <= left; ++k)
            if (left % k == 0)
                divisors.push_back(k);
        const std::int64_t size = divisors[std::uniform_int_distribution<std::size_t>(0, divisors.size() - 1)(random)];
        shape.push_back(size);
        left /= size;
    }
    shape.push_back(left);
    if (numel == 0 && random() % 2)
        shape.push_back(static_cast<std::int64_t>(random() % 3));
    std::shuffle(shape.begin(), shape.end(), random);
    return shape;
}

// A random valid op for `view` (never view/reshape: those are what the test checks).
TensorOp randomLayoutOp(const TensorView &view, std::mt19937 &random)
{
    auto pick = [&](std::int64_t low, std::int64_t high) {
        return std::uniform_int_distribution<std::int64_t>(low, high)(random);
    };
    const int dims = view.dims();
    for (;;) {
        switch (random() % 7) {
        case 0:
            if (dims >= 2)
                return TensorOp{OpKind::Transpose, {pick(0, dims - 1), pick(0, dims - 1)}};
            break;
        case 1: {
            Sizes perm(dims);
            std::iota(perm.begin(), perm.end(), 0);
            std::shuffle(perm.begin(), perm.end(), random);
            return TensorOp{OpKind::Permute, perm};
        }
        case 2:
            if (dims >= 1) {
                const std::int64_t dim = pick(0, dims - 1);
                const std::int64_t size = view.shape[dim];
                const std::int64_t start = pick(0, size);
                return TensorOp{OpKind::Slice, {dim, start, pick(start, size), pick(1, 3)}};
            }
            break;
        case 3:
            if (dims >= 1) {
                const std::int64_t dim = pick(0, dims - 1);
                const std::int64_t start = pick(0, view.shape[dim]);
                return TensorOp{OpKind::Narrow, {dim, start, pick(0, view.shape[dim] - start)}};
            }
            break;
        case 4:
            if (dims < 4 && view.numel() <= 24) {
                Sizes sizes;
                if (random() % 2)
                    sizes.push_back(pick(1, 3));
                for (std::int64_t s : view.shape)
                    sizes.push_back(s == 1 ? pick(1, 3) : s);
                return TensorOp{OpKind::Expand, sizes};
            }
            break;
        case 5:
            if (dims < 5)
                return TensorOp{OpKind::Unsqueeze, {pick(0, dims)}};
            break;
        case 6:
            return TensorOp{random() % 2 ? OpKind::Squeeze : OpKind::ReverseDims, {}};
        }
    }
}

std::optional<TensorView> randomStart(std::mt19937 &random)
{
    Sizes shape(std::uniform_int_distribution<int>(0, 4)(random));
    for (std::int64_t &size : shape)
        size = random() % 10 == 0 ? 0 : std::uniform_int_distribution<std::int64_t>(1, 4)(random);
    Sizes strides;
    if (random() % 2)
        for (std::size_t d = 0; d < shape.size(); ++d)
            strides.push_back(std::uniform_int_distribution<std::int64_t>(0, 13)(random));
    const auto view = makeView(shape, strides, std::uniform_int_distribution<std::int64_t>(0, 3)(random));
    return view ? std::optional<TensorView>(*view) : std::nullopt;
}

}  // namespace

class TestTensorView : public QObject {
    Q_OBJECT
private slots:
    void contiguousStridesAndAddresses()
    {
        const TensorView x = contiguous({2, 3, 4});
        QCOMPARE(x.strides, (Sizes{12, 4, 1}));
        QCOMPARE(x.storage_size, 24);
        QVERIFY(x.isContiguous());
        const TensorView t = applyTensorOp(x, op("transpose(0,1)"), 1)->view;
        QCOMPARE(t.shape, (Sizes{3, 2, 4}));
        QCOMPARE(t.strides, (Sizes{4, 12, 1}));
        QVERIFY(!t.isContiguous());
        // Element (1, 0, 2) of the transpose: 0 + 1·4 + 0·12 + 2·1.
        QCOMPARE(t.storageIndex({1, 0, 2}), 6);
    }

    void contiguityIgnoresSizeOneDimensions()
    {
        QVERIFY(makeView({2, 1, 3}, {3, 99, 1})->isContiguous());
        QVERIFY(!makeView({2, 3}, {1, 2})->isContiguous());
        QVERIFY(makeView({0, 3}, {7, 5})->isContiguous());  // empty: contiguous by definition
    }

    void transposeThenViewFailsNamingTheDimensions()
    {
        const TensorChain result = chain(contiguous({2, 3, 4}), {"transpose(0,1)", "view(6,4)", "view(-1)"});
        QCOMPARE(result.steps.size(), std::size_t{2});  // the chain stops at the error
        QVERIFY(result.steps[0].ok());
        QVERIFY(result.steps[0].shares_storage);
        QVERIFY(!result.steps[0].contiguous);
        const ChainStep &failed = result.steps[1];
        QVERIFY(!failed.ok());
        QVERIFY(!failed.view);
        QVERIFY2(failed.error.find("dimension 0") != std::string::npos, failed.error.c_str());
        QVERIFY2(failed.error.find("cannot be merged with dimension 1") != std::string::npos, failed.error.c_str());
        QVERIFY2(failed.error.find("view(6, 4)") == 0, failed.error.c_str());
        // Splitting the innermost dimension stays inside one chunk: a view.
        const TensorChain split = chain(contiguous({2, 3, 4}), {"transpose(0,1)", "view(3,2,2,2)"});
        QVERIFY(split.steps[1].ok());
        QCOMPARE(split.steps[1].view->strides, (Sizes{4, 12, 2, 1}));
    }

    void reshapeCopiesExactlyWhereViewFails()
    {
        const TensorChain copied = chain(contiguous({2, 3, 4}), {"transpose(0,1)", "reshape(6,4)"}, 2);
        const ChainStep &step = copied.steps[1];
        QVERIFY(step.ok());
        QVERIFY(step.copied);
        QVERIFY(!step.shares_storage);
        QVERIFY(step.contiguous);
        QCOMPARE(step.view->strides, (Sizes{4, 1}));
        QCOMPARE(step.copy_bytes_read, 24 * 2);
        QCOMPARE(step.copy_bytes_written, 24 * 2);
        // The copy holds the transposed order: x[0][1] (storage 4) follows x[0][0] … in the new storage.
        QCOMPARE(step.storage_values[4], 12);

        const TensorChain viewed = chain(contiguous({2, 3, 4}), {"reshape(6,4)", "reshape(-1)"});
        for (const ChainStep &s : viewed.steps) {
            QVERIFY(!s.copied);
            QVERIFY(s.shares_storage);
            QCOMPARE(s.copy_bytes_read, 0);
        }
    }

    void contiguousThenViewWorks()
    {
        const TensorChain result = chain(contiguous({2, 3, 4}), {"transpose(0,1)", "contiguous()", "view(6,4)", "contiguous()"});
        QCOMPARE(result.steps.size(), std::size_t{4});
        QVERIFY(result.steps[1].copied);
        QVERIFY(result.steps[2].ok());
        QVERIFY(!result.steps[2].copied);
        QVERIFY(!result.steps[2].shares_storage);  // it views the copy, not the original
        QVERIFY(!result.steps[3].copied);          // already contiguous: contiguous() is free
    }

    void expandThenView()
    {
        // torch.arange(3).view(3,1).expand(3,4): stride 0 on the broadcast dimension.
        const TensorChain result = chain(contiguous({3, 1}), {"expand(-1,4)", "view(3,2,2)", "view(12)"});
        QCOMPARE(result.steps[0].view->strides, (Sizes{1, 0}));
        QVERIFY(result.steps[1].ok());
        QCOMPARE(result.steps[1].view->strides, (Sizes{1, 0, 0}));
        QVERIFY(!result.steps[2].ok());  // rows are not contiguous with each other
        const TensorChain leading = chain(contiguous({1}), {"expand(2,4)", "view(8)"});
        QCOMPARE(leading.steps[0].view->strides, (Sizes{0, 0}));
        QVERIFY(leading.steps[1].ok());
        QVERIFY(!chain(contiguous({3}), {"expand(-1,3)"}).steps[0].ok());  // -1 on a new leading dimension
        QVERIFY(!chain(contiguous({3}), {"expand(4)"}).steps[0].ok());     // 3 is not 1
    }

    void sliceWithStep()
    {
        // x = arange(24).view(4,6); x[:, ::2] visits 0,2,4,…,22: one stride 2, so view(12) works.
        const TensorChain every_other = chain(contiguous({4, 6}), {"slice(1,0,6,2)", "view(12)"});
        QCOMPARE(every_other.steps[0].view->strides, (Sizes{6, 2}));
        QVERIFY(every_other.steps[1].ok());
        QCOMPARE(every_other.steps[1].view->strides, (Sizes{2}));
        // x[:, 0:4:2] = 0,2,6,8,…: a gap after every second element, so it cannot be one dimension.
        QVERIFY(!chain(contiguous({4, 6}), {"slice(1,0,4,2)", "view(8)"}).steps[1].ok());
        const TensorChain narrowed = chain(contiguous({4, 6}), {"narrow(1,1,2)", "slice(-2,-3,4)"});
        QCOMPARE(narrowed.steps[0].view->offset, 1);
        QCOMPARE(narrowed.steps[1].view->shape, (Sizes{3, 2}));
        QCOMPARE(narrowed.steps[1].view->offset, 7);
    }

    void smallOps()
    {
        const TensorChain result = chain(contiguous({2, 3}), {"unsqueeze(-1)", "unsqueeze(0)", "squeeze(0)", "squeeze()",
                                                             "t()", ".T", "permute(1,0)", "flatten()"});
        QCOMPARE(result.steps[0].view->shape, (Sizes{2, 3, 1}));
        QCOMPARE(result.steps[1].view->shape, (Sizes{1, 2, 3, 1}));
        QCOMPARE(result.steps[3].view->shape, (Sizes{2, 3}));
        QCOMPARE(result.steps[4].view->strides, (Sizes{1, 3}));
        QCOMPARE(result.steps[5].view->strides, (Sizes{3, 1}));
        QCOMPARE(result.steps[6].view->strides, (Sizes{1, 3}));
        QVERIFY(result.steps[7].copied);  // flattening a transpose copies, as reshape does
        QVERIFY(!chain(contiguous({2, 3, 4}), {"t()"}).steps[0].ok());
        QCOMPARE(chain(contiguous({2, 3, 4}), {".T"}).steps[0].view->shape, (Sizes{4, 3, 2}));
        QCOMPARE(chain(contiguous({2, 3, 4}), {"squeeze(1)"}).steps[0].view->shape, (Sizes{2, 3, 4}));
    }

    void viewInfersMinusOne()
    {
        QCOMPARE(chain(contiguous({2, 3, 4}), {"view(-1,4)"}).steps[0].view->shape, (Sizes{6, 4}));
        const std::string two = chain(contiguous({2, 3, 4}), {"view(-1,-1)"}).steps[0].error;
        QVERIFY2(two.find("only one dimension can be inferred") != std::string::npos, two.c_str());
        const std::string wrong = chain(contiguous({2, 3, 4}), {"view(5,-1)"}).steps[0].error;
        QVERIFY2(wrong.find("invalid for input of size 24") != std::string::npos, wrong.c_str());
        QVERIFY(!chain(contiguous({2, 3, 4}), {"reshape(5,5)"}).steps[0].ok());
        QVERIFY(!chain(contiguous({0, 3}), {"view(0,-1)"}).steps[0].ok());  // ambiguous
        QCOMPARE(chain(contiguous({0, 3}), {"view(-1)"}).steps[0].view->shape, (Sizes{0}));
    }

    void dimensionErrorsNameTheArgument()
    {
        const std::string error = chain(contiguous({2, 3}), {"transpose(0,2)"}).steps[0].error;
        QVERIFY2(error.find("dim1 = 2 is out of range") != std::string::npos, error.c_str());
        QVERIFY(!chain(contiguous({2, 3}), {"permute(0,0)"}).steps[0].ok());
        QVERIFY(!chain(contiguous({2, 3}), {"permute(0)"}).steps[0].ok());
        QVERIFY(!chain(contiguous({2, 3}), {"narrow(1,2,2)"}).steps[0].ok());
        QVERIFY(!chain(contiguous({2, 3}), {"slice(1,0,3,0)"}).steps[0].ok());
        QCOMPARE(chain(contiguous({2, 3}), {"transpose(-1,-2)"}).steps[0].view->shape, (Sizes{3, 2}));
    }

    void parserAcceptsAndRefuses()
    {
        QCOMPARE(op(" .view( 6 , -1 ) ").args, (Sizes{6, -1}));
        QCOMPARE(op(".T").kind, OpKind::ReverseDims);
        QCOMPARE(op("t()").kind, OpKind::T);
        QCOMPARE(op("slice(1,0,4,2)").text(), std::string("slice(1, 0, 4, 2)"));
        struct Bad {
            const char *text;
            const char *expected;
        };
        for (const Bad &bad : {Bad{"", "empty"}, Bad{"transpose", "name(arguments)"},
                               Bad{"frobnicate(1)", "unknown operation 'frobnicate'"},
                               Bad{"view(6,x)", "argument 2 of view ('x') is not an integer"},
                               Bad{"view(6,,4)", "argument 2 of view ('')"},
                               Bad{"transpose(0)", "transpose takes 2 arguments, got 1"},
                               Bad{"slice(0)", "slice takes 2 to 4 arguments"},
                               Bad{"t(1)", "t takes 0 arguments"},
                               Bad{"view(99999999999999999999)", "is not an integer"}}) {
            const auto parsed = parseTensorOp(bad.text);
            QVERIFY2(!parsed, bad.text);
            QCOMPARE(parsed.problems().front().field, std::string("op"));
            QVERIFY2(parsed.problems().front().message.find(bad.expected) != std::string::npos,
                     parsed.problems().front().message.c_str());
        }
    }

    void startViewIsValidated()
    {
        QVERIFY(!makeView({2, -1}));
        QCOMPARE(makeView({2, 3}, {1}).problems().front().field, std::string("strides"));
        QVERIFY(!makeView({2, 3}, {}, -1));
        QVERIFY(!makeView({1 << 20, 1 << 20, 4}));
    }

    // The heart of the acceptance: thousands of random layouts, each viewed as random shapes.
    void viewRuleAgreesWithBruteForce()
    {
        std::mt19937 random(16);
        int views = 0, refusals = 0, chains = 0;
        for (int trial = 0; trial < 4000; ++trial) {
            const std::optional<TensorView> start = randomStart(random);
            if (!start)
                continue;
            // A random chain of layout ops, checked against the dense model at every step.
            std::vector<TensorOp> ops;
            TensorView layout = *start;
            const int length = static_cast<int>(random() % 4);
            for (int i = 0; i < length; ++i) {
                const TensorOp next = randomLayoutOp(layout, random);
                const auto outcome = applyTensorOp(layout, next, 1);
                if (!outcome)
                    QFAIL((next.text() + " on " + sizesText(layout.shape) + ": " + outcome.problems().front().message)
                              .c_str());
                layout = outcome->view;
                ops.push_back(next);
            }
            const Sizes new_shape = randomShapeOf(layout.numel(), random);
            ops.push_back(TensorOp{random() % 2 ? OpKind::View : OpKind::Reshape, new_shape});
            const TensorChain result = runTensorChain(*start, ops, 4);
            Dense dense{start->shape, {}};
            for (std::int64_t index : start->storageIndices())
                dense.values.push_back(index);
            for (std::size_t i = 0; i < result.steps.size(); ++i) {
                const ChainStep &step = result.steps[i];
                if (!step.ok())
                    break;
                dense = applyDense(dense, ops[i]);
                QCOMPARE(step.view->shape, dense.shape);
                QCOMPARE(logicalValues(step), dense.values);
                // Every element stays inside its storage (an empty view may point past the end, as in PyTorch).
                if (step.view->numel() > 0)
                    QVERIFY2(step.view->lastStorageIndex() < step.view->storage_size, step.op.c_str());
            }
            ++chains;

            // The view rule itself against brute force.
            const std::vector<std::int64_t> before = layout.storageIndices();
            const ViewStrides rule = computeViewStrides(layout, new_shape);
            const bool possible = someStridesProduce(before, new_shape);
            const std::string context = "shape " + sizesText(layout.shape) + " strides " + sizesText(layout.strides)
                + " as " + sizesText(new_shape);
            QVERIFY2(rule.strides.has_value() == possible, context.c_str());
            if (rule.strides) {
                TensorView viewed = layout;
                viewed.shape = new_shape;
                viewed.strides = *rule.strides;
                QVERIFY2(viewed.storageIndices() == before, context.c_str());
                ++views;
            } else {
                QVERIFY2(rule.why_not.find("cannot be merged") != std::string::npos, context.c_str());
                ++refusals;
            }
            // Through the chain: view fails exactly when reshape copies.
            const ChainStep &last = result.steps.back();
            if (ops.back().kind == OpKind::View)
                QCOMPARE(last.ok(), possible);
            else
                QCOMPARE(last.copied, !possible);
        }
        qInfo("%d chains; the new shape was a view %d times and impossible %d times", chains, views, refusals);
        // Both outcomes must be exercised for the comparison to mean anything.
        QVERIFY2(views > 500 && refusals > 500, qPrintable(QStringLiteral("%1 views, %2 refusals").arg(views).arg(refusals)));
        QVERIFY(chains > 3000);
    }
};

QTEST_APPLESS_MAIN(TestTensorView)
#include "test_tensor_view.moc"
