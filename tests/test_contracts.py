"""The contracts of docs/contracts.md hold in code: the entry-point header and the loader agree,
every CUDA attempt includes the header, a wrong signature does not build, and every attempt's
front matter follows the schema (a typo must not silently drop its tests)."""
import ctypes
import re
import shutil
import subprocess

import pytest

from common import attempts, build

HEADER = build.CUDA_INCLUDE / "nvfp4_gemv.h"
C_TYPES = {"const uint8_t*": ctypes.c_void_p, "__half*": ctypes.c_void_p, "void*": ctypes.c_void_p,
           "cudaStream_t": ctypes.c_void_p, "int": ctypes.c_int, "long long": ctypes.c_longlong,
           "size_t": ctypes.c_size_t}
DECLARATION = re.compile(r"^(int|size_t) (nvfp4_gemv\w*)\(([^)]*)\);", re.M)


def header_declarations() -> dict:
    """name -> (return ctype, [argument ctypes]) parsed from the header."""
    found = {}
    for ret, name, params in DECLARATION.findall(HEADER.read_text()):
        params = " ".join(params.split())
        args = [] if params in ("", "void") else [
            C_TYPES[re.sub(r"\s*\w+$", "", p.strip()).replace(" *", "*")] for p in params.split(",")]
        found[name] = (C_TYPES[ret], args)
    return found


def test_the_loader_binds_exactly_what_the_header_declares():
    assert header_declarations() == attempts.ENTRY_POINTS


@pytest.mark.parametrize("attempt", [a for a in attempts.all_attempts() if a.is_cuda], ids=lambda a: a.name)
def test_every_cuda_attempt_includes_the_entry_point_header(attempt):
    assert re.search(r'^#include "nvfp4_gemv.h"', attempt.source.read_text(), re.M)


def test_a_definition_that_differs_from_the_header_does_not_build(tmp_path):
    source = tmp_path / "kernel.cu"
    source.write_text('#include "nvfp4_gemv.h"\n'
                      'extern "C" int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa,\n'
                      '    const uint8_t* sfb, __half* c, int m, int k, long l, long long bs, long long sbs,\n'
                      '    cudaStream_t stream) { return 0; }\n')
    with pytest.raises(build.BuildError, match="nvcc failed"):
        build.build(source, targets=("sm_90a",))


@pytest.mark.parametrize("attempt", attempts.all_attempts(), ids=lambda a: a.name)
def test_front_matter_follows_the_schema(attempt):
    assert attempts.front_matter_errors(attempt) == []


def test_the_schema_refuses_a_misspelt_key(tmp_path, monkeypatch):
    good = attempts.find("07")
    readme = (good.path / "README.md").read_text().replace("correct_on:", "corect_on:")
    fake = tmp_path / "07-fused-ptx"
    fake.mkdir()
    (fake / "README.md").write_text(readme)
    (fake / "kernel.cu").write_text("")
    errors = attempts.front_matter_errors(attempts.Attempt("07", "fused-ptx", fake))
    assert "missing key 'correct_on'" in errors and any("unknown key 'corect_on'" in e for e in errors)


def test_the_schema_refuses_a_wrong_number_a_missing_parent_and_missing_markers(tmp_path):
    readme = (attempts.find("07").path / "README.md").read_text()
    readme = readme.replace('attempt: "07"', 'attempt: "08"').replace('parent: "06', 'parent: "66')
    readme = readme.replace("<!-- results:begin -->", "")
    fake = tmp_path / "07-fused-ptx"
    fake.mkdir()
    (fake / "README.md").write_text(readme)
    (fake / "kernel.cu").write_text("")
    errors = " | ".join(attempts.front_matter_errors(attempts.Attempt("07", "fused-ptx", fake)))
    assert "does not match the directory" in errors and "is not an attempt" in errors
    assert "lacks the marker" in errors


# The template of a new attempt (docs/attempt-template/, docs/adding-an-attempt.md) is held to the
# same schema as an attempt, so that it stays a valid starting point when the schema changes.
TEMPLATE = build.REPO / "docs" / "attempt-template"
GUIDE = build.REPO / "docs" / "adding-an-attempt.md"
SECTIONS = ["## Idea", "## Hypothesis and prediction", "## Result", "## Profile", "## Lesson"]


def template_as_attempt(tmp_path, number="98", slug="template-check"):
    """The template copied to an attempt directory, its placeholders filled in."""
    fake = tmp_path / f"{number}-{slug}"
    fake.mkdir()
    readme = (TEMPLATE / "README.md").read_text()
    readme = readme.replace('attempt: "NN"', f'attempt: "{number}"').replace("slug: your-slug", f"slug: {slug}")
    readme = readme.replace("# NN your-slug", f"# {number} {slug}")
    (fake / "README.md").write_text(readme)
    (fake / "kernel.cu").write_text((TEMPLATE / "kernel.cu").read_text())
    return attempts.Attempt(number, slug, fake)


def test_the_template_front_matter_passes_the_attempt_schema(tmp_path):
    attempt = template_as_attempt(tmp_path)
    assert attempts.front_matter_errors(attempt) == []
    assert set(attempt.meta) == attempts.REQUIRED_KEYS


def test_the_template_and_the_guide_name_every_key():
    front_matter = (TEMPLATE / "README.md").read_text().split("---\n", 2)[1]
    guide = GUIDE.read_text()
    for key in attempts.REQUIRED_KEYS | attempts.OPTIONAL_KEYS:
        assert re.search(rf"^#? ?{key}:", front_matter, re.M), f"the template lacks {key}"
        assert f"`{key}`" in guide, f"docs/adding-an-attempt.md does not describe {key}"


def test_the_template_body_has_the_sections_in_order_and_empty_result_markers():
    body = (TEMPLATE / "README.md").read_text().split("---\n", 2)[2]
    positions = [body.find(f"\n{s}\n") for s in SECTIONS]
    assert -1 not in positions and positions == sorted(positions), positions
    assert re.search(r"^# NN your-slug — ", body, re.M)
    assert "<!-- results:begin -->\n<!-- results:end -->" in body
    assert "_Not profiled yet._" in body and "_Written after the H100 measurement._" in body


def test_the_template_kernel_includes_the_header_and_defines_one_entry_point():
    source = (TEMPLATE / "kernel.cu").read_text()
    assert re.search(r'^#include "nvfp4_gemv.h"', source, re.M)
    defined = re.findall(r'^extern "C" \w+ (nvfp4_gemv\w*)\(', source, re.M)
    assert defined == ["nvfp4_gemv"], defined


def test_the_template_kernel_builds_for_both_targets():
    if shutil.which("nvcc") is None:
        pytest.skip("nvcc is not on the PATH: the template kernel cannot be built here")
    library = build.build(TEMPLATE / "kernel.cu")
    assert {row["target"] for row in build.resource_usage(library)} == {"sm_90a", "sm_100a"}
    exported = subprocess.run(["nm", "-D", str(library)], capture_output=True, text=True).stdout
    if exported:
        assert re.search(r"\bT nvfp4_gemv$", exported, re.M), exported
