import json
import subprocess
import sys
from pathlib import Path

import pytest

from rummyref.commands.analyze import KINDS, RecordError, analyze_lines, analyze_record, kind

ROOT = Path(__file__).resolve().parents[1]

DEADWOOD = {"id": "d1", "kind": "deadwood", "hand": ["AS", "2S", "3S", "7H", "7D", "7C", "9D", "10D", "JD", "KH", "KD"]}
SCORE = {
    "id": 2, "kind": "score",
    "knocker_hand": "AS 2S 3S 7H 7D 7C 9D 10D JD 5C",
    "opponent_hand": "KS KH KD KC 3H 4H 5H 6H 8D 4C",
}


def run_cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "rummyref", "analyze", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


def test_cli_answers_every_line_and_survives_a_bad_one():
    lines = [json.dumps(DEADWOOD), "{not json", json.dumps({"id": 9, "kind": "deadwood", "hand": ["AS", "XX"]}),
             "", json.dumps(SCORE)]
    done = run_cli(stdin="\n".join(lines) + "\n")
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a.get("id") for a in answers] == ["d1", None, 9, 2]
    assert answers[0]["min_deadwood"] == 20 and answers[0]["best_discards"] == ["KH", "KD"]
    assert answers[0]["knock_legal"] is True and answers[0]["gin"] is False
    assert answers[1]["line"] == 2 and answers[1]["error"].startswith("invalid JSON")
    assert "'XX'" in answers[2]["error"] and "min_deadwood" not in answers[2]
    assert (answers[3]["winner"], answers[3]["points"], answers[3]["undercut"]) == ("opponent", 11, True)
    assert done.returncode == 1
    assert "4 lines, 2 with errors" in done.stderr


def test_cli_reads_a_file_and_takes_a_preset(tmp_path):
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(SCORE) + "\n")
    done = run_cli(str(path), "--rules", "gra", "--quiet")
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["points"] == 1 + 25


def test_cli_help_and_missing_file():
    assert "JSON lines" in run_cli("--help").stdout
    done = run_cli("/nonexistent/hands.jsonl")
    assert done.returncode == 2 and "cannot read /nonexistent/hands.jsonl" in done.stderr


def test_rules_per_line():
    assert analyze_record({**SCORE, "rules": "gra"})["points"] == 26
    assert analyze_record({**SCORE, "rules": {"preset": "gra", "undercut_bonus": 20}})["points"] == 21
    assert analyze_record({**SCORE, "rules": {"undercut_bonus": 15}})["points"] == 16
    with pytest.raises(Exception, match="unknown rules option 'undercut'"):
        analyze_record({**SCORE, "rules": {"undercut": 15}})


def test_oklahoma_upcard_per_line():
    line = {**DEADWOOD, "rules": "oklahoma", "upcard": "9S"}
    assert analyze_record(line)["knock_legal"] is False
    assert analyze_record({**line, "upcard": "KS"})["knock_legal"] is True


def test_layoff_kind():
    out = analyze_record({
        "kind": "layoff", "knocker_hand": SCORE["knocker_hand"], "opponent_hand": SCORE["opponent_hand"],
        "knocker_melds": [["AS", "2S", "3S"], ["7H", "7D", "7C"], ["9D", "10D", "JD"]],
    })
    assert (out["opponent_deadwood_after_layoffs"], out["layoffs"]) == (4, ["8D"])
    assert out["layoffs_onto"] == [{"meld": ["9D", "10D", "JD"], "cards": ["8D"]}]


def test_error_lines_name_the_problem():
    lines = [
        json.dumps({"id": 1, "kind": "poker"}),
        json.dumps({"id": 2, "kind": "layoff", "knocker_hand": SCORE["knocker_hand"], "opponent_hand": SCORE["opponent_hand"],
                    "knocker_melds": [["QS", "KS", "AS"]]}),
        json.dumps({"id": 3, "kind": "score", "knocker_hand": SCORE["knocker_hand"], "opponent_hand": "KS KH"}),
        json.dumps({"id": 4, "kind": "deadwood"}),
        json.dumps([1, 2]),
        json.dumps({"id": 6, "kind": "deadwood", "hand": ["AS", "as"]}),
    ]
    errors = [a["error"] for a in analyze_lines(lines)]
    assert "unknown kind 'poker'" in errors[0]
    assert "QS KS AS" in errors[1] and "ace high" in errors[1]
    assert "opponent hand has 2 cards" in errors[2]
    assert errors[3] == "missing field 'hand'"
    assert "must be a JSON object" in errors[4]
    assert "duplicate card 'as'" in errors[5]


def test_kinds_are_extendable(monkeypatch):
    monkeypatch.setitem(KINDS, "count", None)

    @kind("count")
    def count(record, rules):
        return {"cards": len(record["hand"])}

    assert analyze_record({"id": 1, "kind": "count", "hand": [1, 2, 3]}) == {"id": 1, "kind": "count", "cards": 3}
    with pytest.raises(RecordError, match="expected one of count, deadwood, layoff, score"):
        analyze_record({"kind": "nope"})
