"""The eval harness: labelled queries -> the same tools agents call -> metrics."""
