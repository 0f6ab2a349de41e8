"""Output steps: lay out components and write print sheets, the rulebook, PNG/TTS/shop exports, the calibration sheet."""
