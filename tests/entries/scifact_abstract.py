"""scifact_abstract in the shared harness (cases shared with scifact_sentence)."""

from scifact_cases import entry

ENTRY = entry("scifact_abstract")
