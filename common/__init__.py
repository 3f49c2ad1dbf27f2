"""Shared harness of the NVFP4 GEMV worklog: format, problem, reference, checks, timing, build."""
