"""`make submission-07`: a well-formed GPU MODE file generated from the attempt's own source."""
import importlib.util
import sys
import types

import torch

from common import problem, submission
from common.check import check_output, poison
from common.reference import reference_gpu
from conftest import gpu

NUMBER = "07"


def test_submission_is_well_formed_python_with_popcorn_headers():
    text = submission.render(NUMBER)
    lines = text.splitlines()
    assert lines[0] == "#!POPCORN leaderboard nvfp4_gemv" and lines[1] == "#!POPCORN gpu NVIDIA"
    compile(text, "submission.py", "exec")
    assert "from task import input_t, output_t" in text
    assert "def custom_kernel(data: input_t) -> output_t:" in text
    assert 'os.environ.get("NVFP4_SUBMISSION_ARCH", "100a")' in text
    assert '#include "' not in text                       # shared headers are inlined
    assert 'extern "C" int nvfp4_gemv' in text


def test_submission_embeds_the_attempts_current_source():
    from common import attempts
    kernel = attempts.find(NUMBER).source.read_text()
    body = [l for l in kernel.splitlines() if l.strip() and not l.startswith("#include \"")]
    assert all(line in submission.render(NUMBER) for line in body)


@gpu
def test_submission_compiles_for_hopper_and_passes_the_check(tmp_path, monkeypatch):
    path = tmp_path / "submission.py"
    path.write_text(submission.render(NUMBER))
    monkeypatch.setenv("NVFP4_SUBMISSION_ARCH", "90a")
    monkeypatch.setitem(sys.modules, "task", types.SimpleNamespace(input_t=tuple, output_t=torch.Tensor))
    spec = importlib.util.spec_from_file_location("submission_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for shape in [(256, 7168, 1), (512, 1536, 2)]:
        data = problem.generate_input(*shape, seed=11)
        ref, abs_sum = reference_gpu(data)
        poison(data[6])
        out = module.custom_kernel(data)
        torch.cuda.synchronize()
        result = check_output(out, ref, abs_sum, shape[1], "gpumode")
        assert result.ok, result.message
