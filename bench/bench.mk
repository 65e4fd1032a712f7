# Placeholder: userspace benchmarks.
.PHONY: bench bench-userspace
bench: bench-userspace bench-hwmon
bench-userspace:
