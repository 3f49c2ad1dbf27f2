# Entry points of the NVFP4 GEMV worklog. `make help` lists them.
#
# The environment sets itself up: where the system Python already has torch (the GPU
# machine, which reaches no package registry) it is used as is; elsewhere a virtual
# environment with the pinned requirements is made in .venv on first use.

# The kernel of record (README, "Where it stands"): what `make run` times.
RECORD := 93f
# The system Python is used only if it has everything the suite needs, the CUDA disassembler too.
SYSTEM_PYTHON_READY := $(shell python3 -c 'import torch, pandas, yaml, pytest; from common.build import cuda_tool; cuda_tool("cuobjdump"); cuda_tool("nvdisasm")' >/dev/null 2>&1 && echo yes)
ifeq ($(SYSTEM_PYTHON_READY),yes)
PY := python3
ENV :=
else
PY := .venv/bin/python
ENV := .venv/installed
endif
CLI := $(PY) -m common.cli

.PHONY: help run test bench latency floor-check table profiles sanitize clean
help:
	@echo "make attempt-NN   build, check and time attempt NN on the benchmark shapes (GPU)"
	@echo "make run          the same for the kernel of record, $(RECORD) (GPU)"
	@echo "make test         the test suite (GPU tests run where a GPU is visible)"
	@echo "make bench        every attempt, both clearing modes, recorded in results/ (GPU)"
	@echo "make diff-NN      attempt NN's kernel against its parent's"
	@echo "make sass-NN      SASS instruction counts of attempt NN for sm_90a and sm_100a"
	@echo "make submission-NN  write attempt NN as a GPU MODE submission file (build/submissions/)"
	@echo "make sweep-05     05's launch-configuration sweep (GPU)"
	@echo "make profile-NN   Nsight Compute on attempt NN; summary in profiles/<gpu>/ (GPU)"
	@echo "make profiles     every CUDA attempt, plus the comparison table (GPU)"
	@echo "make sanitize     compute-sanitizer on every CUDA attempt; record in profiles/<gpu>/ (GPU)"
	@echo "make latency      show that host launch latency stays out of the timings (GPU)"
	@echo "make floor-check  99 against every other plain-read strategy, all shapes (GPU)"
	@echo "make table        regenerate every generated table and figure from results/ and profiles/"
	@echo "make clean        remove build outputs and the virtual environment"

$(ENV): requirements.txt
	python3 -m venv .venv
	.venv/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

run: attempt-$(RECORD)

attempt-%: $(ENV)
	@$(CLI) run $*

diff-%:             # plain git, no environment needed
	@scripts/diff-attempt.sh $*

sass-%: $(ENV)
	@$(CLI) sass $*

bench: $(ENV)
	@$(CLI) bench

submission-%: $(ENV)
	@$(CLI) submission $*

sweep-%: $(ENV)
	@$(CLI) sweep $*

profile-%: $(ENV)
	@$(PY) profiles/profile.py run $*

profiles: $(ENV)
	@$(PY) profiles/profile.py run all

sanitize: $(ENV)
	@$(PY) profiles/sanitize.py

latency: $(ENV)
	@$(CLI) latency

floor-check: $(ENV)
	@$(CLI) floor

table: $(ENV)
	@$(CLI) table

test: $(ENV)
	$(PY) -m pytest -q tests

clean:
	rm -rf build .venv .pytest_cache
