"""`rummyref analyze` kinds wiener, tiles_partition, tiles_turn, through the real command line."""

import json
import subprocess
import sys

from rummyref.commands.analyze import analyze_lines


def run_cli(lines):
    proc = subprocess.run([sys.executable, "-m", "rummyref", "analyze", "-q"], input="\n".join(map(json.dumps, lines)),
                          capture_output=True, text=True, check=False)
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()]


def test_wiener_eleven_cards():
    code, (answer,) = run_cli([{"id": "w1", "kind": "wiener", "hand": "AS 2S 3S 7H 7D JK 9C 9S 9D 4H 2C".split()}])
    assert code == 0
    assert answer["id"] == "w1" and answer["best_discard_deadwood"] == 2 and answer["best_discards"] == ["4H"]
    assert answer["knock_legal"] is True and answer["rummy"] is False
    assert ["7H", "7D", "JK"] in answer["melds"] and answer["min_deadwood"] == 6


def test_wiener_knock_limit_option_and_ten_cards():
    hand = "AS 2S 3S 7H 7D 7C 9C 9S 9D 6H QC".split()
    (strict,) = analyze_lines([json.dumps({"kind": "wiener", "hand": hand})])
    (loose,) = analyze_lines([json.dumps({"kind": "wiener", "hand": hand, "rules": {"knock_limit": 10}})])
    assert strict["knock_legal"] is False and loose["knock_legal"] is True
    (ten,) = analyze_lines([json.dumps({"kind": "wiener", "hand": hand[:10]})])
    assert ten["min_deadwood"] == 6 and "best_discards" not in ten


def test_tiles_partition_valid_and_reason():
    _, answers = run_cli([
        {"id": 1, "kind": "tiles_partition", "tiles": ["R5", "R6", "R7", "Y9", "G9", "JK"]},
        {"id": 2, "kind": "tiles_partition", "tiles": ["R1", "R2", "R3", "B7"]},
    ])
    assert answers[0]["valid"] is True and sorted(map(sorted, answers[0]["partition"])) == [["G9", "JK", "Y9"], ["R5", "R6", "R7"]]
    assert answers[1] == {"id": 2, "kind": "tiles_partition", "valid": False, "reason": "B7 fits no group or run with these tiles"}


def test_tiles_turn_violations_and_opening_points():
    _, answers = run_cli([
        {"id": 1, "kind": "tiles_turn", "before": [], "after": [["R10", "R11", "R12"]], "rack_played": ["R10", "R11", "R12"], "opened": False},
        {"id": 2, "kind": "tiles_turn", "before": [["B8", "G8", "Y8", "R8"]], "after": [["B8", "G8", "Y8"], ["R7", "R8", "R9"]],
         "rack_played": ["R7", "R9"], "opened": True},
    ])
    assert answers[0]["legal"] is False and answers[0]["opening_points"] == 33
    assert "needs at least 40" in answers[0]["violations"][0]
    assert answers[1]["legal"] is True and answers[1]["violations"] == [] and "opening_points" not in answers[1]


def test_bad_lines_get_error_and_the_rest_go_on():
    code, answers = run_cli([
        {"id": 1, "kind": "wiener", "hand": ["AS", "AS", "AS"] + ["2C"] * 8},
        {"id": 2, "kind": "tiles_partition", "tiles": ["X9"]},
        {"id": 3, "kind": "tiles_turn", "before": [], "after": [["R1"]], "rack_played": ["R1"]},
        {"id": 4, "kind": "wiener", "hand": ["AS"], "rules": {"knock_limt": 10}},
        {"id": 5, "kind": "tiles_partition", "tiles": ["R1", "R2", "R3"]},
    ])
    assert code == 1
    assert "AS appears 3 times" in answers[0]["error"]
    assert "X9" in answers[1]["error"]
    assert "missing field 'opened'" in answers[2]["error"]
    assert "unknown rules option 'knock_limt'" in answers[3]["error"]
    assert answers[4]["valid"] is True
