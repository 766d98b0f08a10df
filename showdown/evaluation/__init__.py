"""The numbers: statistics and intervals, estimators, confidence sequences, ratings and rankings."""
