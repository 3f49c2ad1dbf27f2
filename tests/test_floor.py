"""The floor's choice of configuration, without a GPU: kernels and timings are stand-ins."""
import math
from types import SimpleNamespace

import pandas as pd

from common import floor, measure


def test_the_floor_keeps_the_configuration_fastest_over_its_passes_not_in_one(monkeypatch):
    # "" is fastest in the first pass only (a fluke of a few microseconds); "LOAD_HINT=2" is
    # fastest in the others. One pass would keep "", the median of the passes "LOAD_HINT=2".
    passes = {"": [5.0, 6.0, 6.0], "LOAD_HINT=2": [5.5, 5.5, 5.5]}
    assert floor.CHOICE_PASSES == 3
    monkeypatch.setattr(floor.attempts, "load_library",
                        lambda source, defines, name: SimpleNamespace(name=name))
    calls = {}

    def fake_time_call(kernel, data, mode, max_seconds):
        config = kernel.config
        i = calls.get(config, 0)
        calls[config] = i + 1
        return SimpleNamespace(mean_us=passes.get(config, [7.0] * 3)[i])

    monkeypatch.setattr(floor, "time_call", fake_time_call)
    floors = floor.Floor()
    assert floors.kernel(None, (128, 16384, 1), "clean").config == "LOAD_HINT=2"
    assert set(calls.values()) == {floor.CHOICE_PASSES}    # every configuration, every pass
    # the runner-up is kept too, to be timed beside the kernel; the choice is made once
    assert [k.config for k in floors.finalists(None, (128, 16384, 1), "clean")] == ["LOAD_HINT=2", ""]
    assert set(calls.values()) == {floor.CHOICE_PASSES}


def test_the_floor_checks_fastest_candidate_is_always_a_finalist(monkeypatch):
    # The passes rank "" and "LOAD_HINT=2" first; the recorded check found "tile-windows" fastest
    # on this shape and mode (and 99's default on another, through its "floor" row): it is timed
    # beside the kernel too, after the chosen two, and nothing is added where it was chosen.
    monkeypatch.setattr(floor.attempts, "load_library",
                        lambda source, defines, name: SimpleNamespace(name=name))
    passes = {"": 5.0, "LOAD_HINT=2": 5.5}
    monkeypatch.setattr(floor, "time_call", lambda kernel, data, mode, max_seconds:
                        SimpleNamespace(mean_us=passes.get(kernel.config, 7.0)))
    check = [("floor", "tile-windows", 96.0), ("tile-windows", "tile-windows", 95.2),
             ("99", "tile-windows", 97.0), ("bulk-copy", "tile-windows", 90.0)]   # not a candidate
    rows = [{"strategy": s, "m": 57344, "k": 8192, "l": 1, "mode": "gpumode", "floor_config": c, "mean_us": us}
            for s, c, us in check]
    rows += [{"strategy": "floor", "m": 128, "k": 256, "l": 1, "mode": "clean", "floor_config": "", "mean_us": 2.0},
             {"strategy": "99 UNROLL=4", "m": 128, "k": 256, "l": 1, "mode": "clean", "floor_config": "", "mean_us": 2.1}]
    monkeypatch.setattr(floor, "load", lambda gpu: pd.DataFrame(rows))
    floors = floor.Floor("h100")
    assert [k.config for k in floors.finalists(None, (57344, 8192, 1), "gpumode")] == ["", "LOAD_HINT=2", "tile-windows"]
    assert [k.config for k in floors.finalists(None, (128, 256, 1), "clean")] == ["", "LOAD_HINT=2"]
    assert [k.config for k in floors.finalists(None, (128, 512, 1), "clean")] == ["", "LOAD_HINT=2"]
    assert [k.config for k in floor.Floor().finalists(None, (57344, 8192, 1), "gpumode")] == ["", "LOAD_HINT=2"]


def test_a_run_divides_by_the_faster_finalist_timed_beside_the_kernel(monkeypatch):
    # The choice ranked "first" ahead of "second", but beside the kernel "second" is 1% faster:
    # the floor is "second", the median of its own rounds (one disturbed round does not move it).
    rounds = {"first": [96.0, 96.1, 96.0], "second": [95.0, 99.0, 95.1], "kernel": [95.5, 95.6, 95.4]}
    first, second, kernel = (SimpleNamespace(config=name) for name in rounds)
    order = []

    def fake_time_call(timed, data, mode, max_seconds, nvtx_name=None):
        order.append(timed.config)
        us = rounds[timed.config][sum(1 for o in order if o == timed.config) - 1]
        return SimpleNamespace(mean_us=us, samples=[us])

    monkeypatch.setattr(measure, "time_call", fake_time_call)
    t, chosen, floor_us, floor_means = measure.time_beside_floor(kernel, [first, second], None, "clean")
    assert chosen is second and floor_us == 95.1 and floor_means == [95.0, 99.0, 95.1]
    assert order == ["first", "second", "kernel"] * measure.FLOOR_ROUNDS
    assert abs(t.mean_us - 95.5) < 1e-9


def test_a_read_strategy_is_divided_by_the_floor_of_its_own_shape_and_mode(monkeypatch):
    from common import reports
    run = {"gpu": "G", "driver": "d", "cuda": "c", "torch": "t", "git_sha": "s", "measured_at": "2026-01-01"}
    rows = [{"strategy": name, "m": 128, "k": 256, "l": 1, "mode": mode, "mean_us": us, **run}
            for name, mode, us in [("floor", "clean", 2.0), ("floor", "gpumode", 4.0),
                                   ("probe", "clean", 3.0), ("probe", "gpumode", 5.0)]]
    monkeypatch.setattr(reports.floor, "load", lambda gpu: pd.DataFrame(rows))
    table = reports.read_strategy_table("h100", "probe")
    assert "| 128x256x1 | clean | 2.00 | 3.00 | 1.50 |" in table
    assert "| 128x256x1 | gpumode | 4.00 | 5.00 | 1.25 |" in table
    assert "driver d, CUDA c, torch t, commit s" in table


def test_every_strategy_takes_turns_at_the_head_of_a_round():
    names = [f"s{i}" for i in range(19)]
    orders = [floor.rotated(names, r, floor.ROUNDS) for r in range(floor.ROUNDS)]
    assert all(sorted(order) == sorted(names) for order in orders)          # each timed once a round
    firsts = [order[0] for order in orders]
    assert len(set(firsts)) == floor.ROUNDS                                  # a new head every round
    assert len({order.index("s0") for order in orders}) == floor.ROUNDS      # the floor moves too


def _check_rows(floor_rounds, twin_rounds):
    rows = []
    for name, rounds in (("floor", floor_rounds), ("99", twin_rounds)):
        rows.append({"strategy": name, "m": 1024, "k": 1024, "l": 1, "mode": "clean", "floor_config": "",
                     "mean_us": pd.Series(rounds).median(), "min_round_us": min(rounds),
                     "max_round_us": max(rounds), "rounds": len(rounds),
                     "round_us": ";".join(f"{v:.4f}" for v in rounds)})
    return pd.DataFrame(rows)


def test_the_check_compares_the_floor_with_a_strategy_within_each_round():
    # The GPU is slow for five rounds, and turns fast in round 4 between the floor and its twin: the
    # medians are 7% apart (a ratio of medians would fail the floor), while round by round the two
    # agree in eight rounds of nine.
    floor_rounds = [4.8] * 5 + [4.5] * 4
    twin_rounds = [4.8] * 4 + [4.5] * 5
    verdict = floor.verdicts(_check_rows(floor_rounds, twin_rounds)).iloc[0]
    assert verdict.floor_us / verdict.best_other_us > 1 + floor.TOLERANCE
    assert verdict.holds and verdict.floor_over_best == 1.0
    # Rounds drifting by 7%: a floor 1% slower than the other in every round holds, 3% fails.
    drifting = [4.80, 4.82, 4.81, 4.50, 4.52, 4.55, 4.80, 4.81, 4.79]
    verdict = floor.verdicts(_check_rows(drifting, [v / 1.01 for v in drifting])).iloc[0]
    assert verdict.holds and abs(verdict.floor_over_best - 1.01) < 1e-3
    verdict = floor.verdicts(_check_rows(drifting, [v / 1.03 for v in drifting])).iloc[0]
    assert not verdict.holds and abs(verdict.floor_over_best - 1.03) < 1e-3


def test_round_effects_separate_the_drift_every_strategy_shares_from_the_rest():
    drift = [4.0, 4.2, 4.0, 4.2]                  # every strategy 5% slower in rounds 1 and 3
    df = _check_rows(drift, [2 * v for v in drift])
    effects = floor.round_effects(df).iloc[0]
    assert abs(effects.shared_range_pct - 100 * math.log(1.05)) < 1e-9
    assert effects.rest_sd_pct < 1e-9
    noisy = [4.0, 4.2, 4.0, 4.2]
    noisy[0] = 4.2                                 # one strategy alone slow in round 0
    assert floor.round_effects(_check_rows(noisy, [2 * v for v in drift])).iloc[0].rest_sd_pct > 1


def test_a_check_of_some_shapes_replaces_only_their_recorded_rows(tmp_path, monkeypatch):
    monkeypatch.setattr(floor, "RESULTS_DIR", tmp_path)
    monkeypatch.setattr(floor, "path", lambda gpu: tmp_path / f"{gpu}-floor.csv")

    def rows(shapes, sha):
        return pd.DataFrame([{**{c: "" for c in floor.COLUMNS}, "strategy": "floor", "m": m, "k": k, "l": l,
                              "mode": "clean", "mean_us": 1.0, "git_sha": sha} for m, k, l in shapes])

    floor.record("gpu", rows([(128, 1024, 1), (256, 2048, 2)], "first"))
    floor.record("gpu", rows([(256, 2048, 2)], "second"))
    recorded = floor.load("gpu").set_index(["m", "k", "l"]).git_sha
    assert recorded.to_dict() == {(128, 1024, 1): "first", (256, 2048, 2): "second"}
