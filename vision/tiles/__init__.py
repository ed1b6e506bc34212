"""Reading number tiles of tile Rummy from camera frames (run time: numpy, OpenCV, onnxruntime).

- :mod:`vision.tiles.labels`: the classifier's classes (ink colour x number, joker).
- :mod:`vision.tiles.patches`: one tile cut upright and white-balanced on its face.
- :mod:`vision.tiles.reader`: :class:`~vision.tiles.reader.TileReader`, frame to tile observations.
- :mod:`vision.tiles.grouping`: touching tiles in a row to the table's combinations.
- :mod:`vision.tiles.learn`: adapting the classifier to a player's own set.
"""
