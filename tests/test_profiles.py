"""profiles/profile.py's summary of an Nsight Compute report, on a synthetic report (no GPU)."""
import importlib.util
import types
from pathlib import Path

import pytest

from common.build import REPO

spec = importlib.util.spec_from_file_location("profile_script", REPO / "profiles" / "profile.py")
profile = importlib.util.module_from_spec(spec)
spec.loader.exec_module(profile)

COLUMNS = ["Kernel Name", "gpu__time_duration.sum", "dram__bytes.sum", "dram__bytes.sum.per_second",
           "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", "smsp__inst_executed.sum",
           "smsp__issue_active.avg.pct_of_peak_sustained_active", "launch__registers_per_thread",
           "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"]


def fake_report(monkeypatch, kernels, columns=COLUMNS):
    """ncu --import prints these kernels (header row, then a units row, then one row each)."""
    lines = [",".join(f'"{c}"' for c in columns), ",".join('""' for _ in columns)] + kernels
    monkeypatch.setattr(profile, "subprocess", types.SimpleNamespace(
        run=lambda *a, **k: types.SimpleNamespace(stdout="\n".join(lines))))
    monkeypatch.setattr(profile.shutil, "which", lambda name: "ncu")


MAIN = '"main",40000,66000000,1.6e12,50,5000000,70,40,0.5'
FINISH = '"finish",2000,100000,5e10,2,1000,10,16,0.9'


def test_one_kernel_per_call_is_summarised_as_it_is(monkeypatch):
    fake_report(monkeypatch, [MAIN] * 3)
    df = profile.summarize(Path("report"), "h100")
    assert list(df.kernels) == [1, 1, 1]
    assert df.duration_us.tolist() == [40.0] * 3 and df.registers_per_thread.tolist() == [40] * 3


def test_several_kernels_per_call_add_up_and_keep_the_longest_kernels_character(monkeypatch):
    fake_report(monkeypatch, [MAIN, FINISH] * 3)
    df = profile.summarize(Path("report"), "h100")
    assert list(df.kernels) == [2, 2, 2] and set(df.kernel) == {"main"}
    assert df.duration_us.tolist() == [42.0] * 3                       # summed
    assert df.registers_per_thread.tolist() == [40] * 3                # the longest kernel's
    assert df.dram_pct_of_peak.iloc[0] == pytest.approx((50 * 40 + 2 * 2) / 42)   # time-weighted


MARK = '"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>",2000,0,0,0,10,1,16,0'


def test_marked_calls_may_launch_different_numbers_of_kernels(monkeypatch):
    fake_report(monkeypatch, [MARK, MAIN, FINISH, MARK, MAIN, MARK, MAIN, FINISH])
    df = profile.summarize(Path("report"), "h100")
    assert list(df.kernels) == [2, 1, 2] and set(df.kernel) == {"main"}
    assert df.duration_us.tolist() == [42.0, 40.0, 42.0]               # the markers left out
    assert df.longest_kernel_us.tolist() == [40.0] * 3
    fake_report(monkeypatch, [MARK, MAIN, MARK, MAIN, MAIN])
    with pytest.raises(RuntimeError, match="marked calls"):
        profile.summarize(Path("report"), "h100")


def test_a_kernel_without_global_load_requests_has_no_sectors_per_request(monkeypatch):
    loads = ["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]
    fake_report(monkeypatch, [MAIN + ",0,0"] * 3, COLUMNS + loads)   # TMA loads: no LSU requests
    df = profile.summarize(Path("report"), "h100")
    assert df.sectors_per_ld_request.isna().all() and df.duration_us.tolist() == [40.0] * 3


def test_a_kernel_count_that_does_not_divide_by_the_shapes_is_refused(monkeypatch):
    fake_report(monkeypatch, [MAIN] * 4)
    with pytest.raises(RuntimeError, match="same number of kernels"):
        profile.summarize(Path("report"), "h100")


def test_the_profile_table_has_a_row_per_shape_from_the_summary_and_refuses_a_missing_one():
    import pandas as pd
    from common import reports
    csv = pd.read_csv(REPO / "profiles" / "h100" / "18-tc-int8-decode.csv")
    rows = [line for line in reports.profile_table("h100", "18").splitlines()[2:]]
    assert [r.split(" | ")[1] for r in rows] == list(csv["shape"])
    assert all(r.startswith("| 18 |") for r in rows)
    assert f"{csv.duration_us[0]:.2f}" in rows[0] and csv.stall_1[0] in rows[0]
    with pytest.raises(KeyError, match="no profile"):
        reports.profile_table("b200", "18")       # no GPU of that name has profiles


def test_the_pipe_columns_are_read_and_are_nan_where_the_report_lacks_them(monkeypatch):
    pipes = ["sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_elapsed",
             "sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_elapsed"]
    fake_report(monkeypatch, [MAIN + ",61,30"] * 3, COLUMNS + pipes)
    df = profile.summarize(Path("report"), "h100")
    assert df.alu_pipe_pct.tolist() == [61.0] * 3 and df.fma_heavy_pipe_pct.tolist() == [30.0] * 3
    fake_report(monkeypatch, [MAIN] * 3)
    assert profile.summarize(Path("report"), "h100").alu_pipe_pct.isna().all()


SOURCE_HEADER = ('"Address","Source","Warp Stall Sampling (All Samples)","# Samples","stall_long_sb","stall_short_sb",'
                 '"stall_selected","stall_long_sb (Not Issued)"')


def source_block(rows, kernel="walk_kernel(int)"):
    """One kernel's block of `ncu --page source --csv --print-source sass`."""
    return "\n".join([f'"Kernel Name","{kernel}",', SOURCE_HEADER] + rows)


SITES_ROWS = ['"0x10","  LOP3.LUT R1, R2","60","60","55","0","5","50"',
              '"0x20","  FADD R3, R3, R4","30","30","0","28","2","0"',
              '"0x30","  EXIT","10","10","-","-","10","-"']


def test_stall_sites_rank_the_instructions_by_samples_and_name_their_first_reason():
    page = source_block(SITES_ROWS) + "\n" + source_block(SITES_ROWS)   # ncu prints a block twice
    sites = profile.stall_sites(page, "7168x16384x1", top=2)
    assert list(sites["sass"]) == ["LOP3.LUT R1, R2", "FADD R3, R3, R4"]
    assert list(sites["share_pct"]) == [60.0, 30.0]                     # of all 100 samples
    assert list(sites["top_reason"]) == ["long_scoreboard", "short_scoreboard"]
    assert list(sites["top_reason_samples"]) == [55, 28]
    assert list(sites["long_scoreboard_samples"]) == [55, 0]


def test_stall_sites_of_another_shape_are_added_beside_the_first_and_a_shape_written_again_replaced(tmp_path):
    page = source_block(SITES_ROWS)
    attempt = types.SimpleNamespace(name="84p-four-warpgroups-a-ring")
    profile.write_sites(attempt, "4096x7168x8", "walk", "h200", tmp_path, source_page=page)
    profile.write_sites(attempt, "7168x16384x1", "walk", "h200", tmp_path, source_page=page)
    profile.write_sites(attempt, "7168x16384x1", "walk", "h200", tmp_path, source_page=page)
    written = profile.pd.read_csv(tmp_path / "stall-sites" / f"{attempt.name}.csv")
    assert written["shape"].value_counts().to_dict() == {"4096x7168x8": 3, "7168x16384x1": 3}


def test_stall_sites_refuse_a_page_of_several_launches_unless_one_is_named():
    other = [row.replace('"60","60","55"', '"61","61","56"') for row in SITES_ROWS]
    page = "\n".join([source_block(SITES_ROWS), source_block(SITES_ROWS), source_block(other), source_block(other)])
    with pytest.raises(ValueError, match="2 different launches"):
        profile.stall_sites(page, "7168x16384x1")
    assert profile.stall_sites(page, "4096x7168x8", launch=1)["stall_samples"].iloc[0] == 61
    assert profile.stall_sites(page, "7168x16384x1", launch=0)["stall_samples"].iloc[0] == 60
    with pytest.raises(ValueError, match="no launch 2"):
        profile.stall_sites(page, "7168x2048x4", launch=2)


def test_a_probes_command_line_reads_the_sites_of_the_builds_it_profiles(monkeypatch):
    # scripts/probes/probe.py time_or_profile: `sites` reads the profile of `profiled` (not of the
    # timed builds) on the profiled shapes; no argument times `timed`
    from scripts.probes import probe
    calls = []
    monkeypatch.setattr(probe, "profile_sites", lambda *args: calls.append(("sites", *args)))
    monkeypatch.setattr(probe, "record", lambda *args: calls.append(("record", *args)))
    for argv in (["p.py", "sites"], ["p.py"]):
        monkeypatch.setattr(probe.sys, "argv", argv)
        probe.time_or_profile("p", {"timed": None}, {"profiled": None}, [(1, 2, 3)], Path("p.py"))
    assert calls == [("sites", "p", {"profiled": None}, [(1, 2, 3)], "nvfp4_gemv_kernel"),
                     ("record", "p", {"timed": None}, [(1, 2, 3)])]


def test_a_probes_sites_name_each_launch_by_its_build_and_shape_in_profile_order(monkeypatch, tmp_path):
    # scripts/probes/probe.py profile_sites: the report's launches come in profile_target's order
    # (each build, each shape); a page with another count of launches is refused
    from scripts.probes import probe
    other = [row.replace('"60","60","55"', '"61","61","56"') for row in SITES_ROWS]
    pages = [source_block(SITES_ROWS), source_block(other)]
    monkeypatch.setattr(probe.torch.cuda, "get_device_name", lambda: "NVIDIA H200")
    monkeypatch.setattr(probe, "REPO", tmp_path)
    (tmp_path / "profiles" / "h200" / "probes").mkdir(parents=True)
    monkeypatch.setattr(probe, "report_source_page", lambda report, pattern: "\n".join(pages))
    probe.profile_sites("p", {"plain": None}, [(1, 2, 3), (4, 5, 6)], "ring", top=1)
    sites = probe.pd.read_csv(tmp_path / "profiles" / "h200" / "probes" / "p-sites.csv")
    assert list(sites["name"]) == ["plain", "plain"] and list(sites["shape"]) == ["1x2x3", "4x5x6"]
    assert list(sites["stall_samples"]) == [60, 61]
    with pytest.raises(RuntimeError, match="expected 4 launches"):
        probe.profile_sites("p", {"plain": None, "stamped": None}, [(1, 2, 3), (4, 5, 6)], "ring")
