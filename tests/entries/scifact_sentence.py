"""scifact_sentence in the shared harness (cases shared with scifact_abstract)."""

from scifact_cases import entry

ENTRY = entry("scifact_sentence")
