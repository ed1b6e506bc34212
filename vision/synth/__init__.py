"""Synthetic card tables for training and testing the card recognizer.

Training-time only, except for deck learning (:mod:`vision.deck_scenes` lays a player's
cards, cut from the layout photos, on rendered tables): the recognizer imports nothing of it.

- :mod:`vision.synth.decks`: card faces of real deck designs (rendered from the
  Debian aisleriot and KDE SVG decks) and of procedurally drawn decks, with the
  box of every corner index found on each face.
- :mod:`vision.synth.scenes`: :func:`~vision.synth.scenes.render_scene` lays
  cards out like real tables and photographs them, with exact per-index
  annotations.
- :mod:`vision.synth.dataset`: writes scenes to disk (``python -m
  vision.synth.dataset --help``).
"""
