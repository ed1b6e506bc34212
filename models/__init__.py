"""ONNX models shipped with rummyref, each with a model card (``*.md``) beside it."""

from pathlib import Path

MODELS_DIR = Path(__file__).resolve().parent
