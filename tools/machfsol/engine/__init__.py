"""The reference engine: cards, seeded deals, the rules of both variants, the autoplay
policy, transcripts and their checker. It imports nothing of the other parts.
"""
