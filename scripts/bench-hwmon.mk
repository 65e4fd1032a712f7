# Placeholder: the KUnit-hosted hwmon core benchmark (issue 8, part 4).
.PHONY: bench-hwmon
bench-hwmon:
