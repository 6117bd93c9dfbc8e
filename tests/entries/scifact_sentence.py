"""scifact_sentence in the shared harness (cases shared with scifact_abstract)."""

from entries.scifact_abstract import scifact_entry

ENTRY = scifact_entry("scifact_sentence")
