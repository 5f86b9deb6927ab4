"""Atari BASIC listings and tokenized programs."""
