"""Starting training from exported ONNX models instead of random weights (fine-tuning).

The exported graphs have every batch norm folded into the convolution before
it, so a :func:`vision.train.nets.conv_bn` block is restored as the folded
convolution followed by a batch norm that does nothing but add the folded
bias (mean 0, variance 1 - eps, scale 1). Fine-tuning must then keep the batch
norms' statistics frozen (:func:`freeze_norm_statistics`); their scale and
shift still learn. Layers are matched in the order the graph runs them,
which is the order the network's forward pass calls them; any difference
in shape is an error.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn


def onnx_layers(path: Path) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """(weight, bias) of every Conv and Gemm node of an ONNX graph, in graph order."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {init.name: torch.from_numpy(numpy_helper.to_array(init).copy()) for init in model.graph.initializer}
    layers = []
    for node in model.graph.node:
        if node.op_type in ("Conv", "Gemm"):
            if len(node.input) < 3 or node.input[1] not in weights or node.input[2] not in weights:
                raise ValueError(f"{path}: {node.op_type} node {node.name!r} has no constant weight and bias")
            layers.append((weights[node.input[1]], weights[node.input[2]]))
    return layers


def _layers_in_call_order(model: nn.Module, example: torch.Tensor) -> list[nn.Module]:
    called: list[nn.Module] = []
    hooks = [m.register_forward_hook(lambda module, *_: called.append(module))
             for m in model.modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
    model.eval()
    with torch.no_grad():
        model(example)
    for hook in hooks:
        hook.remove()
    return called


def load_onnx_weights(model: nn.Module, path: Path, example: torch.Tensor) -> None:
    """Set ``model``'s weights from the exported ONNX file ``path`` (the same architecture)."""
    if not path.is_file():
        raise FileNotFoundError(f"cannot start training from {path}: no such model file")
    norms_after = {}
    for module in model.modules():
        children = list(module.children())
        for first, second in zip(children, children[1:]):
            if isinstance(first, nn.Conv2d) and isinstance(second, nn.BatchNorm2d):
                norms_after[first] = second
    layers = _layers_in_call_order(model, example)
    stored = onnx_layers(path)
    if len(layers) != len(stored):
        raise ValueError(f"{path} has {len(stored)} layers with weights, the network {len(layers)}: not the same architecture")
    with torch.no_grad():
        for number, (layer, (weight, bias)) in enumerate(zip(layers, stored)):
            if layer.weight.shape != weight.shape:
                raise ValueError(f"{path}: layer {number} has weights {tuple(weight.shape)}, "
                                 f"the network {tuple(layer.weight.shape)}")
            layer.weight.copy_(weight)
            norm = norms_after.get(layer)
            if norm is not None:
                norm.weight.fill_(1.0)
                norm.bias.copy_(bias)
                norm.running_mean.zero_()
                norm.running_var.fill_(1.0 - norm.eps)
            elif layer.bias is not None:
                layer.bias.copy_(bias)
            else:
                raise ValueError(f"{path}: layer {number} has a bias the network has nowhere to put")


def freeze_norm_statistics(model: nn.Module) -> None:
    """Batch norms keep their running statistics (call after ``model.train()``)."""
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()
