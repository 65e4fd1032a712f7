# Placeholder: the userspace build (libblockrange, Check suites, fuzzers).
.PHONY: userspace check-userspace userspace-demo fuzz
userspace:
check-userspace: deps
userspace-demo:
fuzz:
