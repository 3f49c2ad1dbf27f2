"""Every measured figure in the prose is generated (contract 8): no generated fragment is stale,
and no measured-looking number is typed by hand in the sections that report measurements."""
import re
import statistics

import pytest

from common import attempts, fragments, reports, results
from common.build import REPO

# A figure with a unit of measurement: 52.7 us, 1,370 GB/s, 1.49x, 40.9%.
MEASURED = re.compile(r"(?<![\w.])\d[\d,]*(\.\d+)?\s?(us|µs|GB/s|TB/s|x\b|%)")
# An attempt's name that reads like a ratio (84x) is not a figure.
ATTEMPT_NAMES = {a.number for a in attempts.all_attempts()}
# Sentences that may carry typed numbers: the seeds' B200 figures, predictions, datasheets.
EXEMPT = re.compile(r"B200|seed|[Pp]redict|datasheet|REFERENCE|measured elsewhere|outside", re.S)
REPORTING_SECTIONS = ("## Result", "## Profile", "## Lesson")


def test_no_generated_fragment_is_stale():
    stale = [str(p.relative_to(REPO)) for p in fragments.stale()]
    assert not stale, f"run `make table`: stale generated parts in {stale}"


def test_every_gpu_with_results_appears_in_the_readme_tables():
    text = (REPO / "README.md").read_text()
    for gpu in results.gpus():
        assert f"results/{gpu}.csv" in text


def reporting_text(path):
    """The parts of a document that report measurements, with generated parts removed."""
    text = fragments.FRAGMENT.sub("", path.read_text())
    text = re.sub(r"<!-- results:begin -->.*?<!-- results:end -->", "", text, flags=re.S)
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    if path.parent.parent.name == "attempts":
        sections = re.split(r"^(?=## )", text, flags=re.M)
        text = "".join(s for s in sections if s.startswith(REPORTING_SECTIONS))
    return text


def hand_typed(path) -> list[str]:
    typed = []
    for sentence in re.split(r"(?<=[.;:])\s+|\n\s*\n", reporting_text(path)):
        figures = [m.group(0) for m in MEASURED.finditer(sentence) if m.group(0) not in ATTEMPT_NAMES]
        if figures and not EXEMPT.search(sentence):
            typed.append(" ".join(sentence.split())[:160])
    return typed


def test_an_attempt_named_like_a_ratio_is_not_a_typed_figure(tmp_path):
    # 84x is an attempt; 1.30x and 84 x are figures
    doc = tmp_path / "doc.md"
    doc.write_text("84x beside 84w.\n\n84x reads it at 1.30x.\n\nIt took 84 x the time.\n")
    assert hand_typed(doc) == ["84x reads it at 1.30x.", "It took 84 x the time."]


@pytest.mark.parametrize("path", fragments.documents(), ids=lambda p: str(p.relative_to(REPO)))
def test_no_measured_number_is_typed_by_hand(path):
    typed = hand_typed(path)
    assert not typed, f"{len(typed)} hand-typed figures (use <!-- gen:fig ... -->): {typed[:5]}"


def test_a_figure_reads_a_shape_off_the_benchmark_and_a_geomean_only_the_benchmark():
    # 26 has rows on the small shapes; the geomean of 26 must not change with them.
    small = fragments.fig("h100", "26", "us", "128x16384x1", "clean")
    rows = fragments._rows("h100", "26", "clean")
    assert float(small) == round(float(rows[rows["shape"] == "128x16384x1"].mean_us.iloc[0]), 2)
    bench = rows[rows["shape"].isin(fragments.BENCH)]
    assert fragments.fig("h100", "26", "us", "geomean", "clean") == \
        f"{statistics.geometric_mean(bench.mean_us):,.2f}"


def test_x_floor3_is_x_floor_to_three_decimals():
    three = fragments.fig("h100", "26", "x_floor3", "geomean", "clean")
    two = fragments.fig("h100", "26", "x_floor", "geomean", "clean")
    assert len(three.split(".")[1]) == 3
    assert abs(float(three) - float(two)) <= 0.0051


def test_a_probe_figure_is_the_cell_its_probe_table_shows():
    # strategy spaces as underscores in the spec; the value as the table prints it
    value = fragments.fig("h200", "2_rows_multiplied", "probe:math-fraction", "7168x16384x1", "clean")
    table = fragments.reports.probe_table("math-fraction", "h200")
    row = next(line for line in table.splitlines() if line.startswith("| 7168x16384x1 | clean |"))
    header = next(line for line in table.splitlines() if line.startswith("| shape |"))
    column = [c.strip() for c in header.split("|")].index("2 rows multiplied")
    assert value == [c.strip() for c in row.split("|")][column]
    with pytest.raises(fragments.FragmentError):
        fragments.fig("h200", "no_such_strategy", "probe:math-fraction", "7168x16384x1", "clean")


def test_a_probe_median_figure_is_the_cell_its_probe_medians_table_shows():
    # clock_by_pipe's rows are calls: the figure picks them by their key columns, as the table groups
    value = fragments.fig("h200", "cycles=40000&strategy=QGMMA_e4m3", "probe-median:clock-by-pipe:sm_ghz", "3")
    table = fragments.reports.probe_medians_table("clock-by-pipe", "h200", "cycles,strategy", "sm_ghz:3")
    row = next(line for line in table.splitlines() if line.startswith("| 40000 | QGMMA e4m3 |"))
    assert value == [c.strip() for c in row.split("|")][3] and row.endswith("| 7 |")
    with pytest.raises(fragments.FragmentError):
        fragments.fig("h200", "cycles=40000&strategy=no_such_pipe", "probe-median:clock-by-pipe:sm_ghz", "3")
    # a key's value with underscores of its own (loop_spans' groups "slot_rank") matches as written
    by_place = fragments.fig("h200", "kernel=93zc,_loops_stamped&m=7168&k=16384&mode=clean&by=slot_rank&value=0",
                             "probe-median:loop-spans-schedulers:end_p50_share", "3")
    medians = fragments.reports.probe_medians("loop-spans-schedulers", "h200", ["kernel", "m", "mode", "by", "value"],
                                              ["end_p50_share"])
    (cell,) = medians[(medians.kernel == "93zc, loops stamped") & (medians.m == "7168") & (medians["mode"] == "clean") &
                      (medians.by == "slot_rank") & (medians.value == "0")].end_p50_share
    assert by_place == f"{cell:.3f}"


def test_a_ring_timeline_figure_gives_the_sm_clock_in_ghz_and_the_times_in_ns():
    # the SM clock's rate over the call is a fraction of a GHz apart between kernels: two decimals
    ghz = fragments.fig("h200", "84q,_stamped", "ring-timeline:ring-split-tail-spans:sm_ghz", "7168x2048x4", "clean")
    rows = fragments.reports.timeline_rows("h200", "ring-split-tail-spans")
    hit = rows[(rows.kernel == "84q, stamped") & (rows.m == 7168) & (rows.k == 2048) & (rows["mode"] == "clean")]
    assert ghz == f"{hit.sm_ghz.iloc[0]:.2f}" and 1.0 < float(ghz) < 2.5
    assert fragments.fig("h200", "84q,_stamped", "ring-timeline:ring-split-tail-spans:tail_ns", "7168x2048x4", "clean") == \
        f"{hit.tail_ns.iloc[0]:,.0f}"


def test_a_room_figure_gives_the_warps_held_as_its_table_does():
    # timeline.py room: the warps held while blocks wait have one decimal in the table and the prose
    held = fragments.fig("h200", "95a", "room:held_while_waiting", "7168x2048x4", "clean")
    assert f"| 7168x2048x4 | clean | 95a | 1 | 7,168 | 32 | 0 | 0 | {held} |" in fragments.reports.room_table("h200")
    assert fragments.fig("h200", "95a", "room:blocks", "7168x2048x4", "clean") == "7,168"


def _row(m: int) -> dict:
    """A recorded row of 76 on a made-up GPU, M = m, every other text field empty."""
    return {c: "" for c in results.COLUMNS} | {
        "attempt": "76", "m": m, "k": 1024, "l": 1, "mode": "clean", "data": "gpumode",
        "mean_us": 2.0, "floor_us": 1.0, "sol_us": 1.0, "runs": 10}


def test_the_kept_copies_of_the_results_follow_each_new_row(tmp_path, monkeypatch):
    # results.load and reports.main_rows keep one parse per version of the file; a row recorded
    # after a read must show in the next read, however soon it comes
    monkeypatch.setattr(results, "RESULTS_DIR", tmp_path)
    results.record("testgpu", [_row(128)])
    assert len(results.load("testgpu")) == 1 and len(reports.main_rows("testgpu", every_shape=True)) == 1
    results.record("testgpu", [_row(256)])
    assert len(results.load("testgpu")) == 2
    assert list(reports.main_rows("testgpu", every_shape=True)["shape"]) == ["128x1024x1", "256x1024x1"]


def test_a_row_with_a_missing_text_field_replaces_the_row_of_its_key(tmp_path, monkeypatch):
    # rows brought back from a device run are re-recorded from their CSV, where an empty config
    # reads as missing; it must still meet the recorded row's key ("") and replace it
    monkeypatch.setattr(results, "RESULTS_DIR", tmp_path)
    results.record("testgpu", [_row(128)])
    results.record("testgpu", [_row(128) | {"config": None, "mean_us": 3.0}])
    df = results.load("testgpu")
    assert len(df) == 1 and df.mean_us.iloc[0] == 3.0 and df.config.iloc[0] == ""
