"""KnowRL training: GRPO with knowledge-grounded rewards, cold-start SFT, evaluation."""
