"""The floor's choice of configuration, without a GPU: kernels and timings are stand-ins."""
from types import SimpleNamespace

import pandas as pd

from common import floor


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
    chosen = floor.Floor().kernel(None, (128, 16384, 1), "clean")
    assert chosen.config == "LOAD_HINT=2"
    assert set(calls.values()) == {floor.CHOICE_PASSES}    # every configuration, every pass


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
