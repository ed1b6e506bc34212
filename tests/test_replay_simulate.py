"""`rummyref replay --simulate`: one JSON line per hand (or turn) and a summary, errors named."""

import json

from rummyref.cli import main


def test_simulated_tile_turns_print_truth_result_agree_and_a_summary(capsys) -> None:
    assert main(["replay", "--simulate", "2", "--seed", "5", "--game", "tiles", "--turns", "12", "--answer", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    turns, summary = lines[:-1], lines[-1]
    assert len(turns) == 24 and summary["summary"] and summary["turns"] == 24
    for turn in turns:
        assert {"truth", "result", "agree", "needs_confirmation"} <= turn.keys()
        assert turn["agree"] == (turn["result"] == turn["truth"])
    assert summary["agree"] == sum(t["agree"] for t in turns) and summary["wrong_committed"] == 0


def test_unanswered_tile_questions_are_misses_never_wrong(capsys) -> None:
    assert main(["replay", "--simulate", "3", "--game", "tiles", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert summary["needs_confirmation"] > 0 and summary["wrong_committed"] == 0


def test_bad_simulate_arguments_are_named(capsys) -> None:
    assert main(["replay", "--simulate", "0"]) == 2
    assert "--simulate needs at least 1 hand" in capsys.readouterr().err
    assert main(["replay", "somewhere", "--simulate", "1"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["replay"]) == 2
    assert "SOURCE is missing" in capsys.readouterr().err
    assert main(["replay", "--simulate", "1", "--game", "tiles", "--seats", "5"]) == 2
    assert "--seats 2-4" in capsys.readouterr().err
    for unread in (["--game", "wiener"], ["--game", "tiles", "--render"]):   # no cards photographed to learn from
        assert main(["replay", "--simulate", "1", "--learn-deck", *unread]) == 2
        assert "--learn-deck is for --simulate N with Gin, or Wiener with --render" in capsys.readouterr().err
    assert main(["replay", "--simulate", "1", "--game", "wiener", "--record", "somewhere"]) == 2
    assert "--record is for --simulate N --game wiener --render" in capsys.readouterr().err


def test_a_recorded_wiener_round_is_replayed_from_the_record_folder(capsys, tmp_path) -> None:
    from engine.simulate_wiener import simulate_wiener
    from rummyref.wiener_replay import FilmRecording, RecordedFrame

    game = simulate_wiener(5, players=4)
    folder = tmp_path / "wiener-gnome_plastic-shipped-plain-1280x720"  # shipped models, no deck learned
    FilmRecording([RecordedFrame(f.frame_id, f.still, f.still, f.sightings) for f in game.frames]).save(
        FilmRecording.path(folder, 5, 4))
    assert main(["replay", "--simulate", "1", "--seed", "5", "--game", "wiener", "--render", "--answer", "--json",
                 "--record", str(tmp_path)]) == 0
    round_, figures = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert round_["agree"] and round_["truth"] == list(game.penalties)
    assert figures["replayed_frames"] == figures["frames"] == len(game.frames) and figures["read_seconds"] == 0


def test_simulated_wiener_rounds_print_one_line_each_and_a_summary(capsys) -> None:
    assert main(["replay", "--simulate", "3", "--seed", "2", "--game", "wiener", "--answer", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 4 and lines[-1]["rounds"] == 3 and lines[-1]["wrong_committed"] == 0
    assert all(len(line["truth"]) == 4 for line in lines[:-1])
