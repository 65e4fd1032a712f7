# Placeholder: the blockrange CLI build and tests.
.PHONY: cli check-cli cli-demo
cli:
check-cli:
cli-demo:
