DETECTOR_FILE = "tiles-detector.onnx"
CLASSIFIER_FILE = "tiles-classifier.onnx"
