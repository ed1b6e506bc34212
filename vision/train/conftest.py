"""Torch is only in the ``train`` extra: without it, skip collecting the modules that import it."""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("torch") else ["nets.py", "fit.py"]
