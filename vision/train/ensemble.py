"""Join classifiers trained apart into one ONNX file that reads with all of them, or average the
weights of classifiers fine-tuned from one network.

Networks trained from different seeds on different rendered tables err on different
patches, so their average is surer where they agree and less sure where they do not. The joined
file holds each member with its own input and outputs: member 0 reads ``patch``, member ``k``
``patch_k``, and each gives ``m{k}/logits`` and ``m{k}/embedding``. One session then reads any
patches with any members: onnxruntime runs the whole graph whatever outputs are asked, but reads
a batch of no patches at no cost, so the reader gives the other members only the patches the
first reads unsurely (:class:`vision.recognizer.Networks`). The reader takes the mean of the
members' logits (a geometric mean of their probabilities, as its re-looks take) and their
embeddings side by side; the mean logits are an affine function of that embedding, so a player's
set learned by :mod:`vision.tiles.learn` fits its last layer over all members at once.

Networks fine-tuned from the same one stay near each other in weight space, so the mean of their
weights is a network too, one network's size and speed (a "model soup", Wortsman et al. 2022):
:func:`average` (``--average``) makes it. Networks trained apart from different starts are joined,
not averaged: their features do not line up.

Building and splitting are build time only (the ``onnx`` package, the ``train`` extra)::

    python -m vision.train.ensemble A/tiles-classifier.onnx B/tiles-classifier.onnx --out models/tiles-classifier.onnx
    python -m vision.train.ensemble models/tiles-classifier.onnx --member 0 --out DIR/tiles-classifier.onnx
    python -m vision.train.ensemble --average A/cards-classifier.onnx B/cards-classifier.onnx --out DIR/cards-classifier.onnx
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

INPUT = "patch"
OUTPUTS = ("logits", "embedding")
BATCH = "n"
"""The name of a single network's batch dimension (``vision.train.fit`` exports classifiers with it); a
joined file names member k's ``n{k}``."""


class EnsembleError(ValueError):
    """The members cannot be joined (different inputs, outputs or opsets), or split."""


def _renamed(items, rename):
    """Copies of graph nodes, initializers or value infos with every tensor name but the input mapped by ``rename``."""
    def mapped(tensor: str) -> str:
        return tensor if tensor in ("", INPUT) else rename(tensor)

    copies = []
    for item in items:
        copy = type(item)()
        copy.CopyFrom(item)
        copy.name = mapped(item.name)
        if hasattr(item, "op_type"):
            if any(attribute.g.node or attribute.graphs for attribute in item.attribute):
                raise EnsembleError(f"node {item.name!r} holds a subgraph; only plain feed-forward classifiers are joined")
            copy.input[:] = [mapped(t) for t in item.input]
            copy.output[:] = [mapped(t) for t in item.output]
        copies.append(copy)
    return copies


def _width(model, output: str) -> int:
    """The length of an (N, width) output of a member."""
    found = next(o for o in model.graph.output if o.name == output)
    dims = found.type.tensor_type.shape.dim
    if len(dims) != 2 or not dims[1].dim_value:
        raise EnsembleError(f"output {output!r} is not (N, width) with a fixed width")
    return dims[1].dim_value


def _check_members(models: list) -> None:
    if len(models) < 2:
        raise EnsembleError(f"an ensemble needs two members or more, got {len(models)}")
    first = models[0]
    for k, model in enumerate(models):
        inputs = [i.name for i in model.graph.input if i.name not in {t.name for t in model.graph.initializer}]
        outputs = [o.name for o in model.graph.output]
        if inputs != [INPUT] or not set(OUTPUTS) <= set(outputs):
            raise EnsembleError(f"member {k} reads {inputs} and gives {outputs}; every member must read only "
                                f"{INPUT!r} and give {', '.join(OUTPUTS)}")
        if model.graph.input[0].type != first.graph.input[0].type:
            raise EnsembleError(f"member {k} takes another patch shape or type than member 0")
        if {(o.domain, o.version) for o in model.opset_import} != {(o.domain, o.version) for o in first.opset_import}:
            raise EnsembleError(f"member {k} uses other opsets than member 0")
        if _width(model, "logits") != _width(first, "logits"):
            raise EnsembleError(f"member {k} gives {_width(model, 'logits')} classes, member 0 {_width(first, 'logits')}")


def member_input(k: int) -> str:
    """The input member ``k`` of a joined file reads.

    >>> member_input(0), member_input(2)
    ('patch', 'patch_2')
    """
    return f"{INPUT}_{k}" if k else INPUT


def join(models: list):
    """One model holding every member (``onnx.ModelProto`` values), each reading its own input
    (:func:`member_input`) and giving its own ``m{k}/logits`` and ``m{k}/embedding``
    (``tests/test_ensemble.py`` shows it on the shipped networks)."""
    import onnx
    from onnx import helper

    _check_members(models)
    first, members = models[0], len(models)
    nodes, initializers, inputs, outputs = [], [], [], []
    for k, model in enumerate(models):
        def prefixed(tensor: str, k: int = k) -> str:
            return f"m{k}/{tensor}"
        renamed = _renamed(model.graph.node, prefixed)
        for node in renamed:
            node.input[:] = [member_input(k) if name == INPUT else name for name in node.input]
        nodes += renamed
        initializers += _renamed(model.graph.initializer, prefixed)
        for output in _renamed([o for o in model.graph.output if o.name in OUTPUTS], prefixed):
            if output.type.tensor_type.shape.dim[0].dim_param:
                output.type.tensor_type.shape.dim[0].dim_param = f"n{k}"
            outputs.append(output)
        given = onnx.ValueInfoProto()
        given.CopyFrom(model.graph.input[0])
        given.name = member_input(k)
        batch = given.type.tensor_type.shape.dim[0]
        if batch.dim_param:     # each member's own number of patches
            batch.dim_param = f"n{k}"
        inputs.append(given)
    graph = helper.make_graph(nodes, f"ensemble of {members}", inputs, outputs, initializers)
    joined = helper.make_model(graph, opset_imports=list(first.opset_import), ir_version=first.ir_version,
                               producer_name="rummyref vision.train.ensemble")
    onnx.checker.check_model(joined)
    return joined


def member(model, k: int):
    """Member ``k`` of a model :func:`join` made, as a model of its own; a single network is its own member 0."""
    from onnx import helper

    prefix = f"m{k}/"
    if not any(node.name.startswith("m0/") for node in model.graph.node):
        if k:
            raise EnsembleError(f"the model is one network; it has no member {k}")
        return model
    if not any(node.name.startswith(prefix) for node in model.graph.node):
        raise EnsembleError(f"the ensemble has no member {k}")

    def unprefixed(tensor: str) -> str:
        return INPUT if tensor == member_input(k) else tensor[len(prefix):] if tensor.startswith(prefix) else tensor

    nodes = _renamed([n for n in model.graph.node if n.name.startswith(prefix)], unprefixed)
    initializers = _renamed([t for t in model.graph.initializer if t.name.startswith(prefix)], unprefixed)
    outputs = _renamed([v for v in model.graph.output if v.name in {prefix + o for o in OUTPUTS}], unprefixed)
    source = next((i for i in model.graph.input if i.name == member_input(k)), model.graph.input[0])
    given = type(source)()
    given.CopyFrom(source)
    given.name = INPUT
    # Named as a single network's again, so that members taken out of joined files join anew.
    for value in [given, *outputs]:
        if value.type.tensor_type.shape.dim[0].dim_param:
            value.type.tensor_type.shape.dim[0].dim_param = BATCH
    graph = helper.make_graph(nodes, f"member {k}", [given], outputs, initializers)
    return helper.make_model(graph, opset_imports=list(model.opset_import), ir_version=model.ir_version)


def average(models: list):
    """One network whose every weight is the mean of the members' (``onnx.ModelProto`` values of the
    same graph: the same nodes, the same weight names and shapes); the first member's graph is kept."""
    from onnx import numpy_helper

    if len(models) < 2:
        raise EnsembleError(f"an average needs two members or more, got {len(models)}")
    first = models[0]
    shapes = [[(t.name, tuple(t.dims), t.data_type) for t in model.graph.initializer] for model in models]
    for k, model in enumerate(models):
        if [n.op_type for n in model.graph.node] != [n.op_type for n in first.graph.node] or shapes[k] != shapes[0]:
            raise EnsembleError(f"member {k} is not the same network as member 0 (other layers or weight shapes); "
                                "only networks fine-tuned from one network are averaged")
    averaged = type(first)()
    averaged.CopyFrom(first)
    weights = [{t.name: numpy_helper.to_array(t) for t in model.graph.initializer} for model in models]
    for tensor in averaged.graph.initializer:
        values = [member_weights[tensor.name] for member_weights in weights]
        if values[0].dtype.kind == "f":
            mean = np.mean(np.stack(values).astype(np.float64), axis=0).astype(values[0].dtype)
            tensor.CopyFrom(numpy_helper.from_array(mean, tensor.name))
        elif any(not np.array_equal(v, values[0]) for v in values):
            raise EnsembleError(f"the members' integer tensor {tensor.name!r} differs; it cannot be averaged")
    return averaged


def join_files(members: list[Path], out: Path) -> None:
    """Join the classifier files ``members`` into one file ``out`` (weights inside, no external data)."""
    import onnx

    onnx.save(join([onnx.load(str(path)) for path in members]), str(out))


def members_of(path: Path) -> int:
    """How many networks the classifier file ``path`` holds (1 for a plain one)."""
    import onnx

    names = {node.name.split("/", 1)[0] for node in onnx.load(str(path)).graph.node}
    return sum(1 for name in names if name[:1] == "m" and name[1:].isdigit()) or 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train.ensemble", description=__doc__.split("\n\n")[0])
    parser.add_argument("models", type=Path, nargs="+",
                        help="classifier ONNX files: two or more to join or (--average) to average, or one with --member")
    parser.add_argument("--out", type=Path, required=True, help="the ONNX file to write")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--member", type=int, metavar="K",
                     help="take member K (from 0) out of one joined file instead (to fine-tune it with --init)")
    how.add_argument("--average", action="store_true",
                     help="average the weights of networks fine-tuned from one network instead of joining them")
    args = parser.parse_args(argv)
    for path in args.models:
        if not path.is_file():
            parser.error(f"no such model file: {path}")
    import onnx

    try:
        if args.member is not None:
            if len(args.models) != 1:
                parser.error("--member takes one joined file")
            onnx.save(member(onnx.load(str(args.models[0])), args.member), str(args.out))
            print(f"wrote member {args.member} of {args.models[0]} to {args.out}")
        elif args.average:
            onnx.save(average([onnx.load(str(path)) for path in args.models]), str(args.out))
            print(f"averaged the weights of {len(args.models)} classifiers into {args.out}")
        else:
            join_files(args.models, args.out)
            print(f"joined {len(args.models)} classifiers into {args.out} ({args.out.stat().st_size} bytes)")
    except EnsembleError as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
