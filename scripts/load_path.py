"""Where a kernel's instructions sit against its wait for A, read from its sm_90a SASS (no GPU).

For every loop of each kernel in an attempt that loads A (the split's window loop, and in kernels
with the scale runs the pairs' loop before it), counts the instructions before and after the
first one that reads a register loaded from A (a 16-byte strong load: the dp4a
kernels read A with ld.relaxed.gpu, B and the scales otherwise), grouped by the source function
they were inlined from, and where in the loop A's loads go out. The instructions after that point run once A has come and before the
next window's loads go out: the path that closing-the-gap section 48 finds costly on the H200.
With --waits, for each such loop of a window's four A loads: the scoreboard each load sets (SASS
control bits) and how many instructions after the last of them each is first waited on, which
says whether a row's products can start before the other rows have come (97).
With --scoreboards, for every loop of at least 100 instructions: each global load's place, the
scoreboard it sets and the place where the loop first waits on that scoreboard, counted on around
the loop's back edge for loads first used in the next pass (closing-the-gap section 68: ptxas puts
such loads on one scoreboard, so the next pass waits for all of them at once).

    python3 scripts/load_path.py 93 94
    python3 scripts/load_path.py --waits 95 97
    python3 scripts/load_path.py --scoreboards 93f 93l
    python3 scripts/load_path.py --scoreboards 91 SCALE_RUNS=0
"""
import collections
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import attempts, build  # noqa: E402

A_LOAD = re.compile(r"LDG\.E\.128\.STRONG\S*\s+R(\d+)")
INSTRUCTION = re.compile(r"\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
FUNCTION = re.compile(r"^(?:template <[^>]*>\s*)?__device__ __forceinline__ [\w:<>,& ]+?\b(\w+)\(", re.M)


def functions(source: Path) -> list[tuple[int, int, str]]:
    """(first line, last line, name) of each device function in the source."""
    text = source.read_text()
    lines = text.split("\n")
    spans = []
    for match in FUNCTION.finditer(text):
        first = text.count("\n", 0, match.start()) + 1
        last = next(i for i in range(first, len(lines) + 1) if lines[i - 1].startswith("}"))
        spans.append((first, last, match.group(1)))
    return spans


def disassembly(number: str) -> str:
    # the attempt's own build (the one timed, and the suite's), its sm_90a code alone
    library = build.build(attempts.find(number).source)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([build.cuda_tool("cuobjdump"), "-arch", build.MEASURED_TARGET, "-xelf", "all", str(library)],
                       cwd=tmp, check=True, capture_output=True)
        cubin = next(Path(tmp).glob("*.cubin"))
        return subprocess.run([build.cuda_tool("nvdisasm"), "--print-line-info-inline", str(cubin)],
                              check=True, capture_output=True, text=True).stdout


def kernels(text: str, source_name: str):
    """Per kernel: its instructions as (address, text, the source lines they were inlined from),
    and its branch labels' addresses."""
    for section in re.split(r"\n\s*\.section\s+\.text\.", text)[1:]:
        name = section.split(",", 1)[0]
        listing, chain, lines, labels, pending = [], [], [], {}, []
        for line in section.split("\n"):
            if re.match(r"\.L_x_\d+:", line):
                pending.append(line.rstrip(":"))
                continue
            if "//## File" in line:
                chain += [int(n) for n in re.findall(rf'{re.escape(source_name)}", line (\d+)', line)]
                continue
            match = INSTRUCTION.match(line)
            if match:
                lines = chain or lines   # an instruction without line info keeps the one before
                chain = []
                listing.append((int(match.group(1), 16), match.group(2), lines))
                labels.update({label: listing[-1][0] for label in pending})
                pending = []
        yield name, listing, labels


def loops(listing, labels):
    """Every stretch from a label back to a branch that jumps up to it, in address order."""
    found = []
    for address, text, _ in listing:
        target = re.search(r"\bBRA\s+`\((\.L_x_\d+)\)", text)
        if target and labels.get(target.group(1), address) < address:
            start = labels[target.group(1)]
            found.append([i for i in listing if start <= i[0] <= address])
    return found


def first_read_of_a(loop) -> int | None:
    """The index of the first instruction that reads a register loaded from A (None: no load of
    A in the loop)."""
    first = None
    for i, (_, text, _) in enumerate(loop):
        load = A_LOAD.match(text)
        if not load:
            continue
        registers = {f"R{int(load.group(1)) + k}" for k in range(4)}
        for j in range(i + 1, len(loop)):
            sources = loop[j][1].split(",", 1)[1] if "," in loop[j][1] else ""
            if any(re.search(rf"\b{r}\b", sources) for r in registers):
                first = j if first is None else min(first, j)
                break
    return first


def path_counts(number: str) -> dict:
    """Per kernel, per loop that loads A (in address order): (loop length, instructions before the
    first read of A, Counter by origin before it, Counter by origin after it, the positions of A's
    loads in the loop)."""
    attempt = attempts.find(number)
    if not attempt.is_cuda:
        raise SystemExit(f"error: {attempt.name} is not a CUDA attempt: it has no SASS to read")
    spans = functions(attempt.source)

    def origin(lines):   # the two outermost device functions the instruction was inlined from
        names = [name for line in reversed(lines) for first, last, name in spans if first <= line <= last]
        return " > ".join(list(dict.fromkeys(names))[:2]) or "kernel"
    counts = {}
    for name, listing, labels in kernels(disassembly(number), attempt.source.name):
        for loop in loops(listing, labels):
            split = first_read_of_a(loop)
            if split is not None:
                counts.setdefault(name, []).append(
                    (len(loop), split, collections.Counter(origin(lines) for _, _, lines in loop[:split]),
                     collections.Counter(origin(lines) for _, _, lines in loop[split:]),
                     [i for i, (_, text, _) in enumerate(loop) if A_LOAD.match(text)]))
    return counts


# cuobjdump's listing: an instruction, then its control word (the second 64-bit half)
CONTROLLED = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;\s*/\* 0x[0-9a-f]+ \*/\s*\n\s*/\* (0x[0-9a-f]+) \*/")


def controlled_loops(number: str, defines: dict | None = None):
    """(kernel, loop) for every loop of each kernel's sm_90a SASS, in address order: the loop's
    instructions as (address, text, control word) from its label down to the branch back to it."""
    return sass_loops(build.sass(build.measured_code(attempts.find(number).source, defines), build.MEASURED_TARGET))


def listings(sass: str):
    """(kernel, its instructions as (address, text, control word)) for each function of a listing."""
    for function in sass.split("Function : ")[1:]:
        yield function.split()[0], [(int(a, 16), text, int(control, 16)) for a, text, control in CONTROLLED.findall(function)]


def back_branches(listing) -> list[tuple[int, int]]:
    """(index of the loop's first instruction, index of the branch back to it) for each backward
    branch of a listing, in address order."""
    index = {address: i for i, (address, _, _) in enumerate(listing)}
    found = []
    for i, (address, text, _) in enumerate(listing):
        target = re.search(r"\bBRA\s+0x([0-9a-f]+)", text)
        if target and int(target.group(1), 16) < address:
            found.append((index[int(target.group(1), 16)], i))
    return found


def sass_loops(sass: str):
    """controlled_loops() of any listing build.sass() gives (a probe's build, say)."""
    for name, listing in listings(sass):
        for top, back in back_branches(listing):
            yield name, listing[top:back + 1]


def a_load_waits(number: str) -> dict:
    """Per kernel, per loop with four A loads (one window's rows, in address order): the
    scoreboard each load sets, in issue order, and for each load the number of instructions after
    the last one at which the loop first waits on its scoreboard (Hopper's control word: write
    scoreboard in bits 46-48, wait mask in bits 52-57)."""
    found = {}
    for name, loop in controlled_loops(number):
        loads = [j for j, (_, t, _) in enumerate(loop) if A_LOAD.match(t)]
        if len(loads) != 4:
            continue
        boards = [(loop[j][2] >> 46) & 7 for j in loads]
        waits = [next((k - loads[-1] for k in range(loads[-1] + 1, len(loop))
                       if (loop[k][2] >> 52) >> board & 1), None) for board in boards]
        found.setdefault(name, []).append((boards, waits))
    return found


def load_scoreboards(number: str, defines: dict | None = None) -> dict:
    """Per kernel, per loop of at least 100 instructions (in address order): for each global load
    in it, predicated or not, (its place in the loop, its opcode, the scoreboard it sets, the place of the loop's first
    wait on that scoreboard after it; past the loop's length where that wait is in the next pass)."""
    found = {}
    for name, loop in controlled_loops(number, defines):
        if len(loop) < 100:
            continue
        rows = []
        for j, (_, text, control) in enumerate(loop):
            opcode = text.split()[1] if text.startswith("@") else text.split()[0]  # past a predicate
            if opcode.startswith("LDG."):
                board = (control >> 46) & 7
                waited = next((k for k in range(j + 1, j + 1 + len(loop))
                               if (loop[k % len(loop)][2] >> 52) >> board & 1), None)
                rows.append((j, opcode, board, waited))
        if rows:
            found.setdefault(name, []).append(rows)
    return found


def report_scoreboards(number: str, defines: dict | None = None) -> None:
    for name, per_loop in load_scoreboards(number, defines).items():
        for rows in per_loop:
            print(f"{attempts.find(number).name} {name}: a loop with {len(rows)} global loads")
            for place, opcode, board, waited in rows:
                print(f"  {place:4} {opcode:26} scoreboard {board}  first waited on at {waited}")


def report_waits(number: str) -> None:
    for name, per_loop in a_load_waits(number).items():
        for boards, waits in per_loop:
            print(f"{attempts.find(number).name} {name}: A loads on scoreboards {boards}, first waited on "
                  f"{waits} instructions after the last of them")


def report(number: str) -> None:
    counts = path_counts(number)
    if not counts:
        print(f"{attempts.find(number).name}: no kernel loop that reads A with 16-byte strong loads")
    for name, per_loop in counts.items():
        for length, split, before, after, a_loads in per_loop:
            print(f"{attempts.find(number).name} {name}: loop of {length} instructions, {split} before "
                  f"the first read of A, {length - split} after; A loaded at instructions {a_loads}")
            for function in sorted(set(before) | set(after), key=lambda f: -after[f]):
                print(f"  {function:40} before {before[function]:4}  after {after[function]:4}")


if __name__ == "__main__":
    modes = {"--waits": report_waits, "--scoreboards": report_scoreboards}
    chosen = [modes[a] for a in sys.argv[1:] if a in modes]
    defines = dict(a.split("=", 1) for a in sys.argv[1:] if "=" in a)  # KEY=VALUE: --scoreboards builds with them
    if defines and chosen != [report_scoreboards]:
        raise SystemExit("error: KEY=VALUE defines go with --scoreboards only")
    for number in [a for a in sys.argv[1:] if a not in modes and "=" not in a] or ["76"]:
        try:
            if chosen == [report_scoreboards]:
                report_scoreboards(number, defines or None)
            else:
                (chosen[0] if chosen else report)(number)
        except KeyError as e:
            raise SystemExit(f"error: {e.args[0]}")
