"""Expose a classifier's spatial features as extra ONNX outputs, for deck learning.

Deck learning (:mod:`vision.learn_deck`) fits more than the last layer: it refits the classifier's
last convolution blocks and its last layer, in numpy at the player's table. For that the ONNX
file must return the input of those blocks (``features``: the map (N, C, H, W) the block before them
makes) and the blocks' own weights, biases and strides (``conv0_weight``, ``conv0_bias``,
``conv0_stride``, ``conv1_...``, batch norm folded in as the export leaves it), so that the installed product
needs onnxruntime only (no ``onnx`` package, no torch). The edit only adds outputs: ``logits`` and
``embedding`` are computed by the same nodes as before.

The training export applies it (:func:`vision.train.fit.export_classifier`); an existing file is
edited in place with::

    python -m vision.train.expose models/cards-classifier.onnx

Build time only: it needs the ``onnx`` package (the ``train`` extra).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vision.deck_head import FEATURES, block_outputs

HEAD_BLOCKS = 2
"""How many of the classifier's last convolution blocks deck learning refits (a third costs more time
than it gains; see :mod:`vision.learn_deck`)."""


class ExposeError(ValueError):
    """The graph is not a classifier whose ``embedding`` pools Conv-Relu blocks."""


def _producer(graph, tensor: str, op_type: str):
    for node in graph.node:
        if tensor in node.output:
            if node.op_type != op_type:
                raise ExposeError(f"{tensor!r} is made by a {node.op_type} node, expected {op_type}")
            return node
    raise ExposeError(f"no node makes {tensor!r}")


def _conv_block(graph, relu_output: str, constants: dict) -> tuple:
    """The 3x3 Conv (padding 1, constant weight and bias) before the Relu making ``relu_output``, and its stride."""
    conv = _producer(graph, _producer(graph, relu_output, "Relu").input[0], "Conv")
    if len(conv.input) < 3 or conv.input[1] not in constants or conv.input[2] not in constants:
        raise ExposeError(f"Conv node {conv.name!r} has no constant weight and bias")
    attributes = {a.name: list(a.ints) if a.ints else a.i for a in conv.attribute}
    if list(constants[conv.input[1]].dims[2:]) != [3, 3] or attributes.get("pads", [1] * 4) != [1] * 4 \
            or attributes.get("dilations", [1, 1]) != [1, 1] or attributes.get("group", 1) != 1:
        raise ExposeError(f"Conv node {conv.name!r} is not a plain 3x3 convolution with padding 1")
    stride = attributes.get("strides", [1, 1])
    if stride[0] != stride[1]:
        raise ExposeError(f"Conv node {conv.name!r} has unequal strides {stride}")
    return conv, stride[0]


def expose_features(model, blocks: int = HEAD_BLOCKS, embedding: str = "embedding"):
    """Add ``features`` and the weights of the last ``blocks`` conv blocks as outputs of an ONNX classifier
    ``model`` (an ``onnx.ModelProto``), in place, and return it.

    The graph must end in ``blocks`` times Conv -> Relu, then ReduceMean -> ``embedding`` (as
    :class:`vision.train.nets.IndexClassifier` exports, batch norm folded). A model that has the
    outputs already is returned unchanged.
    """
    import onnx
    from onnx import TensorProto, helper

    graph = model.graph
    names = [output.name for output in graph.output]
    if FEATURES in names:
        return model
    if embedding not in names:
        raise ExposeError(f"the model has no {embedding!r} output (outputs: {names})")
    constants = {init.name: init for init in graph.initializer}
    tensor, found = _producer(graph, embedding, "ReduceMean").input[0], []
    for _ in range(blocks):
        conv, stride = _conv_block(graph, tensor, constants)
        found.insert(0, (conv, stride))
        tensor = conv.input[0]
    graph.node.append(helper.make_node("Identity", [tensor], [FEATURES], name=f"expose_{FEATURES}"))
    graph.output.append(helper.make_tensor_value_info(FEATURES, TensorProto.FLOAT, ["n", None, None, None]))
    for number, (conv, stride) in enumerate(found):
        weight, bias, stride_name = block_outputs(number)
        for name, source in ((weight, conv.input[1]), (bias, conv.input[2])):
            graph.node.append(helper.make_node("Identity", [source], [name], name=f"expose_{name}"))
            graph.output.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, list(constants[source].dims)))
        graph.node.append(helper.make_node("Constant", [], [stride_name], name=f"expose_{stride_name}",
                                           value=helper.make_tensor(stride_name, TensorProto.INT64, [], [stride])))
        graph.output.append(helper.make_tensor_value_info(stride_name, TensorProto.INT64, []))
    onnx.checker.check_model(model)
    return model


def expose_file(path: Path, out: Path | None = None) -> Path:
    """:func:`expose_features` on the ONNX file ``path``, written to ``out`` (default: in place)."""
    import onnx

    if not path.is_file():
        raise FileNotFoundError(f"no ONNX model at {path}")
    model = expose_features(onnx.load(str(path)))
    target = out or path
    onnx.save(model, str(target))
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train.expose", description=__doc__.split("\n\n")[0])
    parser.add_argument("model", type=Path, help="an exported classifier, e.g. models/cards-classifier.onnx")
    parser.add_argument("--out", type=Path, help="write here instead of editing MODEL in place")
    args = parser.parse_args(argv)
    try:
        written = expose_file(args.model, args.out)
    except (ExposeError, FileNotFoundError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"{written}: outputs {FEATURES} and the last {HEAD_BLOCKS} blocks' weights added ({written.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
