"""History is frozen: every recorded row names the build it measured (a hash of the sm_90a SASS,
or of a Python attempt's source), and that build must still be what the attempt compiles to
today. A change to a shared header, a flag or nvcc that alters an attempt's code fails here
until the attempt is re-measured (`make attempt-NN`) or the change reverted."""
import functools

import pytest

from common import attempts, build, floor, results
from conftest import sm90a_build


@functools.cache
def current_build(number: str, config: str) -> str:
    attempt = attempts.find(number)
    if not attempt.is_cuda:
        return build.source_id(attempt.source)
    defines = dict(kv.split("=") for kv in config.split(",")) if config else None
    return build.build_id(sm90a_build(attempt.source, defines))


def recorded():
    for gpu in results.gpus():
        df = results.load(gpu)
        df = df[df.attempt != "launch-probe"]
        for (number, config), rows in df.groupby(["attempt", "config"]):
            yield pytest.param(gpu, number, config, rows, id=f"{gpu}-{number}{'-' + config if config else ''}")


@functools.cache
def floor_builds() -> set:
    return floor.build_ids()


@pytest.mark.parametrize("gpu,number,config,rows", list(recorded()))
def test_recorded_rows_describe_todays_code(gpu, number, config, rows):
    builds = set(rows.build)
    assert "" not in builds, (f"results/{gpu}.csv has rows of {number} that name no build: "
                              "re-measure them")
    assert set(rows.floor_build) <= floor_builds(), (
        f"rows of {number} in results/{gpu}.csv were compared with a floor that is no longer built: "
        "re-measure them")
    if number == floor.NUMBER and not config:      # the floor's rows time its chosen configuration
        assert builds <= floor_builds(), f"results/{gpu}.csv: 99's rows name a build it no longer has"
        return
    assert builds == {current_build(number, config)}, (
        f"attempt {number}{' ' + config if config else ''} now builds to {current_build(number, config)}, "
        f"but results/{gpu}.csv recorded {sorted(builds)}: its code changed; re-measure it")


def test_the_build_id_sees_a_code_change_and_ignores_a_comment(tmp_path):
    source = tmp_path / "kernel.cu"
    body = "__global__ void k(float* x) {{ x[threadIdx.x] = {}; }}\n"
    source.write_text(body.format("1.0f"))
    first = build.build_id(build.device_code(source, targets=("sm_90a",)))
    source.write_text("// a comment\n" + body.format("1.0f"))
    assert build.build_id(build.device_code(source, targets=("sm_90a",))) == first
    source.write_text(body.format("2.0f"))
    assert build.build_id(build.device_code(source, targets=("sm_90a",))) != first
