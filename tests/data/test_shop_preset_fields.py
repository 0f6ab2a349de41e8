"""The shop presets accept only what the shop step does: a preset asking for crop marks in the
shop file is refused (the shop step draws none, so ``crop_marks: true`` would be ignored)."""
from __future__ import annotations

import pydantic
import pytest

from cardgen.data.shop_presets import ShopPreset, shop_presets


def test_every_bundled_preset_loads_without_marks():
    assert shop_presets() and not any(p.crop_marks for p in shop_presets().values())


def test_a_preset_asking_for_crop_marks_is_refused():
    with pytest.raises(pydantic.ValidationError, match="crop_marks"):
        ShopPreset(name="marks wanted", guide="https://example.invalid", crop_marks=True)
