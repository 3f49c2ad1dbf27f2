"""Every CUDA attempt compiles for sm_90a and sm_100a with plain nvcc; the Blackwell path of
the PTX-decode attempts really uses the hardware FP4 conversion (checked without a B200)."""
import re
import subprocess
from collections import Counter

import pytest

from common import attempts, build, floor
from common.build import REPO
from conftest import sm90a_build

CUDA_ATTEMPTS = [a for a in attempts.all_attempts() if a.is_cuda]
HW_FP4 = re.compile(r"F2FP\.F16\.E2M1")
# the attempts whose seed uses cvt.rn.f16x2.e2m1x2, and those given a Blackwell path of their own
HW_FP4_ON_BLACKWELL = {"04", "05", "06", "06a", "07", "23", "26", "62", "63", "64", "65", "66", "67", "68", "69", "70", "71", "72", "73", "74", "75", "76", "77", "78", "79", "80", "81", "82", "83",
                       "86", "87", "88", "89", "90", "91", "92", "93", "93a", "93b", "93c", "93d", "93e", "93f", "93g", "93h", "93i", "93j", "93k", "93l", "93m", "93n", "93o", "93p", "93q", "93r", "93s", "93t", "93u", "93w", "93x", "93y", "93z", "93za", "93zb", "93zc", "93zd", "93ze", "93zf", "94", "95", "95a", "96", "97", "98"}


@pytest.mark.parametrize("attempt", CUDA_ATTEMPTS, ids=lambda a: a.name)
def test_builds_for_both_targets_and_reports_registers(attempt):
    library = build.build(attempt.source)
    usage = build.resource_usage(library)
    targets = {row["target"] for row in usage}
    assert targets == {"sm_90a", "sm_100a"}, usage
    for row in usage:
        print(f"{attempt.name} {row['target']} {row['kernel']}: {row['registers']} registers, "
              f"{row.get('spill_stores', 0)}/{row.get('spill_loads', 0)} bytes spilled (st/ld)")


@pytest.mark.parametrize("attempt", [a for a in CUDA_ATTEMPTS if a.number in HW_FP4_ON_BLACKWELL],
                         ids=lambda a: a.name)
def test_blackwell_build_uses_hardware_fp4_conversion_and_hopper_build_does_not(attempt):
    library = build.build(attempt.source)
    assert HW_FP4.search(build.sass(library, "sm_100a")), "sm_100a SASS lacks F2FP.F16.E2M1"
    assert not HW_FP4.search(build.sass(library, "sm_90a"))


def test_a_broken_kernel_is_a_build_error(tmp_path):
    broken = tmp_path / "kernel.cu"
    broken.write_text("__global__ void k() { this is not cuda; }\n")
    with pytest.raises(build.BuildError, match="nvcc failed"):
        build.build(broken)


def test_cache_rebuilds_only_when_the_source_changes(tmp_path):
    source = tmp_path / "kernel.cu"
    source.write_text('extern "C" int f() { return 1; }\n')
    first = build.build(source, targets=("sm_90a",))
    assert build.build(source, targets=("sm_90a",)) == first
    source.write_text('extern "C" int f() { return 2; }\n')
    assert build.build(source, targets=("sm_90a",)) != first


def test_device_code_alone_lists_as_its_library_does(tmp_path):
    # build.device_code (a .fatbin: what the suite disassembles without loading) gives the same
    # SASS listing, build id and ptxas report as the library (whose listing has an empty
    # device-link section more, which sass() drops); a header beside the source is in the key
    source = tmp_path / "kernel.cu"
    (tmp_path / "value.cuh").write_text("#define VALUE 1.0f\n")
    source.write_text('#include "value.cuh"\n__global__ void k(float* x) { x[threadIdx.x] *= VALUE; }\n')
    library, alone = build.build(source, targets=("sm_90a",)), build.device_code(source, targets=("sm_90a",))
    assert library.suffix == ".so" and alone.suffix == ".fatbin"
    assert build.sass(library, "sm_90a") == build.sass(alone, "sm_90a") and "FMUL" not in build.sass(alone, "sm_90a")
    assert build.build_id(library) == build.build_id(alone)
    assert build.resource_usage(library) == build.resource_usage(alone)
    (tmp_path / "value.cuh").write_text("#define VALUE 3.0f\n")
    assert "FMUL" in build.sass(build.device_code(source, targets=("sm_90a",)), "sm_90a")


def test_sass_counts_show_the_hopper_software_decode(capsys):
    from common import cli
    cli.main(["sass", "03"])
    out = capsys.readouterr().out.splitlines()
    hopper, blackwell = (int(line.split(": ")[1].split()[0]) for line in out)
    assert "0 of them F2FP.F16.E2M1" in out[0] and "0 of them" not in out[1]
    assert hopper > 4 * blackwell      # the fp4 intrinsic is a software routine on sm_90a


def test_the_cluster_occupancy_probe_builds(tmp_path):
    # scripts/probes/cluster_occupancy.cu produced results/probes/clusters-*.txt (34, 35)
    source = build.REPO / "scripts" / "probes" / "cluster_occupancy.cu"
    proc = subprocess.run(["nvcc", "-O3", "-std=c++17", f"-I{build.CUDA_INCLUDE}",
                           "-gencode=arch=compute_90a,code=sm_90a", str(source), "-o",
                           str(tmp_path / "probe")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_the_barrier_occupancy_probe_builds_kernels_that_differ_in_their_barrier_record(tmp_path):
    # scripts/probes/barrier_occupancy.cu produced results/probes/barrier-occupancy-*.txt (section
    # 71): a barrier named by a register records all 16 of a block's, one named 1 records 2, and
    # barrier 0 alone none
    source = build.REPO / "scripts" / "probes" / "barrier_occupancy.cu"
    binary = tmp_path / "probe"
    proc = subprocess.run(["nvcc", "-O3", "-std=c++17", "-gencode=arch=compute_90a,code=sm_90a", str(source),
                           "-o", str(binary)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    elf = subprocess.run([build.cuda_tool("cuobjdump"), "-elf", str(binary)], capture_output=True, text=True, check=True).stdout
    records = {}
    for section in re.split(r"\n(?=\.nv\.info\.)", elf):
        name = re.match(r"\.nv\.info\.(\S+)", section)
        if name and "hold_place" in name.group(1):
            value = re.search(r"EIATTR_NUM_BARRIERS\s+Format:\s+\S+\s+Value:\s+(0x[0-9a-f]+)", section)
            records[name.group(1)] = int(value.group(1), 16) if value else 0
    assert sorted(records.values()) == [0, 2, 16], records


def test_the_warp_slots_probe_builds(tmp_path):
    # scripts/probes/warp_slots.cu produced results/probes/warp-slots-*.txt (section 71)
    source = build.REPO / "scripts" / "probes" / "warp_slots.cu"
    proc = subprocess.run(["nvcc", "-O3", "-std=c++17", "-gencode=arch=compute_90a,code=sm_90a", str(source),
                           "-o", str(tmp_path / "probe")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]


def _probe_script(name: str):
    """scripts/probes/<name>.py as a module (its SOURCE and the defines it builds with)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, build.REPO / "scripts" / "probes" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("order", ["26's order", "runs of 2", "runs of 4, wide SFA", "whole rows"])
def test_the_row_runs_probe_keeps_26s_residency_without_spilling(order):
    # scripts/probes/row_runs.py produced results/probes/row-runs-*.csv (36-38); an order that
    # spilled or lost 26's residency would time something else
    row_runs = _probe_script("row_runs")
    usage = build.resource_usage(build.device_code(row_runs.SOURCE, row_runs.ORDERS[order] or None))
    assert usage and all(u["registers"] <= 64 and u["spill_stores"] == 0 for u in usage), usage


@pytest.mark.parametrize("warps_per_sm", [4, 32])
def test_the_warps_in_flight_probe_builds_without_spilling(warps_per_sm):
    # scripts/probes/warps_in_flight.py produced results/probes/warps-in-flight-*.csv (46-48); its
    # residency comes from unused shared memory, so registers must not lower it below 32 warps
    probe = _probe_script("warps_in_flight")
    usage = build.resource_usage(build.device_code(probe.SOURCE, {"WARPS_PER_SM": warps_per_sm}))
    assert usage and all(u["registers"] <= 64 and u["spill_stores"] == 0 for u in usage), usage


def test_the_h200_rule_probe_builds_each_attempts_own_kernels():
    # scripts/probes/h200_rule_on_h100.py launches 93d's, 93g's and 93h's kernels with another
    # rule: each build's kernels must be that attempt's own code, and its sm_90a kernels at 64
    # registers without spills
    rule_builds = {**_probe_script("h200_rule_on_h100").builds(), **_probe_script("b_sent_first").builds(h200=False),
                   **_probe_script("halves_ahead").builds(h200=False),
                   **_probe_script("halves_ahead").builds(h200=False, names=("93m",))}
    for name, (source, defines) in rule_builds.items():
        library = build.device_code(source, defines)
        attempt = build.build(attempts.find(name.split(",")[0]).source)
        assert _kernel_sass(library, "nvfp4_gemv_kernel") == _kernel_sass(attempt, "nvfp4_gemv_kernel"), name
        usage = sorted(build.resource_usage(library), key=lambda u: (u["kernel"], u["target"]))
        assert usage == sorted(build.resource_usage(attempt), key=lambda u: (u["kernel"], u["target"])), name
        assert all(u["registers"] <= 64 and u["spill_stores"] == 0
                   for u in usage if u["target"] == "sm_90a"), name


def test_the_products_in_turns_probe_builds_93n_without_spills_its_h200_rule_in_host_code_only():
    # scripts/probes/products_in_turns.py: 93n's switch H200_RULE changes only its host code, so the
    # H100's build of 93n runs 93n's kernels; every build's sm_90a kernels at 64 registers, no spills
    probe = _probe_script("products_in_turns")
    own = _kernel_sass(build.build(attempts.find("93n").source), "nvfp4_gemv_kernel")
    for h200 in (True, False):
        for name, (source, defines) in probe.builds(h200).items():
            library = sm90a_build(source, defines)
            assert all(u["registers"] <= 64 and u["spill_stores"] == 0
                       for u in build.resource_usage(library) if u["target"] == "sm_90a"), name
            if name == "93n, the H200's rule":
                assert _kernel_sass(library, "nvfp4_gemv_kernel") == own


def test_the_multiplying_warps_probe_stamps_each_window_around_its_products_without_spills():
    # scripts/probes/multiplying_warps.py: 93f's H200 loop with a clock read once the window's A is
    # in (before any of its products) and one once its products are in the sums (after all of them)
    probe = _probe_script("multiplying_warps")
    library = sm90a_build(probe.SOURCE, probe.build_defines())
    assert all(u["registers"] <= 64 and u["spill_stores"] == 0 for u in build.resource_usage(library)
               if u["target"] == "sm_90a" and "stamped" in u["kernel"])
    (sass,) = _kernel_sass(library, "stamped_kernel").values()
    order = [op for line in sass for op in ("LDG.E.128.STRONG", "SR_CLOCKLO", "IDP.4A") if op in line]
    first = order.index("SR_CLOCKLO")
    assert order[:first].count("LDG.E.128.STRONG") == 4 and "IDP.4A" not in order[:first]
    assert order[first + 1:first + 65] == ["IDP.4A"] * 64 and order[first + 65] == "SR_CLOCKLO"


def _a_loads_in_flight(sass: str, load: str = "LDG.E.128.STRONG", words: int = 4) -> int:
    """The most `load` instructions (the probe's A loads, `words` registers each) issued before an
    instruction reads one."""
    most = issued = 0
    pending = set()
    for ins in re.findall(r"^\s*/\*[0-9a-f]{4,}\*/\s*(.*?)\s*;", sass, re.M):
        dest, *sources = ins.split(",")
        if pending & {int(r) for r in re.findall(r"\bR(\d+)\b", ",".join(sources))}:
            issued, pending = 0, set()
        if load in ins:
            first = int(re.search(r"\bR(\d+)\b", dest).group(1))
            pending |= set(range(first, first + words))
            issued += 1
            most = max(most, issued)
    return most


@pytest.mark.parametrize("probe, variant, load, words", [
    ("bytes_in_flight", "32 warps/SM, 2 windows", "LDG.E.128.STRONG", 4),
    ("half_windows", "32 warps/SM, 8 rows x 256 B", "LDG.E.64.STRONG", 2),
    ("half_windows", "24 warps/SM, 8 rows x 256 B", "LDG.E.64.STRONG", 2),
    *[("scale_runs", f"scale runs of {n} B", "LDG.E.128.STRONG", 4) for n in (64, 128, 512)]])
def test_the_load_probes_keep_eight_row_runs_in_flight_without_spilling(probe, variant, load, words):
    # bytes_in_flight.py asks what two windows (8 row runs) in flight per warp do, half_windows.py
    # what 52's 8 rows of 256 bytes read, scale_runs.py what 4 rows' scales read in 512-byte runs
    # beside a window's 4 rows of A, at up to 32 warps an SM: more than 64 registers would
    # lower that residency, a spill would time local memory, and ptxas using the first runs before
    # the last are issued would time fewer in flight
    script = _probe_script(probe)
    library = build.device_code(script.SOURCE, script.VARIANTS[variant])
    usage = build.resource_usage(library)
    assert usage and all(u["registers"] <= 64 and u["spill_stores"] == 0 for u in usage), usage
    for target in build.TARGETS:
        assert _a_loads_in_flight(build.sass(library, target), load, words) == 8, target


@pytest.mark.parametrize("probe, variant, load", [
    ("nc_loads", "non-coherent loads (the floor's)", "LDG.E.NA.128.CONSTANT"),
    ("staggered_windows", "staggered windows", "LDG.E.128.STRONG"),
    ("row_locality", "parts of 1, part-major", "LDG.E.128.STRONG"),
    ("l2_fetch_size", "A and scales .L2::256B", "LDG.E.LTC256B.128.STRONG")])
def test_the_one_window_load_probes_keep_a_windows_four_row_runs_in_flight(probe, variant, load):
    # nc_loads.py, staggered_windows.py, row_locality.py and l2_fetch_size.py change one thing in 43's loads alone; a build that
    # issued fewer of a window's 4 row runs before waiting, or lost 32 warps an SM, would time
    # something else as well
    script = _probe_script(probe)
    library = build.device_code(script.SOURCE, script.VARIANTS[variant])
    usage = build.resource_usage(library)
    assert usage and all(u["registers"] <= 64 and u["spill_stores"] == 0 for u in usage), usage
    for target in build.TARGETS:
        assert _a_loads_in_flight(build.sass(library, target), load) == 4, target


@pytest.mark.parametrize("copy", ["rows 4x512, 2 stages (49's)", "flat 32 KB, 2 stages"])
def test_the_copy_engine_probe_builds_without_spilling(copy):
    # scripts/probes/copy_engine.py produced results/probes/copy-engine-*.csv (49); its residency
    # comes from each warp's ring, so registers must not lower it below 32 warps an SM
    probe = _probe_script("copy_engine")
    usage = build.resource_usage(build.device_code(probe.SOURCE, probe.COPIES[copy] or None))
    assert usage and all(u["registers"] <= 64 and u["spill_stores"] == 0 for u in usage), usage


@pytest.mark.parametrize("variant", ["4 rows multiplied", "0 rows multiplied", "4 rows multiplied, scale runs",
                                     "0 rows multiplied, scale runs"])
def test_the_math_fraction_probe_builds_without_spilling(variant):
    # scripts/probes/math_fraction.py compares 76's split with less of its math at 76's 32 warps an
    # SM: more than 64 registers would lower that residency, a spill would time local memory
    probe = _probe_script("math_fraction")
    usage = build.resource_usage(build.device_code(probe.SOURCE, probe.VARIANTS[variant]))
    assert usage and all(u["registers"] <= 64 and u["spill_stores"] == 0 for u in usage), usage


@pytest.mark.parametrize("ring", ["self, work 8", "producer, work 8, 3 stages, 24 warps"])
def test_the_busy_ring_probe_builds_without_spilling(ring):
    # scripts/probes/busy_ring.py produced results/probes/busy-ring-*.csv (section 14); its residency
    # comes from shared memory, so registers must not lower it below 32 computing warps an SM
    probe = _probe_script("busy_ring")
    usage = build.resource_usage(build.device_code(probe.SOURCE, probe.RINGS[ring] or None))
    assert usage and all(u["registers"] <= 64 and u["spill_stores"] == 0 for u in usage), usage


@pytest.mark.parametrize("name", [n for n, (source, _) in floor.strategies().items()
                                  if source.parent == floor.STRATEGIES_DIR])
def test_the_floor_checks_read_strategies_build_for_both_targets_without_spilling(name):
    # `make floor-check` loads each of them on the GPU; a read that spills would time local memory
    source, defines = floor.strategies()[name]
    usage = build.resource_usage(build.device_code(source, defines))
    assert {u["target"] for u in usage} == {"sm_90a", "sm_100a"}, usage
    assert all(u["spill_stores"] == 0 for u in usage), usage


def test_53_waits_for_a_runs_scales_only_after_the_windows_a_loads_are_out():
    # 53's first window of a run issues its A loads, then waits on the barrier of the run's scale
    # copies. With cp.async.wait_group in its place ptxas hoisted the wait (a DEPBAR) above the
    # loads, so a warp's first window waited for its scales before asking for its A
    library = build.build(attempts.find("53").source)
    for target in build.TARGETS:
        for function in build.sass(library, target).split("Function : ")[1:]:
            ops = re.findall(r"^\s*/\*[0-9a-f]{4,}\*/\s*(?:@!?U?P\w+\s+)?([A-Z][\w.]*)", function, re.M)
            assert "DEPBAR" not in {op.split(".")[0] for op in ops}, target
            first_wait = next(i for i, op in enumerate(ops) if op.startswith("SYNCS.PHASECHK"))
            assert sum(op.startswith("LDG.E.128.STRONG") for op in ops[:first_wait]) >= 4, target


@pytest.mark.parametrize("kernel", ["95", "95 without products", "95 in 98's blocks", "95a", "95a, partials in a static array",
                                    "95a, pairs stamped", "95a without products, pairs stamped", "95a, others leave",
                                    "95a, rows and scales stamped"])
def test_the_timeline_probe_keeps_95s_registers_without_spilling(kernel):
    # scripts/probes/timeline.py stamps 95's Hopper kernel: a stamp that spilled or lowered its 32
    # warps an SM would time another kernel (the probe's copy is 95's sm_90a path only)
    probe = _probe_script("timeline")
    kernels = probe.KERNELS | probe.PAIR_KERNELS | probe.ROOM_KERNELS | probe.BYTES_KERNELS
    usage = [u for u in build.resource_usage(sm90a_build(probe.SOURCE, kernels[kernel])) if u["target"] == "sm_90a"]
    assert usage and all(u["registers"] <= 64 and u["spill_stores"] == 0 for u in usage), usage


@pytest.mark.parametrize("number", ["84q", "84v", "84w", "84x", "84y", "84z", "84za", "84zb", "84zc", "84zd", "84ze", "84zf", "84zg"])
def test_the_ring_timeline_stamps_a_ring_without_spilling_and_only_when_asked(number):
    # scripts/probes/ring_timeline.py builds 84q (rows_split.py 84v, short_folds.py 84w, runs_from_host.py 84x, runs_spread.py 84y, joins_in_turn.py 84z, first_stages_apart.py 84za, tiles_by_ticket.py 84zb, hand_over_unmet.py 84zc, ring_split_tail.py 84zd, split_tail_an_sm.py 84ze, split_tail_of_eight.py 84zf and 84zg) with RING_STAMPS=1: the stamps
    # (the global timer read at a block's start and end) only in that build, and no spill in it (a
    # spilled stamp would time another kernel); the attempt's own build reads no timer
    probe = _probe_script("ring_timeline")
    source = attempts.find(number).source
    stamped = sm90a_build(source, probe.STAMPED)
    usage = [u for u in build.resource_usage(stamped) if u["target"] == "sm_90a"]
    assert usage and all(u["spill_stores"] == 0 for u in usage), usage
    assert "SR_GLOBALTIMER" in build.sass(stamped, "sm_90a")
    assert "SR_GLOBALTIMER" not in build.sass(build.build(source), "sm_90a")


def _sass_lines(library):
    """A build's sm_90a SASS without the lines that name the build (the same code compares equal)."""
    return [line for line in build.sass(library, "sm_90a").splitlines() if "identifier" not in line]


def test_the_register_cap_probe_builds_93a_as_its_control_and_holds_its_caps():
    # scripts/probes/register_cap.py includes 93a's kernel.cu: its control must be 93a's code, and
    # each capped build must use no more registers than its cap (64: 93a's launch bounds)
    probe = _probe_script("register_cap")
    builds = probe.builds()

    assert _sass_lines(sm90a_build(*builds["93a through this file"])) == _sass_lines(build.build(attempts.find("93a").source))
    for name, (source, defines) in builds.items():
        usage = [u for u in build.resource_usage(sm90a_build(source, defines)) if u["target"] == "sm_90a"]
        assert usage and all(u["registers"] <= (defines["REG_CAP"] or 64) for u in usage), (name, usage)


def test_the_ahead_without_runs_probe_launches_the_attempts_own_kernels_and_the_timed_one_does_not_spill():
    # scripts/probes/ahead_without_runs.py includes 93a's and 93b's kernel.cu and launches their
    # kernel without the runs (<false, false> where K is whole windows): the kernels must be the
    # attempts' own code, and the one it times on the H100 must not spill (93b's kernel with the
    # runs does, closing-the-gap section 59)
    probe = _probe_script("ahead_without_runs")

    for name, (source, defines) in probe.builds().items():
        library = sm90a_build(source, defines)
        attempt = attempts.find(name.split()[0])
        assert _sass_lines(library) == _sass_lines(build.build(attempt.source)), name
        timed = [u for u in build.resource_usage(library) if u["target"] == "sm_90a" and "ILb0ELb0E" in u["kernel"]]
        assert timed and all(u["registers"] <= 64 and u["spill_stores"] == 0 for u in timed), (name, timed)


def _kernel_sass(library, name: str) -> dict:
    """A build's sm_90a SASS per function whose mangled name contains `name`."""
    functions = re.split(r"^\s*Function : ", build.sass(library, "sm_90a"), flags=re.M)[1:]
    # blank lines dropped: the listing's last function ends without them
    return {f.split("\n", 1)[0].strip(): [line for line in f.splitlines()[1:] if line.strip() and "identifier" not in line]
            for f in functions if name in f.split("\n", 1)[0]}


def test_the_launch_cost_probe_runs_93cs_code_and_holds_the_registers_it_names():
    # scripts/probes/launch_cost.py includes 93c's kernel.cu: its kernels must be 93c's code; the
    # no-work kernel holds 93c's 64 registers only where the variant says so
    probe = _probe_script("launch_cost")
    builds = probe.builds()
    attempt = build.build(attempts.find("93c").source)

    for name in ("93c through this file", "93c, carveout preferring L1"):
        ours = _kernel_sass(sm90a_build(*builds[name]), "nvfp4_gemv_kernel")
        assert ours and ours == _kernel_sass(attempt, "nvfp4_gemv_kernel"), name
    for name, (source, defines) in builds.items():
        if defines["WORK"] == 0:
            usage = [u for u in build.resource_usage(sm90a_build(source, defines))
                     if u["target"] == "sm_90a" and "no_work" in u["kernel"]]
            held = defines.get("HOLD_REGISTERS", 0)
            assert usage and all((u["registers"] == 64) == bool(held) for u in usage), (name, usage)


def test_the_split_count_probe_runs_93cs_kernels_unchanged():
    # scripts/probes/split_count.py includes 93c's kernel.cu and changes only the launch's S: its
    # kernels must be 93c's code in every build
    probe = _probe_script("split_count")
    attempt = _kernel_sass(build.build(attempts.find("93c").source), "nvfp4_gemv_kernel")
    assert attempt
    for name, (source, defines) in probe.builds().items():
        assert _kernel_sass(sm90a_build(source, defines), "nvfp4_gemv_kernel") == attempt, name


def test_93d_runs_93cs_kernels():
    # 93d changes 93c's dispatch only: its kernels must be 93c's code, instruction for instruction
    ours = _kernel_sass(build.build(attempts.find("93d").source), "nvfp4_gemv_kernel")
    assert ours and ours == _kernel_sass(build.build(attempts.find("93c").source), "nvfp4_gemv_kernel")


@pytest.mark.parametrize("number", ["93g", "93h", "93j", "93k"])
def test_93g_rolls_only_the_kernel_without_runs_and_short_window(number):
    # 93g's README: its kernels with the scale runs or the short window are 93d's code, instruction
    # for instruction (so on the H100 93g is 93d); the one without both has the rolled loop
    ours = _kernel_sass(build.build(attempts.find(number).source), "nvfp4_gemv_kernel")
    parent = _kernel_sass(build.build(attempts.find("93d").source), "nvfp4_gemv_kernel")
    rolled = "_Z17nvfp4_gemv_kernelILb0ELb0EEvPKhS1_S1_S1_P6__halfiixxiij"
    assert set(ours) == set(parent) and len(ours) == 4, sorted(ours)
    assert all(ours[name] == parent[name] for name in ours if name != rolled)
    assert ours[rolled] != parent[rolled]
    assert sum("LDG.E.STRONG.SM" in line for line in ours[rolled]) > 0


def test_93g_without_the_roll_builds_93ds_kernels():
    # The probe rolled-table times 93g built with ROLLED_ROWS=0 as 93d's code in 93g's module
    ours = _kernel_sass(sm90a_build(attempts.find("93g").source, {"ROLLED_ROWS": 0}), "nvfp4_gemv_kernel")
    assert ours and ours == _kernel_sass(build.build(attempts.find("93d").source), "nvfp4_gemv_kernel")


def test_93i_launches_93hs_rolled_kernel_and_93ds_others():
    # 93i's README: its kernel with the rolled loop is 93h's, and the three others and the one
    # without runs, short window or roll (one-window parts) are 93d's, instruction for instruction
    ours = _kernel_sass(build.build(attempts.find("93i").source), "nvfp4_gemv_kernel")
    parent = _kernel_sass(build.build(attempts.find("93h").source), "nvfp4_gemv_kernel")
    loops = _kernel_sass(build.build(attempts.find("93d").source), "nvfp4_gemv_kernel")

    def name(short, runs, rolled=None):
        flags = "".join(f"ELb{int(flag)}" for flag in (short, runs) + (() if rolled is None else (rolled,)))
        return f"_Z17nvfp4_gemv_kernelIL{flags[2:]}EEvPKhS1_S1_S1_P6__halfiixxiij"

    assert len(ours) == 5, sorted(ours)
    assert ours[name(0, 0, 1)] == parent[name(0, 0)]
    for short, runs in ((0, 0), (0, 1), (1, 0), (1, 1)):
        assert ours[name(short, runs, 0)] == loops[name(short, runs)]


def test_93g_with_its_first_b_strong_sends_b_after_a():
    # The probe first_b_order times 93g built with FIRST_B_STRONG=1: only its rolled kernel changes
    # (93d's kernels elsewhere), and there B's first window goes out after the four rows of A
    ours = _kernel_sass(sm90a_build(attempts.find("93g").source, {"FIRST_B_STRONG": 1}), "nvfp4_gemv_kernel")
    default = _kernel_sass(build.build(attempts.find("93g").source), "nvfp4_gemv_kernel")
    rolled = "_Z17nvfp4_gemv_kernelILb0ELb0EEvPKhS1_S1_S1_P6__halfiixxiij"
    assert all(ours[name] == default[name] for name in default if name != rolled)
    loads = [line for line in ours[rolled] if "LDG.E.128" in line]
    assert [("CONSTANT" in line) for line in loads[:5]] == [False] * 5, loads[:5]


def test_93e_at_64_registers_builds_93fs_kernels():
    # The probe fewer-registers times 93e built at 64 registers as 93f's code (93f's README):
    # every kernel must be 93f's, instruction for instruction
    ours = _kernel_sass(build.build(attempts.find("93f").source), "nvfp4_gemv_kernel")
    assert ours and ours == _kernel_sass(sm90a_build(attempts.find("93e").source, {"H200_REGISTERS": 64}),
                                         "nvfp4_gemv_kernel")


def test_93t_decodes_b_without_its_signs_where_93f_picks_them():
    # 93t's README: in the H200's kernel (no runs, no short window) B's words are decoded as 2|b|
    # and -2|b| (no pick selector, 0x3210, and a quarter fewer PRMT than 93f's 96 a window); the
    # same kernel, IDP.4A for IDP.4A
    name = "_Z17nvfp4_gemv_kernelILb0ELb0EEvPKhS1_S1_S1_P6__halfiixxiij"
    ours = _kernel_sass(build.build(attempts.find("93t").source), name)[name]
    parent = _kernel_sass(build.build(attempts.find("93f").source), name)[name]
    count = lambda sass, op: sum(f" {op} " in line for line in sass)  # noqa: E731
    assert any("0x3210" in line for line in parent) and not any("0x3210" in line for line in ours)
    assert count(parent, "PRMT") == 96 and count(ours, "PRMT") == 80
    assert count(ours, "IDP.4A.S8.S8") == count(parent, "IDP.4A.S8.S8") == 64


def test_93us_control_changes_only_the_launch():
    # resident_tiles.py's control: RESIDENT=0 builds 93u's device code, kernel for kernel, and in
    # the H200's kernel a tile's code is a loop around the window loop (93f's has none)
    ours = _kernel_sass(build.build(attempts.find("93u").source), "nvfp4_gemv_kernel")
    assert ours and ours == _kernel_sass(sm90a_build(attempts.find("93u").source, {"RESIDENT": 0}), "nvfp4_gemv_kernel")
    parent = _kernel_sass(build.build(attempts.find("93f").source), "nvfp4_gemv_kernel")
    name = "_Z17nvfp4_gemv_kernelILb0ELb0EEvPKhS1_S1_S1_P6__halfiixxiij"
    assert _nested_loops(ours[name]) and not _nested_loops(parent[name])


def test_93z_keeps_93fs_kernels_and_schedules_its_runs_as_93fs_window_loop():
    # 93z's README: its nvfp4_gemv_kernel instantiations are 93f's, instruction for instruction; the
    # dealt kernel is two of 93f's window loops one after the other (no loop around them), whose four
    # rows of A are first waited on as late as in 93f's H200 loop, give or take 15 instructions
    # (with a branch around an empty run and without the second bound's min, 40-70: seen failing)
    from scripts import load_path
    ours = _kernel_sass(build.build(attempts.find("93z").source), "nvfp4_gemv_kernel")
    assert ours and ours == _kernel_sass(build.build(attempts.find("93f").source), "nvfp4_gemv_kernel")
    dealt = "_Z23nvfp4_gemv_dealt_kernelPKhS0_S0_S0_P6__halfixxi16DealtReciprocals"
    parent = "_Z17nvfp4_gemv_kernelILb0ELb0EEvPKhS1_S1_S1_P6__halfiixxiij"
    assert not _nested_loops(_kernel_sass(build.build(attempts.find("93z").source), dealt)[dealt])
    ((_, parent_waits),) = load_path.a_load_waits("93f")[parent]
    runs = load_path.a_load_waits("93z")[dealt]
    assert len(runs) == 2
    for _, waits in runs:
        assert all(abs(w - p) <= 15 or w > p for w, p in zip(waits, parent_waits)), (waits, parent_waits)


def test_93zc_keeps_93fs_kernels_and_takes_each_window_by_ticket():
    # 93zc's README: its nvfp4_gemv_kernel instantiations are 93f's, instruction for instruction;
    # the dealt kernel takes a window a ticket (one shared atomic in its loop of one window, none in
    # the control TICKETS=0), and both builds schedule that loop alike (A's loads on one scoreboard,
    # first waited on at the same distance after the last of them)
    from scripts import load_path
    ours = _kernel_sass(build.build(attempts.find("93zc").source), "nvfp4_gemv_kernel")
    assert ours and ours == _kernel_sass(build.build(attempts.find("93f").source), "nvfp4_gemv_kernel")
    dealt = "_Z23nvfp4_gemv_dealt_kernelPKhS0_S0_S0_P6__halfixxi16DealtReciprocals"
    waits = []
    for defines, atomics in ((None, 1), ({"TICKETS": 0}, 0)):
        (loop,) = [loop for kernel, loop in load_path.controlled_loops("93zc", defines)
                   if kernel == dealt and any("IDP" in text for _, text, _ in loop)]
        assert sum("ATOMS" in text for _, text, _ in loop) == atomics, defines
        a_loads = [i for i, (_, text, _) in enumerate(loop) if load_path.A_LOAD.match(text)]
        board = (loop[a_loads[0]][2] >> 46) & 7
        assert {(loop[i][2] >> 46) & 7 for i in a_loads} == {board}, defines
        waits.append(next(k for k in range(a_loads[-1] + 1, len(loop)) if (loop[k][2] >> 52) >> board & 1) - a_loads[-1])
    assert waits[0] == waits[1], waits


def test_93zd_keeps_93fs_kernels_with_the_runs_and_sends_each_window_a_window_ahead():
    # 93zd's README: its kernels with the runs are 93f's, instruction for instruction; the others
    # hold two windows in 128 registers without spilling, and in their loop of two windows every
    # load of A goes out at least 100 instructions before its first wait (counted on around the
    # back edge); at 21 warps ptxas sinks the second window's loads to the end of the pass
    from scripts import load_path
    def kernels(number, defines=None):   # the listing's columns are as wide as the library's longest line
        return {name: [" ".join(line.split()) for line in sass] for name, sass in _kernel_sass(
            build.build(attempts.find(number).source, defines), "nvfp4_gemv_kernelILb").items()}
    with_runs = {name: sass for name, sass in kernels("93zd").items() if "ELb1E" in name}
    assert len(with_runs) == 2 and with_runs.items() <= kernels("93f").items()
    # the probe ahead_at_equal_warps's control (WINDOW_AHEAD 0) runs 93f's kernels on 93zd's launch
    assert kernels("93zd", {"WINDOW_AHEAD": 0}) == kernels("93f")
    usage = {row["kernel"]: row for row in build.resource_usage(build.build(attempts.find("93zd").source))
             if row["target"] == "sm_90a"}
    ahead = "_Z17nvfp4_gemv_kernelILb0ELb0EEvPKhS1_S1_S1_P6__halfiixxiij"
    assert usage[ahead]["registers"] == 128 and not usage[ahead].get("spill_stores")

    def cover(defines):   # per load of A in the loop of two windows: instructions to its first wait
        (rows,) = [rows for rows in load_path.load_scoreboards("93zd", defines)[ahead] if len(rows) >= 20]
        return [waited - place for place, opcode, _, waited in rows if opcode.startswith("LDG.E.128.STRONG")]
    assert len(cover(None)) == 8 and min(cover(None)) >= 100, cover(None)
    assert min(cover({"AHEAD_WARPS": 21})) < 20


def test_93za_sleeps_before_its_first_load_and_keeps_93fs_window_loop():
    # 93za's README: each kernel sleeps (by the launch's stagger) before any global load, and the
    # H200's window loop is 93f's, opcode for opcode, its rows waited on where 93f's are
    from scripts import load_path
    name = "nvfp4_gemv_kernelILb0ELb0E"
    ours = _kernel_sass(build.build(attempts.find("93za").source), "nvfp4_gemv_kernel")
    for lines in ours.values():
        ops = [line for line in lines if "NANOSLEEP" in line or "LDG" in line]
        assert "NANOSLEEP" in ops[0], ops[:2]

    def loop_ops(number):
        (loop,) = [loop for kernel, loop in load_path.controlled_loops(number) if name in kernel and len(loop) > 300]
        return [re.sub(r"^@!?U?P\d+\s+", "", text).split()[0] for _, text, _ in loop]
    assert loop_ops("93za") == loop_ops("93f")
    waits = lambda number: [w for kernel, loops in load_path.a_load_waits(number).items() if name in kernel  # noqa: E731
                            for _, w in loops]
    assert waits("93za") == waits("93f")


def test_93zb_changes_only_the_dispatch():
    # 93zb's README: its kernels are 93f's, instruction for instruction
    ours = _kernel_sass(build.build(attempts.find("93zb").source), "nvfp4_gemv_kernel")
    assert ours and ours == _kernel_sass(build.build(attempts.find("93f").source), "nvfp4_gemv_kernel")


def _nested_loops(sass: list) -> bool:
    """Whether a loop (a backward branch's range of addresses) holds another one."""
    loops = [(int(m.group(2), 16), int(m.group(1), 16)) for line in sass
             if (m := re.search(r"/\*([0-9a-f]{4})\*/.*BRA (0x[0-9a-f]+)", line)) and int(m.group(2), 16) < int(m.group(1), 16)]
    return any(lo < inner_lo and inner_hi < hi for lo, hi in loops for inner_lo, inner_hi in loops)


def test_93w_runs_93ts_kernels_where_it_takes_its_decode_and_93fs_elsewhere():
    # 93w's README: its third template argument picks 93t's decode (1) or 93f's (0), and each of its
    # eight kernels is that attempt's kernel of the same first two arguments, instruction for instruction
    ours = _kernel_sass(build.build(attempts.find("93w").source), "nvfp4_gemv_kernel")
    by_decode = {"0": _kernel_sass(build.build(attempts.find("93f").source), "nvfp4_gemv_kernel"),
                 "1": _kernel_sass(build.build(attempts.find("93t").source), "nvfp4_gemv_kernel")}
    assert len(ours) == 8
    for name, sass in ours.items():
        short, runs, signs, rest = re.match(r"_Z17nvfp4_gemv_kernelILb(\d)ELb(\d)ELb(\d)E(.*)", name).groups()
        assert sass == by_decode[signs][f"_Z17nvfp4_gemv_kernelILb{short}ELb{runs}E{rest}"], name


def test_93xs_control_is_93f_with_cta_scope_loads_and_93x_prefetches_in_the_h200s_loop():
    # 93x's README: WINDOWS_AHEAD=0 builds 93f's kernels instruction for instruction but for the
    # flavour of A's and its scales' loads (CTA scope, evict_first in L1); 93x's H200 kernel (no
    # runs, no short window) sends one prefetch into L1 in its window loop, 93f's none
    def instructions(sass):   # each instruction's text, without its address and encoding
        return [m.group(1) for line in sass if (m := re.search(r"/\*[0-9a-f]{4}\*/\s+(.*?)\s*;", line))]
    as_cta = lambda text: text.replace("LDG.E.128.STRONG.GPU", "LDG.E.EF.128").replace(  # noqa: E731
        "LDG.E.U16.STRONG.GPU", "LDG.E.EF.U16")
    parent = _kernel_sass(build.build(attempts.find("93f").source), "nvfp4_gemv_kernel")
    control = _kernel_sass(sm90a_build(attempts.find("93x").source, {"WINDOWS_AHEAD": 0}), "nvfp4_gemv_kernel")
    assert parent and control.keys() == parent.keys()
    for name in parent:
        assert instructions(control[name]) == [as_cta(text) for text in instructions(parent[name])], name
    h200 = "_Z17nvfp4_gemv_kernelILb0ELb0EEvPKhS1_S1_S1_P6__halfiixxiij"
    ours = instructions(_kernel_sass(build.build(attempts.find("93x").source), h200)[h200])
    assert sum("CCTL.E.PF1" in text for text in ours) == 1
    assert not any("CCTL" in text for text in instructions(parent[h200]))


def test_93ys_control_is_93xs_and_93y_copies_through_l1_at_the_end_of_the_h200s_loop():
    # 93y's README: WINDOWS_AHEAD=0 builds 93x's control kernel for kernel; 93y's H200 kernel sends
    # three 4-byte copies through L1 (LDGSTS.E, not .BYPASS) a pass, after every load of A
    control = _kernel_sass(sm90a_build(attempts.find("93y").source, {"WINDOWS_AHEAD": 0}), "nvfp4_gemv_kernel")
    assert control and control == _kernel_sass(sm90a_build(attempts.find("93x").source, {"WINDOWS_AHEAD": 0}),
                                               "nvfp4_gemv_kernel")
    h200 = "_Z17nvfp4_gemv_kernelILb0ELb0EEvPKhS1_S1_S1_P6__halfiixxiij"
    loop = [line for line in _kernel_sass(build.build(attempts.find("93y").source), h200)[h200] if "LDG" in line]
    copies = [i for i, line in enumerate(loop) if "LDGSTS.E " in line]
    loads = [i for i, line in enumerate(loop) if "LDG.E.EF.128" in line]
    assert len(copies) >= 3 and not any("BYPASS" in loop[i] for i in copies)
    assert max(loads) < sorted(copies)[-3]


def test_the_l1_prefetch_probe_sends_each_way_its_own_instruction():
    # scripts/probes/l1_prefetch.cu: the two prefetches (CCTL.E.PF1, .PF2), the copy, the touch (a 4-byte load
    # at CTA scope, evict_last in L1), and the walk at both scopes
    sass = build.sass(build.device_code(REPO / "scripts" / "probes" / "l1_prefetch.cu"), "sm_90a")
    for instruction in ("CCTL.E.PF1", "CCTL.E.PF2", "LDG.E.EL.STRONG.SM", "LDG.E.EF.64", "LDG.E.64.STRONG.GPU", "LDGSTS.E "):
        assert instruction in sass, instruction


def test_93l_sends_the_next_windows_first_half_before_the_second_block_in_the_h200s_kernel_only():
    # 93l's README: its kernels with the scale runs or the short window are 93f's code, instruction
    # for instruction (so on the H100 93l is 93f); in the one without both, the next window's first
    # half (four LDG.E.EF.64) and the anchor go out before the second block's products
    ours = _kernel_sass(build.build(attempts.find("93l").source), "nvfp4_gemv_kernel")
    parent = _kernel_sass(build.build(attempts.find("93f").source), "nvfp4_gemv_kernel")
    changed = "_Z17nvfp4_gemv_kernelILb0ELb0EEvPKhS1_S1_S1_P6__halfiixxiij"
    assert set(ours) == set(parent) and len(ours) == 4, sorted(ours)
    assert all(ours[name] == parent[name] for name in ours if name != changed)
    order = [op for line in ours[changed] for op in ("LDG.E.EF.64", "LDG.E.STRONG.SM", "IDP.4A") if op in line]
    first_half = order.index("LDG.E.EF.64")
    anchor = order.index("LDG.E.STRONG.SM", first_half)
    assert order[first_half:anchor].count("LDG.E.EF.64") == 4, order[first_half:anchor]
    second_half = order.index("LDG.E.EF.64", anchor)
    assert order[anchor:second_half].count("IDP.4A") >= 28, order[anchor:second_half]  # the second block's 32
    assert order[second_half:].count("LDG.E.EF.64") == 4


def test_93m_sends_the_next_window_before_waiting_for_the_current_one_in_the_h200s_kernels_only():
    # 93m's README: its kernels with the scale runs are 93f's code, instruction for instruction (so
    # on the H100 93m is 93f); in the two without, each pass of the window loop sends the next
    # window's ten copies (LDGSTS) before it waits for the current window's and multiplies it
    def normalized(sass):
        return {name: [" ".join(line.split()) for line in lines] for name, lines in sass.items()}
    ours = normalized(_kernel_sass(build.build(attempts.find("93m").source), "nvfp4_gemv_kernel"))
    parent = normalized(_kernel_sass(build.build(attempts.find("93f").source), "nvfp4_gemv_kernel"))
    changed = {name for name in ours if "Lb0EEv" in name}  # the second template argument: no runs
    assert set(ours) == set(parent) and len(changed) == 2, sorted(ours)
    assert all(ours[name] == parent[name] for name in ours if name not in changed)
    for name in changed:
        order = [op for line in ours[name] for op in ("LDGSTS", "DEPBAR.LE", "IDP.4A") if op in line]
        wait = order.index("DEPBAR.LE")
        assert order[:wait].count("LDGSTS") >= 10 and "IDP.4A" not in order[:wait], order[:wait + 1]


def test_93ze_keeps_93fs_kernels_with_the_runs_and_has_the_copy_engine_send_a_window_ahead():
    # 93ze's README: its kernels with the scale runs are 93f's code, instruction for instruction
    # (the tensor maps are parameters after 93f's, so only the mangled names differ); in the two
    # without, lane 0 sends each window's A and its scales as two tensor copies, a window ahead of
    # the pass that waits for them (two sends before the loop's wait and two in it: four), the
    # control without the window ahead two; the reads back are shared-memory loads and no product
    # comes before the first wait
    def normalized(sass):
        return {name.removesuffix("10WindowMaps"): [" ".join(line.split()) for line in lines]
                for name, lines in sass.items()}
    parent = normalized(_kernel_sass(build.build(attempts.find("93f").source), "nvfp4_gemv_kernel"))
    for defines, sends in ((None, 4), ({"STAGED_AHEAD": 0}, 2)):
        ours = normalized(_kernel_sass(build.build(attempts.find("93ze").source, defines), "nvfp4_gemv_kernel"))
        changed = {name for name in ours if "Lb0EE" in name}  # the second template argument: no runs
        assert set(ours) == set(parent) and len(changed) == 2, sorted(ours)
        assert all(ours[name] == parent[name] for name in ours if name not in changed)
        for name in changed:
            order = [op for line in ours[name] for op in ("UTMALDG", "SYNCS.PHASECHK", "IDP.4A", " LD.") if op in line]
            assert order.count("UTMALDG") == sends and " LD." not in order, (defines, name)
            wait = order.index("SYNCS.PHASECHK")
            assert order[:wait].count("UTMALDG") == sends  # every send comes before the first wait
            assert "IDP.4A" not in order[:wait], order[:wait + 1]


def test_93zf_keeps_93fs_kernels_and_takes_a_ticket_a_tile():
    # 93zf's README: its nvfp4_gemv_kernel instantiations are 93f's, instruction for instruction;
    # the tickets' kernel takes one ticket (an atomic increment) in its loop, with RESIDENT=0 too,
    # and none with TICKETS=0 (93u's fixed shares)
    parent = _kernel_sass(build.build(attempts.find("93f").source), "nvfp4_gemv_kernel")
    source = attempts.find("93zf").source
    assert parent and _kernel_sass(build.build(source), "nvfp4_gemv_kernel") == parent
    for defines, tickets in ((None, 1), ({"RESIDENT": 0}, 1), ({"TICKETS": 0}, 0)):
        ours = _kernel_sass(build.build(source, defines), "nvfp4_gemv_tickets_kernel")
        assert len(ours) == 2, sorted(ours)
        for name, lines in ours.items():
            assert sum("ATOMG.E.INC" in line for line in lines) == tickets, (defines, name)
    # the probe tiles_a_warp's grids (SHARE_TILES) run the fixed shares' device code
    fixed = _kernel_sass(build.build(source, {"TICKETS": 0}), "nvfp4_gemv_tickets_kernel")
    assert all(_kernel_sass(build.build(source, {"TICKETS": 0, "SHARE_TILES": n}), "nvfp4_gemv_tickets_kernel") == fixed
               for n in (1, 2, 4))


def test_93zfs_ticket_is_waited_on_at_the_next_pass_or_after_the_windows_where_they_have_a_loop():
    # closing-the-gap section 98: in 93zf's one loop the ticket's atomic is first waited on at the
    # top of the loop's next pass, before that pass's loads of A; with NESTED=1 (a tile's windows in
    # a loop of their own) only after that loop's back branch
    from scripts import load_path
    for defines in (None, {"NESTED": 1, "DEALERS": 32}):
        sass = build.sass(build.measured_code(attempts.find("93zf").source, defines), build.MEASURED_TARGET)
        (listing,) = [listing for name, listing in load_path.listings(sass) if "tickets_kernelILb0" in name]
        (atom,) = [i for i, (_, text, _) in enumerate(listing) if "ATOMG" in text]
        board = (listing[atom][2] >> 46) & 7
        waits = [i for i, (_, _, control) in enumerate(listing) if (control >> 52) >> board & 1]
        loops = load_path.back_branches(listing)
        if defines is None:
            top, back = min((b, t) for t, b in loops if t < atom < b)[::-1]  # a pass's own back branch
            assert not [w for w in waits if atom < w <= back]
            first_load = next(i for i in range(top, back) if load_path.A_LOAD.match(listing[i][1]))
            assert [w for w in waits if top <= w < first_load]
        else:
            top, back = min((t, b) for t, b in loops if atom < t)  # the window loop
            assert min(w for w in waits if w > atom) > back


def test_93q_signals_its_dependents_before_its_first_load_and_93f_does_not():
    # 93q's README: every block of either grid signals griddepcontrol.launch_dependents (PREEXIT)
    # at its start, so that the tail grid may start once the first grid's last block has; 93f,
    # launched alone, has no such signal
    op = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][\w.]*)")
    for number, signals in (("93q", True), ("93r", True), ("93f", False)):
        library = build.build(attempts.find(number).source)
        for target in ("sm_90a", "sm_100a"):
            kernels = [f for f in re.split(r"^\s*Function : ", build.sass(library, target), flags=re.M)[1:]
                       if "nvfp4_gemv_kernel" in f.split("\n", 1)[0]]
            assert len(kernels) == 4, (number, target)
            for kernel in kernels:
                ops = op.findall(kernel)
                assert ops.count("PREEXIT") == (1 if signals else 0), (number, target, kernel[:80])
                if signals:
                    first_load = next(i for i, o in enumerate(ops) if o.startswith("LDG"))
                    assert ops.index("PREEXIT") < first_load, (target, kernel[:80])


def test_93n_takes_turns_only_in_a_kernel_of_its_own_with_every_product_after_the_wait():
    # 93n's README: its kernels of 93f's template arguments are 93f's code, instruction for
    # instruction (so its other launches are 93f's); in the turns' kernel each pass sends its ten
    # loads, waits for its turn (BAR.SYNC), reads the look-up word (LDS) and only then multiplies
    def normalized(sass):
        return {name: [" ".join(line.split()) for line in lines] for name, lines in sass.items()}
    ours = normalized(_kernel_sass(build.build(attempts.find("93n").source), "nvfp4_gemv_kernel"))
    parent = normalized(_kernel_sass(build.build(attempts.find("93f").source), "nvfp4_gemv_kernel"))
    turns = "_Z17nvfp4_gemv_kernelILb0ELb0ELb1EEvPKhS1_S1_S1_P6__halfiixxiij"
    assert set(ours) == {name.replace("EEvPKh", "ELb0EEvPKh") for name in parent} | {turns}, sorted(ours)
    assert all(ours[name.replace("EEvPKh", "ELb0EEvPKh")] == parent[name] for name in parent)
    order = [op for line in ours[turns] for op in ("LDG.E", "BAR.SYNC", "LDS", "IDP.4A", "BAR.ARV") if op in line]
    wait = order.index("BAR.SYNC", order.index("LDG.E"))
    assert order[:wait].count("LDG.E") == 10 and "IDP.4A" not in order[:wait], order[:wait + 1]
    assert order[wait + 1] == "LDS" and order[wait + 2:wait + 66] == ["IDP.4A"] * 64, order[wait:wait + 3]
    assert order[wait + 66] == "BAR.ARV"


@pytest.mark.parametrize("number", ["93g", "93h", "93j", "93k", "93l"])
def test_a_loads_sent_for_the_next_pass_are_waited_on_together(number):
    # closing-the-gap section 68: in the H200 kernel of the rolled loops (93g-93k) and of 93l, every
    # load of A sent for the loop's next pass shares one scoreboard, first waited on at one place
    # however early it went out; 93f's loop (its loads and their use in one pass) waits on its rows
    # at three places, each on its own scoreboard
    from scripts import load_path
    changed = "_Z17nvfp4_gemv_kernelILb0ELb0EEvPKhS1_S1_S1_P6__halfiixxiij"

    def a_waits(attempt):
        (loop,) = load_path.load_scoreboards(attempt)[changed]
        return [(board, waited) for _, opcode, board, waited in loop
                if opcode in ("LDG.E.128.STRONG.GPU", "LDG.E.EF.64")]
    ours, parent = a_waits(number), a_waits("93f")
    assert len(ours) >= 4 and len({board for board, _ in ours}) == 1, ours  # 93k's B is a 16-byte strong load too
    assert max(w for _, w in ours) - min(w for _, w in ours) <= 4 and min(w for _, w in ours) > 340, ours
    assert len({waited for _, waited in parent}) == 3 and len({board for board, _ in parent}) == 3, parent


def test_93o_joins_through_a_fence_and_93p_on_the_chip_without_one():
    # 93o's and 93p's READMEs: only the kernel with the runs and without the short window joins.
    # 93o's join is a GPU-wide fence and an atomic; 93p's is one st.async into the first block's
    # shared memory counted on its mbarrier, with no fence (a release at cluster scope would be one)
    def joining(number):
        kernels = _kernel_sass(build.build(attempts.find(number).source), "nvfp4_gemv_kernel")
        return {name: "\n".join(lines) for name, lines in kernels.items()}
    o, p = joining("93o"), joining("93p")
    for kernels in (o, p):
        assert len(kernels) == 4
    joins_o = [name for name, text in o.items() if "ATOMG" in text]
    joins_p = [name for name, text in p.items() if "STAS" in text]
    assert len(joins_o) == 1 and "ILb0ELb1E" in joins_o[0]
    assert len(joins_p) == 1 and "ILb0ELb1E" in joins_p[0]
    assert "MEMBAR.ALL.GPU" in o[joins_o[0]]
    assert "MEMBAR" not in p[joins_p[0]] and "UCGABAR_ARV" in p[joins_p[0]]


@pytest.mark.parametrize("number", ["84a", "84b", "84c", "84d"])
def test_84a_multiplies_on_the_warpgroup_mma_in_e4m3_with_no_conversion_of_its_operands(number):
    # 84a's README: on sm_90a a chunk is four QGMMA (e4m3, A from registers, B from shared memory),
    # with no F2FP.F16.E4M3 but the scales' (2 a chunk, B's once a block), no
    # f16 HMMA (what ptxas makes of an FP8 mma.sync on sm_90a). The sm_100a path's mma.sync in
    # e4m3 becomes conversions and f16 HMMA there too (Blackwell's FP8 rates are tcgen05's).
    library = build.build(attempts.find(number).source)
    hopper, blackwell = build.sass(library, "sm_90a"), build.sass(library, "sm_100a")
    assert re.search(r"QGMMA\.64x8x32\.F32\.E4M3\.E4M3", hopper)
    assert "HMMA" not in hopper and "IMMA" not in hopper and "IDP" not in hopper
    assert hopper.count("F2FP.F16.E4M3.UNPACK_B") <= 16  # the scales' conversions only
    assert "QGMMA" not in blackwell and "HMMA.16816.F32" in blackwell


def _ring_and_plain_sass(number: str, target: str) -> tuple[str, str]:
    """The SASS of an 84e-84i build's two kernels: the ring's, and 84a's beside it."""
    functions = re.split(r"^\s*Function : ", build.sass(build.build(attempts.find(number).source), target), flags=re.M)[1:]
    ring = [f for f in functions if "ring_kernel" in f.split("\n", 1)[0]]
    plain = [f for f in functions if "ring_kernel" not in f.split("\n", 1)[0]]
    assert len(ring) == 1 and len(plain) == 1, (number, target)
    return ring[0], plain[0]


@pytest.mark.parametrize("number", ["84e", "84f", "84g", "84h", "84i", "84j", "84k", "84l", "84m", "84n", "84o", "84p", "84q", "84r", "84s", "84t", "84u", "84v", "84w", "84x", "84y", "84z", "84za", "84zb", "84zc"])
def test_84e_reads_a_through_the_copy_engine_into_its_ring(number):
    # 84e's README: where 256 divides K the ring kernel brings A and its scales by two tensor copies
    # a stage (UTMALDG.2D) and reads the fragments from shared memory: no 16-byte global load in
    # it, its products 84a's QGMMA on sm_90a. 84a's kernel stays beside it for the other K and
    # still loads A itself.
    for target in build.TARGETS:
        ring, plain = _ring_and_plain_sass(number, target)
        assert ring.count("UTMALDG.2D") >= 2 and "SYNCS.PHASECHK" in ring, target
        assert "LDG.E.128" not in ring and "LDS.128" in ring, target
        assert "LDG.E.128" in plain and "UTMALDG" not in plain, target
        if target == "sm_90a":
            assert re.search(r"QGMMA\.64x8x32\.F32\.E4M3\.E4M3", ring) and "HMMA" not in ring


def test_84f_leaves_a_chunks_mmas_in_flight_until_the_next_chunks_are_issued():
    # 84f's README: in the ring kernel (sm_90a) every chunk's mmas but a stage's last are retired
    # with wait_group 1, after the next chunk's are issued; 84e retired each with wait_group 0. In
    # 84k each warpgroup multiplies 4 chunks of a stage, 3 of them retired so; in 84l (stages of 4
    # chunks) 2, one; in 84n and 84o (stages of 8 chunks again) 3; in 84p-84v and 84z-84zc (four warpgroups) one; in 84w-84y one in each of its two
    # stage bodies (whole and folded).
    for number, in_flight in (("84e", 0), ("84f", 7), ("84g", 7), ("84h", 7), ("84i", 7), ("84j", 7), ("84k", 3),
                              ("84l", 1), ("84m", 1), ("84n", 3), ("84o", 3), ("84p", 1), ("84q", 1), ("84r", 1), ("84s", 1), ("84t", 1), ("84u", 1), ("84v", 1), ("84w", 2), ("84x", 2), ("84y", 2), ("84z", 1), ("84za", 1), ("84zb", 1), ("84zc", 1)):
        ring, _ = _ring_and_plain_sass(number, "sm_90a")
        assert ring.count("WARPGROUP.DEPBAR.LE gsb0, 0x1") == in_flight, number


def _ring_listing(number: str) -> list[tuple[str, int]]:
    """The sm_90a ring kernel of an 84e-84m build as (instruction, control word) pairs."""
    from scripts import load_path
    ring, _ = _ring_and_plain_sass(number, "sm_90a")
    return [(text, int(control, 16)) for _, text, control in load_path.CONTROLLED.findall(ring)]


def _first_wait(listing: list[tuple[str, int]], load: int) -> int:
    """Where the instruction at `load` is first waited on: the next one whose wait mask (control bits
    52-57) holds the load's scoreboard (bits 46-48)."""
    board = (listing[load][1] >> 46) & 7
    return next(j for j in range(load + 1, len(listing)) if (listing[j][1] >> 52) >> board & 1)


def test_84i_waits_for_bs_share_a_stage_after_loading_it():
    # 84i's README: in the ring kernel's stage loop (sm_90a) B's share for a later stage is loaded
    # before the stage's barrier wait and first waited on only where it is stored, hundreds of
    # instructions on; in 84f and 84h ptxas gave the loads' address registers away and waited a few
    # instructions after them.
    for number, late in (("84e", True), ("84f", False), ("84g", True), ("84h", False), ("84i", True), ("84j", True),
                         ("84k", True), ("84l", True)):
        listing = _ring_listing(number)
        first_wait = next(i for i, (text, _) in enumerate(listing) if "SYNCS.PHASECHK" in text)
        loads = [i for i, (text, _) in enumerate(listing[:first_wait]) if "LDG.E" in text and "CONSTANT" in text]
        waits = [_first_wait(listing, i) - i for i in loads[-2:]]  # the stage loop's two loads of B's share
        assert all((wait > 200) == late for wait in waits), (number, waits)


@pytest.mark.parametrize("number, share_loads, after_slot", [("84m", 3, True), ("84n", 5, True), ("84o", 5, False), ("84p", 5, False), ("84q", 5, False), ("84r", 5, False), ("84s", 5, False), ("84t", 5, False), ("84u", 5, False), ("84v", 5, False), ("84w", 10, False), ("84x", 10, False), ("84y", 10, False), ("84z", 5, True), ("84za", 5, False), ("84zb", 5, False), ("84zc", 5, True)])
def test_84ms_producer_waits_for_bs_share_after_the_slot_is_free(number, share_loads, after_slot):
    # 84m's README: the producer warp loads its share of B for a stage (two words and a pair of
    # scales a lane), then waits on the slot's empty barrier; ptxas first waits on the loads after
    # that wait, not before it (with the wait under a branch it hoisted B's conversion above it).
    # 84n's stages are twice as long: four words and a pair of scales a lane. 84o's README: in its
    # B warps (the copies sent by a warp of their own) ptxas puts two of the loads on a scoreboard
    # with loads of constants and waits for them before the slot's wait; 84p's-84v's are 84o's; 84w-84y load a folded stage's second share too (10 loads). 84z's
    # (84q's source there) are 84m's again: ptxas's choice at 79 registers (84z's README); so are
    # 84zc's, whose hand-over changed the consumers' code only (84zc's README).
    listing = _ring_listing(number)
    loads = [i for i, (text, _) in enumerate(listing) if "LDG.E" in text and "CONSTANT" in text]
    assert len(loads) == share_loads, loads
    slot_free = next(i for i in range(loads[-1], len(listing)) if "SYNCS.PHASECHK" in listing[i][0])
    assert all(_first_wait(listing, i) > slot_free for i in loads) == after_slot


@pytest.mark.parametrize("number", ["84zd", "84ze", "84zf"])
def test_84zd_signals_the_split_tail_from_its_ring_and_reads_the_tail_with_93fs_dp4a_loop(number):
    # 84zd's README: its ring kernel is 84q's with griddepcontrol.launch_dependents (PREEXIT) at
    # the block's start, before its first tensor copy, on both targets; its split tail is a kernel
    # of its own with 93f's dp4a products (32 a window: 4 rows x 8 words) at 64 registers or fewer,
    # no spill, no shared memory, no tensor copy; 84q signals nothing. 84ze's split tail is the same
    # loop in blocks of ten warps (its warp index through a shuffle: no spill at 64 registers), 84zf's
    # in blocks of eight
    op = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][\w.]*)")
    for target in build.TARGETS:
        functions = {f.split("\n", 1)[0].strip(): f for f in re.split(r"^\s*Function : ",
                     build.sass(build.build(attempts.find(number).source), target), flags=re.M)[1:]}
        ring, = [f for name, f in functions.items() if "ring_kernel" in name]
        tail, = [f for name, f in functions.items() if "split_tail" in name]
        ops = op.findall(ring)
        assert ops.count("PREEXIT") == 1 and ops.index("PREEXIT") < ops.index("UTMALDG.2D"), target
        assert "IDP.4A" in tail and tail.count("IDP.4A") % 32 == 0 and "UTMALDG" not in tail and "LDS" not in tail, target
        parent_ring, _ = _ring_and_plain_sass("84q", target)
        assert "PREEXIT" not in parent_ring
    usage = [u for u in build.resource_usage(build.build(attempts.find(number).source)) if "split_tail" in u["kernel"]]
    assert len(usage) == 2 and all(u["registers"] <= 64 and u["spill_stores"] == 0 for u in usage), usage


def test_84zg_signals_the_split_tail_once_a_ring_block_has_its_first_stage():
    # 84zg's README: the ring kernel's one PREEXIT is predicated (the first multiplying thread, the
    # first stage) and comes within a few instructions after a stage's wait (SYNCS.PHASECHK) on both
    # targets; its parent 84zf's comes before any wait
    op = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][\w.]*)")
    for target in build.TARGETS:
        for number, after_wait in (("84zf", False), ("84zg", True)):
            functions = re.split(r"^\s*Function : ", build.sass(build.build(attempts.find(number).source), target), flags=re.M)
            ring, = [f for f in functions if "ring_kernel" in f.split("\n", 1)[0]]
            ops = op.findall(ring)
            signal, = [i for i, (_, name) in enumerate(ops) if name == "PREEXIT"]
            waits = [i for i, (_, name) in enumerate(ops[:signal]) if name.startswith("SYNCS.PHASECHK")]
            assert bool(waits) == after_wait, (number, target)
            if after_wait:
                assert signal - waits[-1] <= 8 and ops[signal][0], (number, target, ops[waits[-1]:signal + 1])


def test_the_clock_by_pipe_probe_keeps_each_pipe_busy_with_its_own_instruction():
    # scripts/probes/clock_by_pipe.cu: each kernel's loop issues its pipe's instruction and no
    # other pipe's (QGMMA on sm_90a only; the empty loop none of them)
    source = build.REPO / "scripts" / "probes" / "clock_by_pipe.cu"
    ops = {0: None, 1: "FFMA", 2: "PRMT", 3: "IDP.4A", 4: "HMMA", 5: "IMMA", 6: "QGMMA"}
    for target in build.TARGETS:
        kernels = {int(re.search(r"busyILi(\d)E", f.split("\n", 1)[0]).group(1)): f
                   for f in re.split(r"^\s*Function : ", build.sass(build.device_code(source), target), flags=re.M)[1:]}
        assert sorted(kernels) == sorted(ops), target
        for pipe, text in kernels.items():
            expected = ops[pipe] if pipe != 6 or target == "sm_90a" else None
            for other in ops.values():
                if other:
                    assert (other in text) == (other == expected), (target, pipe, other)


def test_the_scheduler_mapping_probe_keeps_one_warp_issuing_and_reads_its_slot():
    # scripts/probes/scheduler_mapping.cu: the loop carries 8 independent FFMA chains (a warp alone
    # issues about one a cycle, so two on a scheduler take twice as long) and nothing else but its
    # counter; the warp's slot comes from %warpid (SR_VIRTID). block_placement.cu's per-warp kernel
    # reads it too.
    source = build.REPO / "scripts" / "probes" / "scheduler_mapping.cu"
    for target in build.TARGETS:
        text = build.sass(build.device_code(source), target)
        assert "SR_VIRTID" in text, target
        loop = max(re.findall(r"(?:^.*FFMA.*\n(?:^.*\n){0,1})+", text, re.M), key=len)
        chains = set(re.findall(r"FFMA (R\d+), \1,", loop))
        assert len(chains) == 8, (target, chains)
    assert "SR_VIRTID" in build.sass(build.device_code(build.REPO / "scripts" / "probes" / "block_placement.cu"), "sm_90a")


def test_the_products_alone_probe_times_93fs_products_with_no_load():
    # scripts/probes/products_alone.cu: its timed loop is the attempt's window products (93f's,
    # 93t's), no load in it, within a tenth of the instructions of that attempt's H200 window loop
    # (its loads gone, each round's XORs added); the clock is first read after every load of the
    # window has been used (a store that reads them all)
    from scripts import load_path
    probe = _probe_script("products_alone")
    for number in probe.ATTEMPTS:
        sass = build.sass(build.device_code(probe.SOURCE, probe.defines(number)), "sm_90a")
        (loop,) = [loop for kernel, loop in load_path.sass_loops(sass) if "window_products" in kernel]
        assert not any("LDG" in text for _, text, _ in loop), number
        window = max(len(loop) for kernel, loop in load_path.controlled_loops(number) if "ILb0ELb0E" in kernel)
        assert 0.9 * window <= len(loop) <= 1.05 * window, (number, len(loop), window)
        kernel = sass.split("Function : _Z15window_products")[1].split("Function : ")[0]
        first_clock = kernel.index("SR_CLOCKLO")
        assert kernel.rindex("LDG", 0, first_clock) < kernel.index("STG") < first_clock, number


def test_the_window_spans_probe_stamps_93fs_h200_window_loop_around_its_loads_and_products():
    # scripts/probes/window_spans.cu: 64 registers at most and no spill (93f's grids, as many warps
    # an SM); its window loop sends 93f's loads (the same kinds and widths), reads the clock right
    # after the last of them, again before the first product and after the last (as many clock
    # reads as the build's STAMPS; with its sends stamped alone, within 8 instructions of 93f's);
    # with PRODUCTS 0 no product is left and every load keeps its width (a word left unused narrows it)
    from scripts import load_path
    probe = _probe_script("window_spans")

    def loads(loop):
        return sorted(text.split()[0] for _, text, _ in loop if "LDG" in text)
    (plain,) = [loop for kernel, loop in load_path.controlled_loops("93f") if "ILb0ELb0E" in kernel and
                any("IDP" in text for _, text, _ in loop)]
    for name, defines in probe.KERNELS.items():
        with_products, stamps = defines.get("PRODUCTS", 1), defines.get("STAMPS", 3)
        library = build.device_code(probe.SOURCE, probe.defines(name), ("sm_90a",))
        (usage,) = [u for u in build.resource_usage(library) if "window_spans" in u["kernel"]]
        assert usage["registers"] <= 64 and usage["spill_stores"] == 0, (name, usage)
        (loop,) = [loop for kernel, loop in load_path.sass_loops(build.sass(library, "sm_90a"))
                   if "window_spans" in kernel and any("LDG" in text for _, text, _ in loop)]
        assert loads(loop) == loads(plain), name
        texts = [text for _, text, _ in loop]
        clocks = [i for i, text in enumerate(texts) if "SR_CLOCKLO" in text]
        last_load = max(i for i, text in enumerate(texts) if "LDG" in text)
        products = [i for i, text in enumerate(texts) if "IDP" in text]
        assert len(clocks) == stamps and clocks[0] == last_load + 1, (name, clocks, last_load)
        assert bool(products) == with_products, name
        if stamps == 1:  # its sends alone: 93f's loop but for the stamp (a clock read, a shared store)
            assert len(loop) <= len(plain) + 8, (name, len(loop), len(plain))
        if products and stamps == 3:
            assert clocks[1] < products[0] and products[-1] < clocks[2], (name, clocks, products[0], products[-1])


def test_the_loop_spans_probe_is_93fs_kernel_with_its_window_loop_unmoved():
    # scripts/probes/loop_spans.cu: with its hooks empty the copy is 93f's H200 kernel instruction
    # for instruction; with its stamps, its window loop sends 93f's loads in 93f's order (B's first)
    # and is within one instruction of 93f's, at 64 registers without spills; with PRODUCTS 0 the
    # loop holds no product and every load keeps its width
    from scripts import load_path
    probe = _probe_script("loop_spans")

    def kernel(library, name):
        (function,) = [f for f in build.sass(library, "sm_90a").split("Function : ")[1:] if f.startswith(name)]
        return [text for _, text, _ in load_path.CONTROLLED.findall(function)]

    def window_loop(library, name):
        (loop,) = [loop for kernel, loop in load_path.sass_loops(build.sass(library, "sm_90a"))
                   if kernel.startswith(name) and any("IDP" in text for _, text, _ in loop)]
        return [text for _, text, _ in loop]
    plain, copy = build.measured_code(build.REPO / "attempts" / "93f-b-words-at-use" / "kernel.cu"), "_Z17loop_spans_kernelILb0ELb0E"
    empty = build.device_code(probe.SOURCE, {**probe.defines(), "LOOP_STAMPS": 0}, ("sm_90a",))
    assert kernel(empty, copy) == kernel(plain, "_Z17nvfp4_gemv_kernelILb0ELb0E")
    stamped = build.device_code(probe.SOURCE, probe.defines(), ("sm_90a",))
    loop, original = window_loop(stamped, copy), window_loop(plain, "_Z17nvfp4_gemv_kernelILb0ELb0E")
    loads = [[text.split()[0] for text in x if "LDG" in text] for x in (loop, original)]
    assert loads[0] == loads[1] and loads[0][0] == "LDG.E.128.CONSTANT" and abs(len(loop) - len(original)) <= 1
    (usage,) = [u for u in build.resource_usage(stamped) if u["kernel"].startswith(copy)]
    assert usage["registers"] <= 64 and usage["spill_stores"] == 0, usage
    alone = build.device_code(probe.SOURCE, probe.defines("93f's loads alone, loops stamped"), ("sm_90a",))
    (loop,) = [loop for kernel, loop in load_path.sass_loops(build.sass(alone, "sm_90a"))
               if kernel.startswith(copy) and any("LDG" in text for _, text, _ in loop)]
    alone_loads = Counter(text.split()[0] for _, text, _ in loop if "LDG" in text)  # the loop unrolled or not
    windows = sum(alone_loads.values()) // len(loads[1])
    assert windows >= 1 and alone_loads == Counter({kind: windows * n for kind, n in Counter(loads[1]).items()})
    assert not any("IDP" in text for _, text, _ in loop)
    # with DEALT 1 it stamps 93zc's dealt kernel (tickets, or TICKETS 0): the same loads, the same
    # shared atomics, a loop within 30 instructions of 93zc's
    dealt = "_Z23nvfp4_gemv_dealt_kernelPKhS0_S0_S0_P6__halfixxi16DealtReciprocals"
    for name in ("93zc, loops stamped", "93zc's windows dealt in turn, loops stamped"):
        tickets = probe.KERNELS[name].get("TICKETS")
        (theirs,) = [loop for kernel, loop in load_path.controlled_loops("93zc", {"TICKETS": 0} if tickets == 0 else None)
                     if kernel == dealt and any("IDP" in text for _, text, _ in loop)]
        (mine,) = [loop for kernel, loop in load_path.sass_loops(build.sass(build.device_code(
                   probe.SOURCE, probe.defines(name), ("sm_90a",)), "sm_90a"))
                   if kernel.startswith("_Z18dealt_spans_kernel") and any("IDP" in text for _, text, _ in loop)]
        for kind in ("LDG", "ATOMS"):
            assert Counter(t.split()[1 if t.startswith("@") else 0] for _, t, _ in mine if kind in t) == \
                Counter(t.split()[1 if t.startswith("@") else 0] for _, t, _ in theirs if kind in t), (name, kind)
        assert abs(len(mine) - len(theirs)) <= 30, (name, len(mine), len(theirs))


def test_the_register_quarters_probe_holds_blocks_of_64_72_and_80_registers():
    # scripts/probes/register_quarters.cu: the kernels' register counts are the ones the probe
    # names (84q's ring 72, its split tails 64); the first grid signals its dependents
    source = build.REPO / "scripts" / "probes" / "register_quarters.cu"
    library = build.device_code(source)
    usage = [u for u in build.resource_usage(library) if u["target"] == "sm_90a"]
    assert sorted(u["registers"] for u in usage) == [64, 72, 80] and all(u["spill_stores"] == 0 for u in usage), usage
    assert "PREEXIT" in build.sass(library, "sm_90a")


@pytest.mark.parametrize("name", ["93f, carveout 0%", "99, carveout 100%"])
def test_the_carveout_probe_changes_its_attempts_on_the_host_only(name):
    # scripts/probes/carveout.py: a variant's device code is its attempt's, instruction for
    # instruction (sm_90a, the kernels in any order; sm_100a built); only nvfp4_gemv_setup (host)
    # is added
    probe = _probe_script("carveout")
    builds = probe.UNCHECKED | probe.CHECKED
    plain, _ = builds[name.split(",")[0]]

    def kernels(library):
        return sorted(f.strip() for f in re.split(r"^\s*Function : ", "\n".join(_sass_lines(library)), flags=re.M)[1:])
    assert kernels(build.measured_code(*builds[name])) == kernels(build.build(plain))


def test_84s_ring_joins_with_no_fence_or_ticket():
    # 84s's README: the ring kernel's shared tiles are joined through relaxed loads and stores at
    # L2 (a later piece's sums their own flags), with no GPU-wide fence (MEMBAR.SC.GPU and the L1
    # invalidation after it) and no ticket (an atomic); its parent 84r has both.
    for target in build.TARGETS:
        for number, tickets in (("84r", True), ("84s", False)):
            ring, _ = _ring_and_plain_sass(number, target)
            assert ("ATOMG" in ring) == tickets and ("MEMBAR.SC.GPU" in ring) == tickets, (number, target)
            assert ("CCTL.IVALL" in ring) == tickets, (number, target)
        ring, _ = _ring_and_plain_sass("84s", target)
        assert "LDG.E.STRONG.GPU" in ring and "STG.E.STRONG.GPU" in ring, target


def test_84t_reads_the_next_piece_before_the_joiners_last_stage():
    # 84t's README: a joining lane's two loads of the next piece's words are sent before the last
    # stage's wait and first waited on after its products (QGMMA); 84s's first load of a joined
    # word is waited on within a few instructions, no product between.
    for number, ahead in (("84s", False), ("84t", True), ("84u", True)):
        listing = _ring_listing(number)
        first = next(i for i, (text, _) in enumerate(listing) if "LDG.E.STRONG.GPU" in text)
        between = [text for text, _ in listing[first:_first_wait(listing, first)]]
        assert any("QGMMA" in text for text in between) == ahead, number
        assert any("SYNCS.PHASECHK" in text for text in between) == ahead, number


def test_84u_works_the_split_out_off_the_stages_path():
    # 84u's README: no call of the 64-bit division routine between the top of the multiplying
    # warps' stage loop (the backward branch's target around the first joining read) and that
    # read, which comes before the stage's barrier wait; 84t has two there.
    for number, calls in (("84t", 2), ("84u", 0)):
        ring, _ = _ring_and_plain_sass(number, "sm_90a")
        listing = [(int(address, 16), text) for address, text in re.findall(r"/\*([0-9a-f]{4,})\*/\s+([^;]*);", ring)]
        read = next(address for address, text in listing if "LDG.E.STRONG.GPU" in text)
        tops = [int(target, 16) for address, text in listing if "BRA" in text
                for target in re.findall(r"0x([0-9a-f]+)", text.split("BRA")[1])[:1]
                if int(target, 16) <= read < address]
        assert tops, number
        top = max(tops)
        assert sum("CALL" in text for address, text in listing if top <= address < read) == calls, number


def test_84v_ring_joins_nothing_and_copies_a_short_tile_in_runs_of_rows():
    # 84v's README: its ring blocks take whole rows, so the ring kernel has no atomic and no
    # GPU-wide fence (84q joins its tiles' parts with both); a short tile's A and scales are copied
    # a box of 8 rows at a time (ptxas unrolls the loop), beside a whole tile's two copies, where
    # 84q has the two alone.
    for target in build.TARGETS:
        for number, joins in (("84q", True), ("84v", False)):
            ring, _ = _ring_and_plain_sass(number, target)
            assert ("ATOMG" in ring) == joins and ("MEMBAR.SC.GPU" in ring) == joins, (number, target)
            assert (ring.count("UTMALDG.2D") > 2) == (not joins), (number, target)


def test_84w_multiplies_a_folded_stage_in_sixteen_columns():
    # 84w's README: a folded stage's products are m64n16k32 (its two K segments' B side by side),
    # beside the whole tiles' m64n8k32, and a folded tile's rows are added through a named barrier of
    # the first warpgroup's 128 threads; 84v has neither.
    for number, folded in (("84v", False), ("84w", True)):
        ring, _ = _ring_and_plain_sass(number, "sm_90a")
        assert ("QGMMA.64x16x32.F32.E4M3.E4M3" in ring) == folded, number
        assert "QGMMA.64x8x32.F32.E4M3.E4M3" in ring, number
        assert ("BAR.SYNC.DEFER_BLOCKING 0x1, 0x80" in ring) == folded, number


def test_84w_multiplies_a_whole_stage_with_84vs_code():
    # 84w's README: a whole tile's stage is multiplied by the same code as in 84v (sm_90a): eight
    # QGMMA.64x8x32, the run from the first to the last within two instructions of 84v's
    spans = {}
    for number in ("84v", "84w"):
        ring, _ = _ring_and_plain_sass(number, "sm_90a")
        lines = [line for line in ring.splitlines() if re.match(r"\s*/\*[0-9a-f]{4}\*/", line)]
        mmas = [i for i, line in enumerate(lines) if "QGMMA.64x8x32" in line]
        assert len(mmas) == 8, number
        spans[number] = mmas[-1] - mmas[0] + 1
    assert abs(spans["84w"] - spans["84v"]) <= 2, spans


def _b_warps_wait_to_fence(library) -> int:
    """Instructions from the B warps' last slot wait to their proxy fence in a ring build (sm_90a)."""
    functions = re.split(r"^\s*Function : ", build.sass(library, "sm_90a"), flags=re.M)[1:]
    (ring,) = [f for f in functions if "ring_kernel" in f.split("\n", 1)[0]]
    lines = [line for line in ring.splitlines() if re.match(r"\s*/\*[0-9a-f]{4}\*/", line)]
    fence = max(i for i, line in enumerate(lines) if "FENCE.VIEW.ASYNC.S" in line)
    return fence - max(i for i, line in enumerate(lines[:fence]) if "TRYWAIT" in line)


def test_84ws_stamps_leave_its_b_warps_path_as_long():
    # 84w's README: its stamped build (RING_STAMPS=1), faster on the H200, orders the B warps' code
    # differently but keeps its path from a slot's wait to the fence within a few instructions of
    # the plain build's (216 and 213 with the local nvcc 13.0); 84v's is far shorter (84w's holds a
    # folded stage's second share too, under a branch).
    source = attempts.find("84w").source
    plain, stamped = (_b_warps_wait_to_fence(sm90a_build(source, d)) for d in (None, {"RING_STAMPS": 1}))
    assert abs(plain - stamped) <= 5, (plain, stamped)
    assert _b_warps_wait_to_fence(build.build(attempts.find("84v").source)) < plain - 50


def test_84x_ring_blocks_start_without_a_division_routine():
    # 84x's README: its ring blocks take their runs of rows from the host's quotient and remainder,
    # so the ring kernel calls no division routine on either target; 84w's divides the rows' groups
    # by the grid in 64 bits (two calls). 84y's spreads the longer runs by a 32-bit division, inline.
    for target in build.TARGETS:
        for number, divides in (("84w", True), ("84x", False), ("84y", False)):
            ring, _ = _ring_and_plain_sass(number, target)
            assert ("CALL.REL" in ring) == divides, (number, target)


def test_84bs_ring_of_loads_is_waited_on_as_soon_as_it_is_sent():
    # 84b's README (its correction): in its chunk loop (sm_90a) every refill of the ring, the
    # predicated loads of a chunk four on, is first waited on within a few dozen instructions
    # (the scales copied into the ring's registers at once, A on the ring's shared scoreboard):
    # nothing stays in flight across a chunk's products (about 100 instructions).
    from scripts import load_path
    (ring,) = [rows for rows in load_path.load_scoreboards("84b")["_Z17nvfp4_gemv_kernelPKhS0_S0_S0_P6__halfiixxiii9Workspace"]
               if len(rows) == 16 and all(opcode.startswith("LDG.E.128") or opcode.startswith("LDG.E.U16")
                                          for _, opcode, _, _ in rows)]
    assert max(waited - place for place, _, _, waited in ring) < 50, ring


def test_84za_spaces_its_rings_first_stages_by_the_sm_clock():
    # 84za's README: its producer sends the ring's first stages a lead of SM cycles apart, read from
    # the SM clock in the ring kernel on both targets; 84q's plain ring kernel reads no clock.
    for target in build.TARGETS:
        for number, spaced in (("84q", False), ("84za", True)):
            ring, _ = _ring_and_plain_sass(number, target)
            assert ("SR_CLOCKLO" in ring) == spaced, (number, target)


def test_84qs_b_stamp_is_only_in_the_build_that_asks_for_it():
    # scripts/probes/ring_fill.py builds 84q with RING_STAMPS=1 and RING_B_STAMP=1: one more read
    # of the SM clock (the B warp's, at stage 0's hand-over) than the stamped build, no spill; the
    # define alone changes nothing (the attempt's build reads no clock)
    source = attempts.find("84q").source
    stamped, b_stamped = (build.measured_code(source, d) for d in ({"RING_STAMPS": 1}, {"RING_STAMPS": 1, "RING_B_STAMP": 1}))
    clocks = [build.sass(library, "sm_90a").count("SR_CLOCKLO") for library in (stamped, b_stamped)]
    assert clocks[1] == clocks[0] + 1, clocks
    usage = [u for u in build.resource_usage(b_stamped) if u["target"] == "sm_90a"]
    assert usage and all(u["spill_stores"] == 0 for u in usage), usage
    assert "SR_CLOCKLO" not in build.sass(build.measured_code(source, {"RING_B_STAMP": 1}), "sm_90a")


def _operands_read(line: str) -> str:
    """A SASS line's operands after its first (the destination, where it has one)."""
    text = line.split("*/", 1)[1].split(";")[0]
    return text.split(",", 1)[1] if "," in text else ""


def test_84zb_takes_its_tickets_unaggregated_and_waits_for_them_after_the_copies():
    # 84zb's README: the copies' warp takes each next tile with an atomic increment that wraps at the
    # call's last ticket (ATOMG.E.INC; 84q deals in advance and has none), not aggregated over the
    # warp (no shuffle of its result); the first ticket is first read after a stage's tensor copies
    # are sent, so its round trip is waited for an item after it left (a later ticket's read is
    # across the loop's back edge, out of the listing's order)
    for target in build.TARGETS:
        for number, tickets in (("84q", 0), ("84zb", 2)):
            ring, _ = _ring_and_plain_sass(number, target)
            assert ring.count("ATOMG.E.INC") == tickets, (number, target)
    ring, _ = _ring_and_plain_sass("84zb", "sm_90a")
    lines = [line for line in ring.splitlines() if re.search(r"/\*[0-9a-f]{4,}\*/", line)]
    place = next(i for i, line in enumerate(lines) if "ATOMG.E.INC" in line)
    ticket = re.search(r"ATOMG\.E\.INC\.\S+ PT, (R\d+),", lines[place]).group(1)
    first_read = next(i for i in range(place + 1, len(lines)) if re.search(rf"\b{ticket}\b", _operands_read(lines[i])))
    assert "SHFL" not in lines[first_read], lines[first_read]
    assert any("UTMALDG" in line for line in lines[place:first_read]), lines[first_read]


def test_84zbs_probe_builds_leave_out_the_joins_only_when_asked():
    # scripts/probes/ticket_parts.py builds 84zb with RING_JOINS=0: its ring kernel then has no join
    # (the GPU-wide fence before a tile's tickets), where 84zb's own build keeps 84q's for tiles in
    # parts; TICKETS_FOR_PARTS alone leaves the join in
    source = attempts.find("84zb").source
    for defines, joined in (({}, True), ({"TICKETS_FOR_PARTS": 1}, True), ({"RING_JOINS": 0, "TICKETS_FOR_PARTS": 1}, False)):
        library = build.measured_code(source, defines)
        ring = [f for f in re.split(r"^\s*Function : ", build.sass(library, "sm_90a"), flags=re.M)[1:]
                if "ring_kernel" in f.split("\n", 1)[0]]
        assert len(ring) == 1 and ("MEMBAR.SC.GPU" in ring[0]) == joined, defines


def test_84zbs_probe_build_without_the_hand_over_meets_at_no_item_end():
    # scripts/probes/item_ends.py builds 84zb with RING_HANDOVER=0: the first warpgroup stores its own
    # sums, so the ring kernel has fewer barrier waits (none on the hand-over's sums_full and
    # sums_empty; ptxas lays each wait out twice, in line and in its retry)
    source = attempts.find("84zb").source
    waits = []
    for library in (build.build(source), sm90a_build(source, {"RING_HANDOVER": 0})):
        ring, = [f for f in re.split(r"^\s*Function : ", build.sass(library, "sm_90a"), flags=re.M)[1:]
                 if "ring_kernel" in f.split("\n", 1)[0]]
        waits.append(ring.count("SYNCS.PHASECHK.TRANS64.TRYWAIT"))
    assert waits[1] == waits[0] - 4, waits


def test_84zc_hands_an_items_sums_over_by_a_shared_atomic_and_meets_at_no_item_end():
    # 84zc's README: each warpgroup counts itself in on its row pairs with an atomic in shared memory
    # (ATOMS.ADD; 84zb has none) and nobody waits for the hand-over: the ring kernel waits on the same
    # barriers as 84zb built without its hand-over, four fewer wait sites than 84zb's own (the
    # hand-over's two barriers, each laid out in line and in its retry)
    def ring(library):
        function, = [f for f in re.split(r"^\s*Function : ", build.sass(library, "sm_90a"), flags=re.M)[1:]
                     if "ring_kernel" in f.split("\n", 1)[0]]
        return function
    zb, zc = attempts.find("84zb").source, attempts.find("84zc").source
    met, unmet, left_out = ring(build.build(zb)), ring(build.build(zc)), ring(sm90a_build(zb, {"RING_HANDOVER": 0}))
    assert "ATOMS.ADD" in unmet and "ATOMS.ADD" not in met
    waits = [f.count("SYNCS.PHASECHK.TRANS64.TRYWAIT") for f in (met, unmet, left_out)]
    assert waits[1] == waits[2] == waits[0] - 4, waits
