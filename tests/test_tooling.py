"""The entry points behave for a newcomer: clear one-line errors, no needless environment,
stable test ids, an installable package."""
import importlib
import re
import subprocess
import sys

import pandas as pd
import pytest
import torch

from common import attempts, cli, problem, reports, results
from common.build import REPO


def test_diff_needs_only_git_and_compares_with_the_parent_in_the_front_matter():
    out = subprocess.run([str(REPO / "scripts" / "diff-attempt.sh"), "07"], capture_output=True,
                         text=True, cwd=REPO, check=True).stdout
    parent = attempts.find("07").parent
    assert f"a/attempts/{parent.name}/kernel.cu" in out.splitlines()[0]
    assert "$(ENV)" not in re.search(r"^diff-%:.*$", (REPO / "Makefile").read_text(), re.M).group(0)


def test_diff_of_an_attempt_without_parent_says_so_in_one_line():
    proc = subprocess.run([str(REPO / "scripts" / "diff-attempt.sh"), "01"], capture_output=True,
                          text=True, cwd=REPO)
    assert proc.returncode == 2 and proc.stderr.strip() == "error: attempt 01 has no parent to diff against"


def test_submission_of_a_python_attempt_is_a_one_line_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["submission", "00a"])
    assert str(exit_info.value).startswith("error: attempt 00a is a Python attempt")


def test_make_test_reports_failures_and_skips():
    line = re.search(r"^\t.*-m pytest.*$", (REPO / "Makefile").read_text(), re.M).group(0)
    assert not re.search(r"\s-r\w", line), "a -r flag on the command line overrides pyproject's -ra"


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the message shown without a GPU")
def test_generate_input_without_a_gpu_says_to_ask_for_the_cpu():
    with pytest.raises(RuntimeError, match="device='cpu'"):
        problem.generate_input(128, 64, 1, seed=0)
    assert problem.generate_input(128, 64, 1, seed=0, device="cpu")[0].device.type == "cpu"


def test_gpu_test_ids_are_the_same_on_every_collection():
    def ids():
        out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                              "tests/test_gpu_attempts.py"], capture_output=True, text=True, cwd=REPO).stdout
        return [line for line in out.splitlines() if "::" in line]
    first = ids()
    assert first and first == ids()


def test_the_harness_is_an_installable_package():
    text = (REPO / "pyproject.toml").read_text()
    assert "[build-system]" in text and 'packages = ["common"]' in text


def test_clock_events_names_every_reason_any_sample_had():
    # results/probes/clocks-under-load-*.csv keep nvidia-smi's bit masks, one per sample seen
    assert reports.clock_events("0x0000000000000000") == "none"
    assert reports.clock_events("0x0000000000000000;0x0000000000000004") == "power cap"
    assert reports.clock_events("0x0000000000000024") == "power cap, software thermal"
    assert reports.clock_events("") == "none"


def test_load_path_finds_76s_products_after_its_wait_for_a():
    # 93 without the scale runs is 76's split kernel: its products all run once A has come
    from scripts import load_path
    counts = load_path.path_counts("93")
    [(length, split, before, after, _)] = counts[next(n for n in counts if "ILb0ELb0E" in n)]
    assert 0 < split < length
    assert before["window_dot > rows_dot"] == 0 and after["window_dot > rows_dot"] > 100
    assert before["window_dot > b_window"] > after["window_dot > b_window"]


def test_load_path_counts_the_single_window_loop_beside_the_pairs():
    # 93's kernel with the runs holds the pairs' loop and then the single-window loop, which ptxas
    # schedules with all of B's decode before the wait for A (the schedule 95 gives the H200)
    from scripts import load_path
    counts = load_path.path_counts("93")
    pairs, single = counts[next(n for n in counts if "ILb0ELb1E" in n)]
    assert pairs[2]["load_scale_runs"] > 0 and pairs[0] > single[0]
    assert single[3]["window_dot > b_window"] == 0 and single[2]["window_dot > b_window"] > 0


def test_load_path_finds_a_loaded_at_the_top_of_both_schedules():
    # closing-the-gap section 57 rests on this: 95's schedule (the H200's loss) sends A's four
    # loads no later in a window than 76's does; the schedules differ after them
    from scripts import load_path
    counts = load_path.path_counts("93")
    [(_, split_76, _, _, loads_76)] = counts[next(n for n in counts if "ILb0ELb0E" in n)]
    _, (_, split_95, _, _, loads_95) = counts[next(n for n in counts if "ILb0ELb1E" in n)]
    assert len(loads_76) == len(loads_95) == 4
    assert max(loads_95) <= max(loads_76) < 50 and split_95 > split_76


def test_load_path_waits_show_97s_first_row_on_a_scoreboard_of_its_own():
    # 97's README and closing-the-gap section 54 rest on this: in the single-window loop of the
    # kernel without a short window, 95 waits for its four rows at once, 97 for its first row earlier
    from scripts import load_path

    def single_window_loop(number):
        waits = load_path.a_load_waits(number)
        return waits[next(n for n in waits if "ILb0E" in n)][-1]
    boards, waits = single_window_loop("95")
    assert len(set(boards)) == 1 and len(set(waits)) == 1
    boards, waits = single_window_loop("97")
    assert boards[0] not in boards[1:] and waits[0] < min(waits[1:])


@pytest.mark.parametrize("number, message", [("nosuch", "no attempt 'nosuch'"),
                                             ("00a", "has no CUDA kernel for compute-sanitizer")])
def test_sanitize_refuses_a_bad_attempt_in_one_line_before_looking_for_a_gpu(number, message):
    out = subprocess.run([sys.executable, "profiles/sanitize.py", number], cwd=REPO, capture_output=True, text=True)
    lines = out.stderr.strip().splitlines()
    assert out.returncode != 0 and len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines


def test_load_path_refuses_an_attempt_without_sass_in_one_line():
    out = subprocess.run([sys.executable, "scripts/load_path.py", "00a"], cwd=REPO, capture_output=True, text=True)
    assert out.returncode != 0 and out.stderr.strip().splitlines() == [
        "error: 00a-torch-eager is not a CUDA attempt: it has no SASS to read"]


def test_the_commit_measured_takes_the_gpu_machines_word_for_clean_or_dirty(monkeypatch):
    monkeypatch.setenv("NVFP4_GIT_SHA", "abc123")
    monkeypatch.setattr(results, "_run", lambda *cmd: " M common/results.py")   # the stale .git
    monkeypatch.setenv("NVFP4_GIT_DIRTY", "0")
    assert results.git_sha() == "abc123"
    monkeypatch.setenv("NVFP4_GIT_DIRTY", "1")
    assert results.git_sha() == "abc123-dirty"
    monkeypatch.delenv("NVFP4_GIT_DIRTY")
    assert results.git_sha() == "abc123-dirty"
    monkeypatch.setattr(results, "_run", lambda *cmd: "")
    assert results.git_sha() == "abc123"


def test_the_timeline_table_gives_each_run_its_rows_and_its_own_provenance():
    # results/probes/timeline-h100.csv holds two runs: the one-window shapes' and `timeline.py pairs`
    rows = reports.timeline_rows("h100")
    blocks = reports.timeline_table("h100").split("| shape | mode | kernel |")[1:]
    assert rows.git_sha.nunique() == len(blocks) > 1
    for sha, run in rows.groupby("git_sha"):
        block = next(b for b in blocks if f"commit {sha}" in b)
        assert sum(line.startswith("| ") for line in block.splitlines()) == len(run)


def test_the_timeline_room_count_sees_a_block_start_in_a_departed_warps_room():
    # scripts/probes/timeline.py room: per block start, the warp places held by the blocks on the
    # SM whose last warp has not ended, and by the block itself (records in warp order, 8 a block)
    from scripts.probes.timeline import room
    blocks = [(0, 100, 100), (0, 100, 100), (0, 100, 100), (0, 30, 100), (50, 200, 200)]  # start, first end, last end
    warps = pd.DataFrame([{"sm": 0, "start": start, "end": first if w == 1 else last}
                          for start, first, last in blocks for w in range(8)])
    held = room(warps, 8)
    assert (held["blocks"], held["most_places_held"], held["starts_beyond_32"]) == (5, 40, 1)
    # the same blocks with the fifth starting once the fourth has ended: no start beyond 32
    late = warps.assign(start=warps.start.where(warps.start != 50, 150), end=warps.end.where(warps.end != 200, 300))
    assert room(late, 8)["starts_beyond_32"] == 0
    # from the first block's end (100) to the last block's start (120) one block of 8 is held
    waiting = pd.DataFrame([{"sm": 0, "start": start, "end": end}
                            for start, end in [(0, 100), (0, 100), (50, 200), (120, 250)] for _ in range(8)])
    assert room(waiting, 8)["held_while_waiting"] == 8


def test_the_ring_timeline_measures_a_blocks_fill_from_its_own_start():
    # scripts/probes/ring_timeline.py: a ring block's fill is its first stage's arrival after its
    # start, in ns (here one SM clock a ns: the global timer's span equals the clocks'), and its
    # tail the end after its last stage's arrival
    from scripts.probes.ring_timeline import ring_summary
    blocks = pd.DataFrame([{"sm": sm, "global_start": 0, "start": 0, "first_arrival": fill, "last_arrival": 500,
                            "end": 600, "global_end": 600} for sm, fill in ((0, 100), (1, 300), (2, 200))])
    row = ring_summary(blocks)
    assert (row["fill_ns"], row["fill_max_ns"], row["tail_ns"]) == (200, 300, 100)


def test_the_ring_fill_reads_b_s_first_share_from_the_records_spare_word():
    # scripts/probes/ring_fill.py: 84q's record with RING_B_STAMP keeps the B warp's clock in its
    # spare word; records() counts it from the SM's first start like the other clocks, and the B
    # fill is its hand-over after the block's start (here one SM clock a ns)
    from scripts.probes.ring_fill import FILL_CLOCKS, FILL_FIELDS, fill_summary
    from scripts.probes.timeline import records
    words = [[sm + 1, 0, 1000, 1000 + fill, 1500, 1600, 600, 1000 + b] for sm, fill, b in ((0, 100, 90), (1, 300, 40), (2, 200, 60))]
    blocks = records(torch.tensor(words, dtype=torch.int64).flatten(), FILL_FIELDS, FILL_CLOCKS)
    row = fill_summary(blocks)
    assert (row["fill_ns"], row["b_fill_ns"], row["b_fill_max_ns"]) == (200, 60, 90)


def test_a_later_timeline_run_replaces_only_its_own_kernels_on_its_own_shapes():
    # timeline.py pairs and bytes add their rows to timeline-<gpu>.csv: a kernel they run again on
    # a shape they run replaces its old rows; other kernels, and the same kernel on other shapes, stay
    from scripts.probes.timeline import joined
    old = pd.DataFrame([{"kernel": kernel, "m": m, "k": 4096, "l": 1, "call_ns": 1}
                        for kernel in ("95a", "floor") for m in (4096, 8192)])
    new = pd.DataFrame([{"kernel": "95a", "m": 4096, "k": 4096, "l": 1, "call_ns": 2}])
    rows = joined(old, new, [(4096, 4096, 1)])
    assert sorted(zip(rows.kernel, rows.m, rows.call_ns)) == [("95a", 4096, 2), ("95a", 8192, 1),
                                                              ("floor", 4096, 1), ("floor", 8192, 1)]


def test_a_probe_checks_its_builds_but_not_the_ones_that_compute_nothing(monkeypatch):
    # scripts/probes/probe.py: check_and_record times `unchecked` builds (a ring with its products
    # left out) beside the checked ones, and checks only the others against the reference.
    from scripts.probes import probe
    seen = {}
    monkeypatch.setattr(probe, "check_builds", lambda builds, shapes: seen.setdefault("checked", set(builds)))
    monkeypatch.setattr(probe, "record", lambda name, builds, shapes: seen.setdefault("timed", set(builds)))
    probe.check_and_record("p", {"84q": None}, [], [], unchecked={"84q without products": None})
    assert seen == {"checked": {"84q"}, "timed": {"84q", "84q without products"}}


@pytest.mark.parametrize("script, probe, checked", [
    ("split_joins", "split-joins", ["93f", "84q", "84r"]),
    ("pieces_waited", "pieces-waited", ["93f", "84q", "84r", "84s"]),
    ("waited_plain", "waited-plain", ["93f", "84q", "84s", "84s, plain launch"]),
    ("pieces_ahead", "pieces-ahead", ["93f", "84q", "84s", "84t"]),
    ("split_once", "split-once", ["93f", "84q", "84s", "84t", "84u"])])
def test_the_ring_join_probes_check_their_attempts_and_only_time_the_unjoined_ring(monkeypatch, script, probe, checked):
    # each probe of closing-the-gap section 78 checks its builds in this order (its table's
    # columns) and times 84r without joins (wrong sums) unchecked, under its own name
    import importlib
    from scripts.probes import split_joins
    calls = []
    monkeypatch.setattr(split_joins, "check_and_record",
                        lambda name, builds, check_shapes, shapes, unchecked: calls.append((name, list(builds), list(unchecked))))
    importlib.import_module(f"scripts.probes.{script}").main()
    assert calls == [(probe, checked, ["84r without joins"])]


def test_rows_split_checks_84v_beside_the_unjoined_ring_then_stamps_it(monkeypatch):
    # scripts/probes/rows_split.py: 84v checked and timed as the ring join probes time theirs (84r
    # without joins unchecked), then stamped beside the floor's read under its own name
    from scripts.probes import rows_split, split_joins
    calls = []
    monkeypatch.setattr(split_joins, "check_and_record",
                        lambda name, builds, check_shapes, shapes, unchecked: calls.append((name, list(builds), list(unchecked))))
    monkeypatch.setattr(rows_split, "stamped_timeline", lambda ring, name: calls.append((ring.number, name)))
    rows_split.main()
    assert calls == [("rows-split", ["93f", "84q", "84v"], ["84r without joins"]), ("84v", "rows-split-timeline")]


def test_rows_depth_checks_every_build_it_times():
    # scripts/probes/rows_depth.py: 84q and 84v in their 3 stages and in 4, beside 93f, all checked
    # against the reference before they are timed (none computes a wrong answer on purpose)
    from scripts.probes import rows_depth
    assert list(rows_depth.builds()) == ["93f", "84q", "84v", "84q, 4 stages", "84v, 4 stages"]
    assert rows_depth.builds()["84v, 4 stages"][1] == {"STAGES": 4}


def test_the_ring_timeline_table_shows_each_stamped_run_and_no_fill_for_the_floor():
    # common/reports.py ring_timeline_table: a ring's stamped rows beside the floor's, by the name its
    # probe recorded them under; the floor's read has no ring fill (blank in the CSV), shown as "-"
    table = reports.ring_timeline_table("h200", "rows-split-timeline")
    rows = [line.split(" | ") for line in table.splitlines() if line.startswith("| 28672x4096x1 | clean")]
    assert [row[2] for row in rows] == ["84v, stamped", "floor"]
    assert rows[1][4] == "-" and rows[0][4] != "-"
    assert reports.ring_timeline_table("h200", "no-such-run").startswith("_No no-such-run probe")


def test_the_ring_fill_table_shows_b_s_first_share_before_the_first_stage():
    # common/reports.py ring_fill_table on the committed run: per shape and mode 84q's fill and its
    # B fill (median, last SM's in brackets), a hand-over no later than the stage it is part of
    table = reports.ring_fill_table("h200")
    rows = [line.split(" | ") for line in table.splitlines() if line.startswith("| 7168x2048x4 |")]
    assert [row[1] for row in rows] == ["gpumode", "clean"]
    for row in rows:
        fill, b_fill = float(row[4]), float(row[5].split()[0])
        assert 0 < b_fill <= fill, row


def test_the_ring_spans_table_shows_what_lies_outside_each_kernels_blocks():
    # common/reports.py ring_spans_table: per kernel the events' time, the span and what lies
    # outside it (each the median over the calls: the outside is not the medians' difference), the
    # floor beside the rings
    table = reports.ring_spans_table("h200", "ring-spans")
    rows = [line.split(" | ") for line in table.splitlines() if line.startswith("| 4096x14336x1 | clean")]
    assert [row[2] for row in rows] == ["84q, stamped", "84v, stamped", "84w, stamped", "floor"]
    for row in rows:
        event, span, outside = (float(cell) for cell in row[3:6])
        assert span < event and 0 < outside < event, row
    assert reports.ring_spans_table("h200", "no-such-run").startswith("_No no-such-run probe")


def _recorded(monkeypatch, probe, **also) -> list:
    """A probe script's main() run with check_and_record (and any other names in `also`) replaced:
    what it would have checked and timed, as (name, checked build names, unchecked builds)."""
    calls = []
    monkeypatch.setattr(probe, "check_and_record",
                        lambda name, builds, check_shapes, shapes, unchecked: calls.append((name, list(builds), unchecked)))
    for attribute, stand_in in also.items():
        monkeypatch.setattr(probe, attribute, lambda *args, stand_in=stand_in: calls.append(stand_in(*args)))
    probe.main()
    return calls


@pytest.mark.parametrize("script, checked, without", [("rows_alone", ["93f", "84q", "84v"], ["84q", "84v"]),
                                                       ("folds_alone", ["93f", "84v", "84w"], ["84v", "84w"])])
def test_a_ring_without_products_is_timed_unchecked(monkeypatch, script, checked, without):
    # scripts/probes/rows_alone.py and folds_alone.py: their builds checked; the rings named with
    # their products left out (wrong sums) timed beside them only
    import importlib
    probe = importlib.import_module(f"scripts.probes.{script}")
    (name, builds, unchecked), = _recorded(monkeypatch, probe)
    assert name == script.replace("_", "-") and builds == checked
    assert list(unchecked) == [f"{n} without products" for n in without]
    assert all(defines == {"RING_PRODUCTS": 0} for _, defines in unchecked.values())


def test_copies_alone_times_93zes_copies_without_products_unchecked(monkeypatch):
    # scripts/probes/copies_alone.py: 93f and 93ze checked; 93ze's copies folded instead of
    # multiplied (wrong answers) timed beside them only, one, two and no windows ahead
    from scripts.probes import copies_alone
    (name, builds, unchecked), = _recorded(monkeypatch, copies_alone)
    assert name == "copies-alone" and builds == ["93f", "93ze"]
    assert [defines for _, defines in unchecked.values()] == [
        {"COPIES_ALONE": 1}, {"COPIES_ALONE": 1, "WINDOWS_AHEAD": 2}, {"COPIES_ALONE": 1, "STAGED_AHEAD": 0}]


def test_tail_grid_checks_and_times_93q_beside_93f_and_its_controls(monkeypatch):
    # scripts/probes/tail_grid.py: 93f and 93q, and 93q's controls by TAIL_GRID (the tail launched
    # after the first grid, one-window parts on every tile, no tail), every one checked and timed
    from scripts.probes import tail_grid
    (name, builds, unchecked), = _recorded(monkeypatch, tail_grid)
    assert name == "tail-grid" and builds == ["93f", "93q", "93q, tail launched after", "one-window parts everywhere",
                                              "93q without its tail"] and not unchecked
    assert [d and d["TAIL_GRID"] for _, d in tail_grid.BUILDS.values()] == [None, None, 2, 3, 0]
    assert {s for s in tail_grid.CHECK_SHAPES if s[1] % 1024} == {(16384, 2112, 2)}


def test_tail_for_long_warps_checks_and_times_93r_beside_93f_and_93q(monkeypatch):
    # scripts/probes/tail_for_long_warps.py: the three attempts' own builds, checked, then timed on
    # shapes with and without 93r's tail (a short window among the checked ones)
    from scripts.probes import tail_for_long_warps
    (name, builds, unchecked), = _recorded(monkeypatch, tail_for_long_warps)
    assert name == "tail-for-long-warps" and builds == ["93f", "93q", "93r"] and not unchecked
    assert (7168, 2048, 4) in tail_for_long_warps.SHAPES and any(k % 1024 for _, k, _ in tail_for_long_warps.CHECK_SHAPES)


def test_ring_split_tail_checks_and_times_84zd_beside_84q_and_93f(monkeypatch):
    # scripts/probes/ring_split_tail.py: the three attempts' own builds, checked (a split tail over
    # two batches among the shapes), then timed
    from scripts.probes import ring_split_tail
    (name, builds, unchecked), = _recorded(monkeypatch, ring_split_tail)
    assert name == "ring-split-tail" and builds == ["93f", "84q", "84zd"] and not unchecked
    assert (128, 4096, 200) in ring_split_tail.CHECK_SHAPES and (7168, 2048, 4) in ring_split_tail.SHAPES
    # with `spans`: 84q and 84zd stamped, nothing checked or timed in rounds
    monkeypatch.setattr(ring_split_tail.sys, "argv", ["ring_split_tail.py", "spans"])
    assert _recorded(monkeypatch, ring_split_tail, spans=lambda rings, name: (rings, name)) == [(("84q", "84zd"), "ring-split-tail-spans")]


def test_clock_by_pipe_reads_the_clock_rate_over_the_written_blocks_across_a_wrap():
    # scripts/probes/clock_by_pipe.py: all written blocks' cycles over their nanoseconds, the 32-bit
    # counters' differences taken modulo 2^32, unwritten blocks (SM word 0) left out
    import torch
    from scripts.probes.clock_by_pipe import WORDS, sm_ghz
    blocks = [[1, 100, 2**32 - 1000, 3000, 2100, 0],   # 4000 cycles across the wrap, 2000 ns
              [2, 2**32 - 500, 10, 2010, 500, 0],      # 2000 cycles, 1000 ns across the wrap
              [0, 0, 0, 99999, 1, 0]]                  # not written
    records = torch.tensor([w - 2**32 if w >= 2**31 else w for b in blocks for w in b], dtype=torch.int32)
    assert len(blocks[0]) == WORDS and sm_ghz(records) == 2.0


def test_split_tail_an_sm_checks_and_times_84ze_beside_84zd_then_stamps_both(monkeypatch):
    # scripts/probes/split_tail_an_sm.py: ring_split_tail's shapes, 84ze added to its attempts; with
    # `spans`, 84zd and 84ze stamped
    from scripts.probes import split_tail_an_sm
    (name, builds, unchecked), = _recorded(monkeypatch, split_tail_an_sm)
    assert name == "split-tail-an-sm" and builds == ["93f", "84q", "84zd", "84ze"] and not unchecked
    monkeypatch.setattr(split_tail_an_sm.sys, "argv", ["split_tail_an_sm.py", "spans"])
    assert _recorded(monkeypatch, split_tail_an_sm, spans=lambda rings, name: (rings, name)) == [(("84zd", "84ze"), "split-tail-an-sm-spans")]


def test_split_tail_of_eight_checks_and_times_84zf_and_84zg_beside_84zd_then_stamps_the_three(monkeypatch):
    # scripts/probes/split_tail_of_eight.py: ring_split_tail's shapes, 84zf and 84zg beside 84zd;
    # with `spans`, 84zd, 84zf and 84zg stamped
    from scripts.probes import split_tail_of_eight
    (name, builds, unchecked), = _recorded(monkeypatch, split_tail_of_eight)
    assert name == "split-tail-of-eight" and builds == ["93f", "84q", "84zd", "84zf", "84zg"] and not unchecked
    monkeypatch.setattr(split_tail_of_eight.sys, "argv", ["split_tail_of_eight.py", "spans"])
    assert _recorded(monkeypatch, split_tail_of_eight, spans=lambda rings, name: (rings, name)) == [
        (("84zd", "84zf", "84zg"), "split-tail-of-eight-spans")]


def test_register_quarters_counts_a_block_beside_when_it_starts_before_the_sms_first_block_ends():
    # scripts/probes/register_quarters.py: a second-grid block is beside if it starts before the end
    # of the first grid's block on its SM, counted per SM
    import numpy as np
    from scripts.probes.register_quarters import summary
    first = np.array([[1, 0, 100, 7], [2, 0, 200, 7]])
    second = np.array([[1, 50, 0, 7], [1, 100, 0, 7], [2, 150, 0, 7], [2, 199, 0, 7], [2, 10, 0, 7]])
    assert summary(first, second) == {"beside_share": 0.8, "beside_max_per_sm": 3, "beside_median_per_sm": 2.0}


def test_carveout_checks_93fs_builds_and_times_the_floors_read_unchecked(monkeypatch):
    # scripts/probes/carveout.py: 93f and its carveout builds checked; 99's plain and carveout
    # builds timed beside them unchecked (they compute no answer); each variant names what it
    # includes, so an edit to the included attempt rebuilds it
    from scripts.probes import carveout
    (name, builds, unchecked), = _recorded(monkeypatch, carveout)
    assert name == "carveout" and builds == ["93f", "93f, carveout 0%", "93f, carveout 100%"]
    assert list(unchecked) == ["99", "99, carveout 0%", "99, carveout 100%"]
    _, defines = carveout.UNCHECKED["99, carveout 100%"]
    assert defines["CARVEOUT_OF"] == 1 and defines["CARVEOUT"] == 100 and "INCLUDED_SOURCE" in defines


def test_register_quarters_waves_average_the_warps_held_while_blocks_wait():
    # scripts/probes/register_quarters.py waves: per SM, the warps resident on average from its
    # first block's end to its last block's start; an SM whose blocks never waited is left out
    import numpy as np
    from scripts.probes.register_quarters import resident_warps
    records = np.array([[1, 0, 10, 0], [1, 0, 20, 0], [1, 12, 30, 0], [1, 20, 30, 0],   # 1 warp on [10, 12), 2 on [12, 20]
                        [2, 0, 10, 0], [2, 5, 10, 0]])
    assert resident_warps(records, 4).to_dict() == {1: 4 * (2 * 1 + 8 * 2) / 10}


@pytest.mark.parametrize("script, probe, builds", [
    ("four_tiles_a_block", "four-tiles-a-block", {"93f": None, "93s": None, "93s, one tile a block": {"TILES_A_BLOCK": 1}}),
    ("signs_at_use", "signs-at-use", {"93f": None, "93t": None, "93": None, "94": None}),
    ("resident_tiles", "resident-tiles", {"93f": None, "93u": None, "93u, a block a tile": {"RESIDENT": 0}}),
    ("signs_by_rule", "signs-by-rule", {"93f": None, "93w": None}),
    ("next_window_in_l1", "next-window-in-l1", {"93f": None, "93x": None, "93x, nothing ahead": {"WINDOWS_AHEAD": 0},
                                                "93x, two windows ahead": {"WINDOWS_AHEAD": 2}}),
    ("next_window_copied", "next-window-copied", {"93f": None, "93y": None, "93y, one window ahead": {"WINDOWS_AHEAD": 1},
                                                  "93y, nothing ahead": {"WINDOWS_AHEAD": 0}}),
    ("windows_dealt", "windows-dealt", {"93f": None, "93z": None}),
    ("windows_by_ticket", "windows-by-ticket", {"93f": None, "93z": None, "93zc": None,
                                                "93zc, windows dealt in turn": {"TICKETS": 0}}),
    ("dealt_forms", "dealt-forms", {"93f": None, "93z": None, "93z, blocks of 8 warps": {"DEALT_WARPS_A_BLOCK": 8},
                                    "93z, tiles strided": {"DEALT_STRIDED": 1}}),
    ("next_window_ahead", "next-window-ahead", {"93f": None, "93zd": None,
                                                "93zd, loads held, 20 warps": {"HELD_LOADS": 1, "AHEAD_WARPS": 20},
                                                "93zd, 21 warps": {"AHEAD_WARPS": 21}}),
    ("ahead_at_equal_warps", "ahead-at-equal-warps", {"93f": None, "93zd": None,
                                                      "93zd without the window ahead": {"WINDOW_AHEAD": 0}}),
    ("window_ahead_by_copy_engine", "window-ahead-by-copy-engine", {"93f": None, "93m": None, "93ze": None,
                                                                    "93ze, no window ahead": {"STAGED_AHEAD": 0}}),
    ("copy_engine_path", "copy-engine-path", {"93f": None, "93ze": None, "93ze, B in the slot": {"B_IN_SLOT": 1},
                                              "93ze, two windows ahead": {"WINDOWS_AHEAD": 2}}),
    ("warp_tiles_by_ticket", "warp-tiles-by-ticket", {"93f": None, "93zf": None, "93zf, a block a tile": {"RESIDENT": 0},
                                            "93zf, fixed shares": {"TICKETS": 0}}),
    ("ticket_placement", "ticket-placement", {"93f": None, "93zf": None,
                                              "93zf, ticket at the last window": {"TICKET_AT_LAST": 1},
                                              "93zf, fixed shares": {"TICKETS": 0},
                                              "93zf, a block a tile, no tickets": {"RESIDENT": 0, "TICKETS": 0}}),
    ("tickets_nested", "tickets-nested", {"93f": None, "93zf nested": {"NESTED": 1},
                                          "93zf nested, fixed shares": {"NESTED": 1, "TICKETS": 0},
                                          "93zf nested, a block a tile, no tickets": {"NESTED": 1, "RESIDENT": 0,
                                                                                     "TICKETS": 0}}),
    ("tickets_spread", "tickets-spread", {"93f": None, "93zf nested, 32 counters": {"NESTED": 1, "DEALERS": 32},
                                          "93zf nested, fixed shares": {"NESTED": 1, "TICKETS": 0},
                                          "93zf nested, a block a tile, no tickets": {"NESTED": 1, "RESIDENT": 0,
                                                                                     "TICKETS": 0}}),
    ("tickets_counters", "tickets-counters", {"93f": None, "93zf nested, 32 counters": {"NESTED": 1, "DEALERS": 32},
                                              "93zf nested, 128 counters": {"NESTED": 1, "DEALERS": 128},
                                              "93zf nested, 32 counters, a block a tile": {"NESTED": 1, "DEALERS": 32,
                                                                                           "RESIDENT": 0}}),
    ("tiles_a_warp", "tiles-a-warp", {"93f": None, "93zf, 1 tile a warp": {"TICKETS": 0, "SHARE_TILES": 1},
                                      "93zf, 2 tiles a warp": {"TICKETS": 0, "SHARE_TILES": 2},
                                      "93zf, 4 tiles a warp": {"TICKETS": 0, "SHARE_TILES": 4},
                                      "93zf, fixed shares": {"TICKETS": 0}}),
    ("b_ahead", "b-ahead", {"93f": None, "93ze": None, "93ze, B before the wait": {"B_AHEAD": 1},
                            "93ze, B a pass ahead": {"B_AHEAD": 2}}),
    ("starts_staggered", "starts-staggered", {"93f": None, "93za": None, "93za, 150 ns": {"STAGGER_NS": 150},
                                              "93za, 600 ns": {"STAGGER_NS": 600}}),
])
def test_an_attempts_probe_checks_every_build_then_times_them(monkeypatch, script, probe, builds):
    # the probes of 93s-93za: each build (an attempt, or one built with a define) checked, in order
    module = importlib.import_module(f"scripts.probes.{script}")
    (name, checked, unchecked), = _recorded(monkeypatch, module)
    assert name == probe and checked == list(builds) and not unchecked
    assert {build: defines for build, (_, defines) in module.BUILDS.items()} == builds


def test_next_window_copied_profiles_93y_with_two_one_and_no_window_ahead():
    from scripts.probes import next_window_copied
    assert list(next_window_copied.PROFILED) == ["93y", "93y, one window ahead", "93y, nothing ahead"]


def test_l1_prefetch_chains_each_line_to_the_next():
    # scripts/probes/l1_prefetch.py: line i's first 8 bytes hold line i + 1's address (the last's
    # its own), in the call's own region, nothing written outside it
    import torch
    from scripts.probes import l1_prefetch
    buffer = torch.zeros(3 * l1_prefetch.REGION, dtype=torch.uint8)
    base = l1_prefetch.chain(buffer, l1_prefetch.REGION)
    assert base == buffer.data_ptr() + l1_prefetch.REGION
    words = buffer.view(torch.int64)
    lines = [base + 128 * i for i in range(l1_prefetch.LINES)]
    assert [words[(line - buffer.data_ptr()) // 8].item() for line in lines] == lines[1:] + lines[-1:]
    assert int(torch.count_nonzero(buffer)) == int(torch.count_nonzero(buffer[l1_prefetch.REGION:2 * l1_prefetch.REGION]))


def test_lead_alone_times_the_loads_with_93ys_copies_beside_the_loads_alone(monkeypatch):
    # scripts/probes/lead_alone.py: six builds of math_fraction.cu with no products, recorded
    # unchecked; every build with copies reads A from L1 and every sleep is the same
    from scripts.probes import lead_alone
    calls = []
    monkeypatch.setattr(lead_alone, "record", lambda name, builds, shapes: calls.append((name, builds)))
    lead_alone.main()
    (name, builds), = calls
    assert name == "lead-alone" and len(builds) == 6
    assert all(defines["ROWS_MULTIPLIED"] == 0 for _, defines in builds.values())
    assert all(defines.get("L1_LOADS") == 1 for _, defines in builds.values() if "COPIES_AHEAD" in defines)
    assert {defines.get("DELAY_NS") for _, defines in builds.values()} == {None, 300}


def test_block_placement_counts_93us_tiles_on_each_sm():
    # scripts/probes/block_placement.py: 93u's resident grid, and the tiles its blocks take per SM
    from scripts.probes.block_placement import resident_grid, tiles_per_sm
    assert resident_grid(7168, 4, 132) == (1056, 4) and resident_grid(128, 200, 132) == (21, 200)
    assert resident_grid(128, 5000, 132) == (1, 5000)
    # M = 40: 10 tiles a batch over 4 blocks (3, 3, 2, 2 tiles); blocks 0 and 1 on SM 7, 2 and 3 on SM 9
    assert tiles_per_sm([7, 7, 9, 9], 40, 4).to_dict() == {7: 6, 9: 4}


def test_ticket_parts_times_84zbs_parts_unjoined_by_ticket_and_dealt(monkeypatch):
    # scripts/probes/ticket_parts.py: 93f, 84q and 84zb checked; 84zb's tiles in 2 and 4 parts by
    # ticket and in 2 parts dealt in advance, every one unjoined (wrong sums), timed beside them only
    from scripts.probes import ticket_parts
    (name, builds, unchecked), = _recorded(monkeypatch, ticket_parts)
    assert name == "ticket-parts" and builds == ["93f", "84q", "84zb"]
    defines = [d for _, d in unchecked.values()]
    assert all(d["RING_JOINS"] == 0 for d in defines)
    assert [(d["RING_PARTS"], d.get("TICKETS_FOR_PARTS", 0)) for d in defines] == [(2, 1), (4, 1), (2, 0)]


def test_item_ends_times_84zb_and_its_parts_by_ticket_with_and_without_the_hand_over(monkeypatch):
    # scripts/probes/item_ends.py: 84zb checked; 84zb without its hand-over, and each of ticket_parts's
    # parts by ticket (unjoined) with and without it, timed beside it only
    from scripts.probes import item_ends
    (name, builds, unchecked), = _recorded(monkeypatch, item_ends)
    assert name == "item-ends" and builds == ["84zb"]
    assert list(unchecked) == ["84zb without hand-over",
                               "84zb, 2 parts by ticket, unjoined", "84zb, 2 parts by ticket, unjoined, without hand-over",
                               "84zb, 4 parts by ticket, unjoined", "84zb, 4 parts by ticket, unjoined, without hand-over"]
    for name, (_, defines) in unchecked.items():
        assert defines.get("RING_HANDOVER", 1) == (0 if "without hand-over" in name else 1), name


def test_hand_over_unmet_checks_84zc_times_the_hand_overs_bounds_then_spans_the_two_rings(monkeypatch):
    # scripts/probes/hand_over_unmet.py: 93f, 84zb and 84zc checked; 84zb without its hand-over and
    # the unjoined parts by ticket of 84zb without it and of 84zc timed only; then 84zb and 84zc stamped
    from scripts.probes import hand_over_unmet
    (name, builds, unchecked), spanned = _recorded(monkeypatch, hand_over_unmet, spans=lambda rings, name: (rings, name))
    assert name == "hand-over-unmet" and builds == ["93f", "84zb", "84zc"]
    assert spanned == (("84zb", "84zc"), "hand-over-unmet-spans")
    sources = {n: source.parent.name[:4] for n, (source, _) in unchecked.items()}
    assert sources == {"84zb without hand-over": "84zb", "84zb, 2 parts by ticket, unjoined, without hand-over": "84zb",
                       "84zc, 2 parts by ticket, unjoined": "84zc"}
    assert all(d["RING_JOINS"] == 0 and d["TICKETS_FOR_PARTS"] == 1 for n, (_, d) in unchecked.items() if "parts" in n)


def test_ring_spans_stamps_84q_84v_and_84w_with_their_records():
    # scripts/probes/ring_spans.py: the three rings that section 80 compares, each read with 84q's
    # record of a ring block (ring_timeline.py's fields), the floor with timeline.py's
    from scripts.probes import ring_spans, ring_timeline
    assert ring_spans.RINGS == ("84q", "84v", "84w")
    assert ring_spans.STAMPED is ring_timeline.STAMPED and ring_spans.RING_FIELDS is ring_timeline.RING_FIELDS


def test_ring_spans_stamps_every_ring_on_every_shape_and_keeps_the_outside(monkeypatch, tmp_path):
    # scripts/probes/ring_spans.py spans(): each ring (stamped under its own name) and the floor, on
    # every shape and mode, each call's time outside its blocks' span = its events' time - its span;
    # the GPU's side replaced by stand-ins
    from scripts.probes import ring_spans, ring_timeline
    shapes = [(256, 1024, 1), (512, 2048, 2)]
    warmed = []
    monkeypatch.setattr(ring_spans, "SHAPES", shapes)
    monkeypatch.setattr(ring_timeline, "RESULTS_DIR", tmp_path)
    monkeypatch.setattr(ring_spans.torch.cuda, "get_device_name", lambda: "NVIDIA H200")
    monkeypatch.setattr(ring_spans, "stamp_buffer", lambda shapes: None)
    monkeypatch.setattr(ring_spans.problem, "generate_input", lambda m, k, l, seed: (m, k, l))
    monkeypatch.setattr(ring_spans, "floor_defines", lambda gpu, shape, mode: ("cfg", {}))
    monkeypatch.setattr(ring_spans, "warmed_up", lambda name, *args: warmed.append(name) or name)
    monkeypatch.setattr(ring_spans, "timed_stamped_call", lambda kernel, *args: (kernel, 5000.0))
    quantities = {c: 0.0 for c in ("last_arrival_ns", "last_arrival_max_ns", "end_max_ns", "tail_ns")}
    monkeypatch.setattr(ring_spans, "ring_summary", lambda blocks: {**quantities, "call_ns": 3000.0})
    monkeypatch.setattr(ring_spans, "summary", lambda warps: {**quantities, "call_ns": 4000.0})
    monkeypatch.setattr(ring_timeline.results, "provenance", lambda: {"gpu": "NVIDIA H200"})
    (tmp_path / "probes").mkdir()
    ring_spans.spans(("84q", "84w"), "spans-test")
    df = pd.read_csv(tmp_path / "probes" / "spans-test-h200.csv")
    assert warmed.count("84w, stamped") == len(shapes) and warmed.count("floor") == 2 * len(shapes)
    assert len(df) == len(shapes) * 2 * ring_spans.CALLS * 3
    assert set(df[df.kernel != "floor"].outside_ns) == {2000.0} and set(df[df.kernel == "floor"].outside_ns) == {1000.0}


@pytest.mark.parametrize("script, checked, spanned", [
    ("runs_from_host", ("93f", "84q", "84w", "84x"), ("84q", "84w", "84x")),
    ("runs_spread", ("93f", "84w", "84x", "84y"), ("84q", "84w", "84x", "84y")),
    ("joins_in_turn", ("93f", "84q", "84z"), ("84q", "84z")),
    ("first_stages_apart", ("93f", "84q", "84za"), ("84q", "84za")),
    ("tiles_by_ticket", ("93f", "84q", "84zb"), ("84q", "84zb")),
])
def test_a_ring_probe_checks_its_attempts_then_spans_the_rings(monkeypatch, script, checked, spanned):
    # scripts/probes/runs_from_host.py, runs_spread.py, joins_in_turn.py, first_stages_apart.py, tiles_by_ticket.py,
    # through ring_spans.check_then_span: the new ring beside its parent and the rings it is weighed
    # against, all checked and timed under the probe's own name, then the rings stamped and timed by
    # events (ring_spans's method) under that name's spans
    from scripts.probes import ring_spans
    module = importlib.import_module(f"scripts.probes.{script}")
    calls = []
    monkeypatch.setattr(ring_spans, "check_and_record",
                        lambda name, builds, check_shapes, shapes: calls.append((name, tuple(builds), check_shapes)))
    monkeypatch.setattr(ring_spans, "spans", lambda rings, name: calls.append((rings, name)))
    module.main()
    probe = script.replace("_", "-")
    assert calls == [(probe, checked, ring_spans.CHECK_SHAPES), (spanned, f"{probe}-spans")]


def test_84xs_longer_runs_first_give_four_blocks_more_stages_on_4096x7168x8():
    # scripts/probes/runs_spread.py block_stages (84w-84y's Cursor, counted on the host): on 132
    # blocks, 84x's runs (the longer first) leave 4 blocks of 4096x7168x8 with 32 stages where every
    # one of 84w's (and 84y's) has 28, and 2 of 7168x2048x4 with 8 instead of 7; on 4096x14336x1
    # both give every block 7 (one folded tile of 24 or 32 rows)
    from scripts.probes.runs_spread import block_stages
    first, spread = block_stages(4096, 7168, 8, 132, True), block_stages(4096, 7168, 8, 132, False)
    assert set(spread) == {28} and max(first) == 32 and first.count(32) == 4
    assert set(block_stages(7168, 2048, 4, 132, False)) == {7} and block_stages(7168, 2048, 4, 132, True).count(8) == 2
    assert set(block_stages(4096, 14336, 1, 132, True)) == set(block_stages(4096, 14336, 1, 132, False)) == {7}


def test_stamped_rounds_times_84q_and_84w_plain_and_stamped():
    # scripts/probes/stamped_rounds.py: each ring plain (the attempt's own build) and with its stamps
    from scripts.probes import stamped_rounds
    builds = stamped_rounds.builds()
    assert list(builds) == ["84q", "84q, stamped", "84w", "84w, stamped"]
    assert builds["84q"][1] is None and builds["84w, stamped"][1] == {"RING_STAMPS": 1}
    assert list(stamped_rounds.profiled()) == ["84w", "84w, stamped"]


def test_short_folds_checks_84w_beside_its_parent_then_stamps_it(monkeypatch):
    # scripts/probes/short_folds.py: 84w beside 84v (its parent), 84q and 93f, all checked, then
    # stamped beside the floor's read under its own name
    from scripts.probes import short_folds
    assert list(short_folds.builds()) == ["93f", "84q", "84v", "84w"]
    calls = []
    monkeypatch.setattr(short_folds, "check_and_record", lambda name, builds, check_shapes, shapes: calls.append(name))
    monkeypatch.setattr(short_folds, "stamped_timeline", lambda ring, name: calls.append((ring.number, name)))
    short_folds.main()
    assert calls == ["short-folds", ("84w", "short-folds-timeline")]


def test_a_probes_sites_table_and_figure_read_one_kernel_and_shape(monkeypatch, tmp_path):
    # common/reports.py probe_sites_table and fragments' probe-site figure: each kernel's first
    # sites of one shape, in rank order; a rank past a kernel's sites is an error, not another's
    from common import fragments
    (tmp_path / "profiles" / "h200" / "probes").mkdir(parents=True)
    pd.DataFrame({"name": ["a", "a", "b", "a"], "shape": ["1x2x3", "1x2x3", "1x2x3", "4x5x6"],
                  "sass": ["BRA", "LOP3", "QGMMA", "IMAD"], "share_pct": [30.5, 2.25, 4.0, 9.0],
                  "top_reason": ["long_scoreboard", "math", "wait", "wait"]}).to_csv(
        tmp_path / "profiles" / "h200" / "probes" / "p-sites.csv", index=False)
    monkeypatch.setattr(reports, "REPO", tmp_path)
    monkeypatch.setattr(fragments, "REPO", tmp_path)
    table = reports.probe_sites_table("p", "h200", "1x2x3", "1")
    assert "| a | 1 | `BRA` | 30.50 |" in table and "| b | 1 | `QGMMA` | 4.00 |" in table and "LOP3" not in table
    assert fragments.fig("h200", "a", "probe-site:p", "1x2x3", "2") == "2.25"
    with pytest.raises(fragments.FragmentError, match="no site 2"):
        fragments.fig("h200", "b", "probe-site:p", "1x2x3", "2")


def test_racecheck_hand_off_runs_each_order_under_racecheck_and_records_its_hazards(monkeypatch, tmp_path):
    # scripts/probes/racecheck_hand_off.py: the hand-off ordered by the atomic and by the barrier,
    # each run under racecheck as its own target, the hazards counted per order
    import pandas as pd
    from profiles import sanitize
    from scripts.probes import racecheck_hand_off
    commands = []
    outputs = {"0": "hazard\nhand-off sums ok\n", "1": "no sums\n"}
    monkeypatch.setattr(sanitize, "run_under",
                        lambda tool, command: commands.append((tool, command)) or (99, 7, outputs[command[-1]]))
    monkeypatch.setattr(racecheck_hand_off, "RESULTS_DIR", tmp_path)
    monkeypatch.setattr(racecheck_hand_off.sys, "argv", ["racecheck_hand_off.py"])
    monkeypatch.setattr("torch.cuda.get_device_name", lambda: "NVIDIA H200")
    monkeypatch.setattr("common.results.provenance", lambda: {"gpu": "NVIDIA H200"})
    (tmp_path / "probes").mkdir()
    racecheck_hand_off.main()
    assert [(tool, command[-2:]) for tool, command in commands] == [("racecheck", ["target", "0"]), ("racecheck", ["target", "1"])]
    df = pd.read_csv(tmp_path / "probes" / "racecheck-hand-off-h200.csv")
    assert list(df.strategy) == ["atomic", "block barrier"] and set(df.key) == {"racecheck"} and list(df.hazards) == [7, 7]
    assert list(df.sums_ok) == [True, False]


def test_grid_fill_shapes_fill_the_h200s_sms_to_different_depths():
    # scripts/probes/grid_fill.py: 93f's H200 grids, (warps a tile, waves, warps an SM)
    from scripts.probes.grid_fill import SHAPES, h200_grid
    assert h200_grid(7168, 16384, 1) == (2, 1792 / 2112, 1792 * 2 / 132)
    assert h200_grid(5632, 16384, 1)[0] == 2     # 3 warps a tile would not fit at once
    assert h200_grid(4096, 7168, 8) == (1, 8192 / 4224, 32)
    fills = [h200_grid(*shape)[2] for shape in SHAPES if shape[1] == 16384]
    assert fills == sorted(fills) and fills[0] < 22 and fills[-1] == 32


def test_dealt_placement_deals_93zs_tiles_and_counts_each_sms_windows():
    # scripts/probes/dealt_placement.py: 93f's grid is a block a tile, 93z's G blocks take T / G
    # tiles each, rounded down at both ends; an SM's windows are its blocks' tiles' windows
    from scripts.probes.dealt_placement import layouts, windows_per_sm
    grids = layouts(7168, 16384, 1, 132)
    assert grids["93f"][:2] == (1792, 2) and grids["93z"][:2] == (132, 32) and grids["93z, blocks of 8 warps"][:2] == (528, 8)
    for blocks, _, block_tiles in grids.values():
        assert len(block_tiles) == blocks and sum(block_tiles) == 1792
    assert set(grids["93z"][2]) == {13, 14} and set(grids["93z, blocks of 8 warps"][2]) == {3, 4}
    assert windows_per_sm([0, 0, 1], [3, 4, 3], 16).to_dict() == {0: 112, 1: 48}


def test_grid_fill_loads_times_76s_split_with_and_without_products_on_grid_fills_one_wave_shapes():
    # scripts/probes/grid_fill_loads.py: K = 16384 only, math_fraction.cu with no rows and with four
    from scripts.probes import grid_fill_loads
    assert [k for _, k, _ in grid_fill_loads.SHAPES] == [16384] * 6
    assert [defines and defines["ROWS_MULTIPLIED"] for _, defines in grid_fill_loads.BUILDS.values()] == [None, 0, 4]


def test_equal_parts_times_93zb_where_its_rule_lowers_s_and_where_it_does_not():
    # scripts/probes/equal_parts.py: every shape but the last has whole windows that the H200's
    # rule splits unevenly (S not dividing them); the last is split evenly already
    from scripts.probes.equal_parts import SHAPES
    from scripts.probes.grid_fill import h200_grid
    uneven = [(k // 1024) % h200_grid(m, k, l)[0] != 0 for m, k, l in SHAPES]
    assert uneven == [True] * (len(SHAPES) - 1) + [False]


def test_scheduler_mapping_rows_read_each_warps_slot_and_each_sms_busiest_scheduler():
    # scripts/probes/scheduler_mapping.py: a running warp's cycles over warp 0's alone, its
    # scheduler its slot % 4; an SM's busiest scheduler against its warps dealt in turn
    import numpy as np
    from scripts.probes.scheduler_mapping import contend_rows, scheduler_load, slots_row
    records = np.array([[1, 200], [2, 0], [3, 0], [4, 0], [5, 210]] + [[6 + i, 0] for i in range(11)])
    rows = contend_rows(records, (0, 4), 100.0, 1)
    assert [(r["slot"], r["sharing"], r["over_alone"]) for r in rows] == [(0, 2, 2.0), (4, 2, 2.1)]
    assert [r["sharing"] for r in contend_rows(records, (0, 1), 100.0, 1)] == [1, 1]
    # SM 3: slots 0-4 (5 warps: 2, 1, 1, 1 a scheduler); SM 8: slots 0, 4, 8 (3 warps, one scheduler)
    per_sm = scheduler_load([3] * 5 + [8] * 3, [0, 1, 2, 3, 4, 0, 4, 8])
    assert per_sm.to_dict("index") == {3: {"warps": 5, "most_a_scheduler": 2, "in_turn": 2},
                                       8: {"warps": 3, "most_a_scheduler": 3, "in_turn": 1}}
    row = slots_row(7168, 16384, 1, 2, per_sm)
    assert (row["warps_most_an_sm"], row["most_a_scheduler"], row["most_in_turn"], row["sms_above_in_turn"]) == (5, 3, 2, 1)


def test_products_alone_rows_add_each_rounds_cycles_to_scheduler_mappings():
    # scripts/probes/products_alone.py: scheduler_mapping's rows of a call, with the cycles a round
    # and a round's cycles over its instructions
    import numpy as np
    from scripts.probes.products_alone import ROUNDS, WARP_SETS, rows_of_call
    records = np.array([[3, 4 * ROUNDS * 300], [1, 0], [2, 0], [4, 0], [7, 2 * ROUNDS * 300]] + [[8 + i, 0] for i in range(27)])
    rows = rows_of_call(records, (0, 4), 2 * ROUNDS * 300, 1, 300)
    assert [(r["sharing"], r["cycles_a_round"], r["cycles_an_instruction"]) for r in rows] == [(2, 1200, 4.0), (2, 600, 2.0)]
    assert all(max(warps) < 32 for warps in WARP_SETS) and (0,) in WARP_SETS


def test_write_tables_records_each_table_with_one_runs_provenance(monkeypatch, tmp_path):
    # scripts/probes/probe.py write_tables (loop_spans' and window_spans' spans and companions):
    # each table as results/probes/<name>-<gpu>.csv in its float format, one provenance for all
    import itertools
    from scripts.probes import probe
    calls = itertools.count()
    monkeypatch.setattr(probe, "RESULTS_DIR", tmp_path)
    monkeypatch.setattr(probe.results, "provenance", lambda: {"git_sha": "abc", "run": next(calls)})
    frames = probe.write_tables("h200", {"spans": ([{"x": 1.23456}], "%.2f"), "spans-by": ([{"y": 2}], None)})
    assert (tmp_path / "probes" / "spans-h200.csv").read_text() == "x,git_sha,run\n1.23,abc,0\n"
    assert (tmp_path / "probes" / "spans-by-h200.csv").read_text() == "y,git_sha,run\n2,abc,0\n"
    assert list(frames) == ["spans", "spans-by"] and frames["spans"].x[0] == 1.23456


def test_products_alone_profile_rows_name_each_launch_and_take_one_sms_pipes():
    # scripts/probes/products_alone.py profile: a row per profiled launch in target's order, the
    # pipes' elapsed shares (averaged by ncu over every SM) times the SMs, and every stall reason's
    # share of the stalls
    import pandas as pd
    from scripts.probes import products_alone as probe
    stall = "smsp__average_warps_issue_stalled_{}_per_issue_active.ratio"
    names = probe.profiled_names()
    df = pd.DataFrame([{"Kernel Name": "window_products", "gpu__time_duration.sum": 1000.0 * (i + 1),
                        "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_elapsed": 0.25,
                        stall.format("wait"): 3.0, stall.format("math_pipe_throttle"): 1.0,
                        stall.format("selected"): 0.0} for i in range(len(names))])
    rows = probe.profile_rows(df, 132)
    assert [r["name"] for r in rows] == names and len(names) == 2 * len(probe.PROFILED_SETS)
    assert rows[1]["duration_us"] == 2.0 and rows[0]["alu_pipe_pct"] == 33.0 and rows[0]["shape"] == "128x1024x1"
    assert (rows[0]["stall_wait_share_pct"], rows[0]["stall_math_pipe_throttle_share_pct"]) == (75.0, 25.0)
    assert "stall_selected_share_pct" not in rows[0] and rows[0]["stall_1"] == "wait"


def test_window_spans_reads_each_windows_spans_on_its_sms_clock_across_a_wrap():
    # scripts/probes/window_spans.py: a warp's windows (sent, landed, done) on its SM's clock counted
    # from the SM's first start (the 32-bit clock wraps here), at the ns a cycle of the records'
    # global spans; a record not written is no warp; only a warp's windows are read
    import numpy as np
    from scripts.probes import window_spans as probe
    words = np.zeros((3, probe.RECORD_WORDS), dtype=np.uint32)
    origin = (1 << 32) - 100

    def warp(row, sm, start, end, windows):  # clocks after the SM's origin, 2 ns a cycle
        words[row, :6] = [sm + 1, 1000 + 2 * start, (origin + start) % (1 << 32), (origin + end) % (1 << 32),
                          1000 + 2 * end, len(windows)]
        for i, stamps in enumerate(windows):
            words[row, 6 + 3 * i: 9 + 3 * i] = [(origin + t) % (1 << 32) for t in stamps]
    warp(0, 5, 0, 800, [(50, 250, 350), (400, 600, 700), (720, 740, 790)])
    warp(2, 5, 40, 500, [(100, 400, 420)])
    words[2, 6 + 3:] = 7  # past its windows: never read
    warps, windows = probe.parse(torch.from_numpy(words.view(np.int32).reshape(-1)))
    assert list(warps.sm) == [5, 5] and list(warps.start) == [0, 40] and len(windows) == 4
    row, w = probe.spans(warps, windows)
    assert row["sm_ghz"] == 0.5 and row["warps"] == 2 and row["windows_a_warp"] == 2
    # first windows (400, 600 ns) apart; a round: a later window followed by another (warp 0's second)
    assert (row["first_load_ns"], row["load_ns"], row["between_ns"]) == (500, 220, 40)
    assert list(w.products) == [200, 200, 100, 40]
    assert row["away_share"] == (200 + 40) / (400 + 200 + 40)
    # the SM's bytes on their way: the loads' 400 + 400 + 40 + 600 ns of windows over its 1600 ns
    assert row["in_flight_kb_per_sm"] == 1440 * probe.WINDOW_BYTES / 1600 / 1024
    assert row["sm_gb_s"] == 4 * probe.WINDOW_BYTES / 1600
    assert list(w["round"].dropna()) == [700, 640] and row["round_ns"] == 640
    # a build with its sends stamped alone: its rounds, and no load or products read from the 0s
    row, w = probe.spans(warps, windows, stamps=1)
    assert row["round_ns"] == 640 and w[["load", "products", "between"]].isna().all().all()
    assert np.isnan(row["in_flight_kb_per_sm"]) and np.isnan(row["away_share"])

def test_loop_spans_reads_each_warps_loop_on_its_sm_and_scheduler():
    # scripts/probes/loop_spans.py: a warp's loop start and end on its SM's clock (from the SM's
    # first start, across a wrap) and on the global timer (from the call's first start); its
    # scheduler (slot % 4) and the warps that scheduler held; when the loops end as shares of the
    # call; no scheduler rows where a slot ran twice (several waves)
    import numpy as np
    from scripts.probes import loop_spans as probe
    origin = (1 << 32) - 50
    records = [  # start, end (SM clocks after the origin, 2 ns a cycle), SM, slot
        (0, 400, 3, 0), (10, 310, 3, 4), (20, 220, 3, 1), (0, 200, 7, 0)]
    words = np.zeros((len(records) + 1, len(probe.FIELDS)), dtype=np.uint32)  # the last not written
    for i, (start, end, sm, slot) in enumerate(records):
        words[i] = [(origin + start) % (1 << 32), 5000 + 2 * start, (origin + end) % (1 << 32), 5000 + 2 * end, sm + 1, slot]
    warps = probe.parse(torch.from_numpy(words.view(np.int32).reshape(-1)))
    assert list(warps.sm) == [3, 3, 3, 7] and list(warps.start) == [0, 10, 20, 0]
    assert list(warps.scheduler) == [0, 0, 1, 0] and list(warps.sharing) == [2, 2, 1, 1]
    row, by_sharing = probe.spans(warps)
    assert row["sm_ghz"] == 0.5 and row["call_ns"] == 800 and row["span_p50_ns"] == 500
    assert row["ended_100pct_share"] == 1 and row["ended_50pct_share"] == (440 + 620) / 2 / 800
    assert list(warps["rank"]) == [1, 2, 1, 1] and list(warps.slot_rank) == [0, 1, 0, 0]
    sharing, rank = (by_sharing[by_sharing.by == by].set_index("value") for by in ("sharing", "rank"))
    assert by_sharing[by_sharing.by == "slot_rank"].warps.tolist() == [3, 1]
    assert sharing.span_p50_ns.to_dict() == {1: 400, 2: 700} and rank.warps.to_dict() == {1: 3, 2: 1}
    assert rank.end_p50_share.to_dict() == {1: 440 / 800, 2: 620 / 800}
    _, again = probe.spans(pd.concat([warps, warps.iloc[:1]]))
    assert again.empty


def test_warp_set_calls_yields_every_recorded_call_with_warp_0s_cycles_alone(monkeypatch):
    # scripts/probes/scheduler_mapping.py (and products_alone.py): the first call is not yielded;
    # each set's records come with warp 0's cycles alone in the same call; a running warp that
    # recorded no cycles stops the run
    from scripts.probes import scheduler_mapping
    zeros = torch.zeros
    monkeypatch.setattr(torch, "zeros", lambda *shape, device=None, **kw: zeros(*shape, **kw))
    monkeypatch.setattr(torch.cuda, "synchronize", lambda: None)
    launches = []

    def launch(mask, records):
        launches.append(mask)
        r = records.view(-1, 2)
        r[:, 0] = torch.arange(1, 5)
        for w in range(4):
            r[w, 1] = 100 * len(launches) + w if mask >> w & 1 else 0
        return 0
    out = list(scheduler_mapping.warp_set_calls(launch, [(0,), (0, 2)], 4))
    assert [(call, warps, alone) for call, warps, _, alone in out] == [
        (c, w, 100 * (2 * c + 1)) for c in range(1, scheduler_mapping.CALLS + 1) for w in ((0,), (0, 2))]
    assert list(out[1][2][:, 1]) == [400, 0, 402, 0] and len(launches) == 2 * (scheduler_mapping.CALLS + 1)
    with pytest.raises(SystemExit):
        list(scheduler_mapping.warp_set_calls(lambda mask, records: 0, [(0,)], 4))
