"""The offline rules: no model, no network. ``grader`` (SimpleQA-style grades by normalised
match, aliases, numbers and dates, abstention), ``answer_forms`` (the answer shapes it
compares) and ``facts`` (rule-based claim splitting and word-coverage support)."""
