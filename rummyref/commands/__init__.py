"""One module per `rummyref` subcommand; each defines ``register(subparsers)``.

A command module adds its parser with ``set_defaults(run=function)``; the
function takes the parsed arguments and returns the process exit code. Heavy
imports (OpenCV, onnxruntime, Flask) go inside that function, so that
``rummyref --help`` and the light commands start fast.
"""

COMMAND_MODULES: list[str] = ["analyze", "dashboard", "markers", "recognize", "eval_vision", "learn_deck", "run", "replay",
                              "render_game", "demo", "learn_tiles",
                              "check_turn"]
