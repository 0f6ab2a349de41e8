"""A drawn shop PDF → DeviceCMYK, with pikepdf: every colour operator and every image.

cardgen draws in sRGB (``rg``/``RG``, RGB images), as the home proof and the PNGs need. For a CMYK
preset this pass rewrites the file the canvas wrote, page and form XObject by page and form XObject:

- colour operators are dropped and the ink is chosen where something is painted, by what is
  painted (:class:`cardgen.render.cmyk.InkModel`): text, a fill (its path's smaller side decides
  rich black), a stroke (its width, in the page's space, decides whether it is fine);
- K100 text and fine K100 strokes overprint (an ``/ExtGState`` with ``/OP``, ``/op``, ``/OPM 1``);
- RGB images become CMYK images at their own resolution (their soft masks stay).

Opacity (``/ca``, ``/CA`` of the drawing's own graphics states) is untouched, so a ``#rrggbbaa``
colour stays translucent. Colour operators inside a path's construction are not allowed, so the
ink of a path is written where the path begins.
"""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, replace

import pikepdf
from pikepdf import Name

from cardgen.render.cmyk import CMYK, InkModel

_PATH_START = {"m", "re"}
_PATH_MORE = {"l", "c", "v", "y", "h"}
_FILL = {"f", "F", "f*"}
_STROKE = {"S", "s"}
_BOTH = {"B", "B*", "b", "b*"}
_SHOW = {"Tj", "TJ", "'", '"'}
OVERPRINT_ON, OVERPRINT_OFF = Name("/cgOP1"), Name("/cgOP0")


@dataclass
class _State:
    fill: tuple | None = None  #: requested: ("rgb", r, g, b) 0–255 or ("cmyk", c, m, y, k)
    stroke: tuple | None = None
    fill_out: CMYK | None = None  #: the CMYK in force in the rewritten stream
    stroke_out: CMYK | None = None
    overprint: bool = False
    width: float = 1.0
    scale: float = 1.0  #: sqrt(|det|) of the CTM relative to the stream's start


def _req(operands, op: str) -> tuple:
    vals = [float(v) for v in operands]
    if op in ("rg", "RG"):
        return ("rgb", *(max(0, min(255, round(v * 255))) for v in vals))
    if op in ("g", "G"):
        g = max(0, min(255, round(vals[0] * 255)))
        return ("rgb", g, g, g)
    return ("cmyk", *vals)


def _smaller_side(out: list, start: int) -> float:
    """The smaller side of the bounding box of the path built by ``out[start:]`` (its points as
    written: the corner and size of ``re``, the points of ``m``/``l``/``c``…)."""
    xs: list[float] = []
    ys: list[float] = []
    for inst in out[start:]:
        nums = [float(v) for v in inst.operands]
        if str(inst.operator) == "re":
            x, y, w, h = nums
            xs += [x, x + w]
            ys += [y, y + h]
        else:
            xs += nums[0::2]
            ys += nums[1::2]
    if not xs:
        return 0.0
    return min(max(xs) - min(xs), max(ys) - min(ys))


class _Rewriter:
    def __init__(self, pdf: pikepdf.Pdf, model: InkModel):
        self.pdf, self.model = pdf, model
        self.thin = model.rules.thin_mm * 72 / 25.4
        self.done: set[tuple[int, int]] = set()

    def ink(self, req: tuple | None, use: str, size: float) -> CMYK | None:
        if req is None:
            return None
        if req[0] == "cmyk":
            return tuple(req[1:])  # type: ignore[return-value]
        rgb = tuple(req[1:])
        if use == "fill":
            return self.model.fill(rgb, size)  # type: ignore[arg-type]
        return self.model.colour(rgb)  # type: ignore[arg-type]

    def stream(self, owner) -> None:
        """Rewrite the content of ``owner`` (a page or a form XObject) and, once each, the forms
        and images its resources name."""
        key = owner.objgen
        if key != (0, 0):
            if key in self.done:
                return
            self.done.add(key)
        res = owner.get("/Resources")
        if res is None:
            res = owner.Resources = pikepdf.Dictionary()
        xobjects = res.get("/XObject", {})
        for name in list(xobjects.keys()):
            x = xobjects[name]
            if x.get("/Subtype") == "/Form":
                self.stream(x)
            elif x.get("/Subtype") == "/Image":
                self.image(x)
        out, used_op = self._rewrite(pikepdf.parse_content_stream(owner))
        if used_op:
            ext = res.get("/ExtGState")
            if ext is None:
                ext = res.ExtGState = pikepdf.Dictionary()
            ext[OVERPRINT_ON] = pikepdf.Dictionary(Type=Name.ExtGState, OP=True, op=True, OPM=1)
            ext[OVERPRINT_OFF] = pikepdf.Dictionary(Type=Name.ExtGState, OP=False, op=False)
        data = pikepdf.unparse_content_stream(out)
        if owner.get("/Type") == "/Page":
            owner.Contents = self.pdf.make_stream(zlib.compress(data, 6))
            owner.Contents.Filter = Name.FlateDecode
        else:
            owner.write(zlib.compress(data, 6), filter=Name.FlateDecode)

    def _rewrite(self, instructions) -> tuple[list, bool]:
        out: list = []
        st = _State()
        stack: list[_State] = []
        path_at: int | None = None
        text_size, text_scale = 0.0, 1.0
        used_op = False

        def emit_at(at: int, ops: list) -> None:
            out[at:at] = ops

        def want(at: int, fill: CMYK | None, stroke: CMYK | None, overprint: bool) -> None:
            nonlocal used_op
            ops = []
            if fill is not None and fill != st.fill_out:
                ops.append(pikepdf.ContentStreamInstruction([*fill], pikepdf.Operator("k")))
                st.fill_out = fill
            if stroke is not None and stroke != st.stroke_out:
                ops.append(pikepdf.ContentStreamInstruction([*stroke], pikepdf.Operator("K")))
                st.stroke_out = stroke
            if overprint != st.overprint and (overprint or st.overprint):
                ops.append(pikepdf.ContentStreamInstruction([OVERPRINT_ON if overprint else OVERPRINT_OFF],
                                                            pikepdf.Operator("gs")))
                st.overprint = overprint
                used_op = True
            if ops:
                emit_at(at, ops)

        k100 = (0.0, 0.0, 0.0, 1.0)
        for inst in instructions:
            if isinstance(inst, pikepdf.ContentStreamInlineImage):
                out.append(inst)
                continue
            operands, op = inst.operands, str(inst.operator)
            if op in ("rg", "g", "k"):
                st.fill = _req(operands, op)
                continue
            elif op in ("RG", "G", "K"):
                st.stroke = _req(operands, op)
                continue
            elif op == "q":
                stack.append(replace(st))
            elif op == "Q":
                if stack:
                    st = stack.pop()
            elif op == "cm":
                a, b, c, d = (float(v) for v in operands[:4])
                st.scale *= math.sqrt(abs(a * d - b * c)) or 1.0
            elif op == "w":
                st.width = float(operands[0])
            elif op == "BT":
                text_scale = 1.0
            elif op == "Tf":
                text_size = float(operands[1])
            elif op == "Tm":
                a, b, c, d = (float(v) for v in operands[:4])
                text_scale = math.sqrt(abs(a * d - b * c)) or 1.0
            elif op in _PATH_START or op in _PATH_MORE:
                if path_at is None:
                    path_at = len(out)
            elif op in _FILL or op in _STROKE or op in _BOTH or op == "n":
                at = path_at if path_at is not None else len(out)
                if op != "n":
                    fill = stroke = None
                    if op not in _STROKE and st.fill is not None:
                        # the size of the path matters only to pure black (rich black of large solids)
                        side = _smaller_side(out, at) * st.scale if st.fill == ("rgb", 0, 0, 0) else 0.0
                        fill = self.ink(st.fill, "fill", side)
                    if op not in _FILL:
                        stroke = self.ink(st.stroke, "stroke", 0.0)
                    fine = st.width * st.scale < self.thin
                    over = bool(self.model.rules.overprint_black and stroke == k100 and fine and fill is None)
                    want(at, fill, stroke, over)
                path_at = None
            elif op in _SHOW:
                fill = self.ink(st.fill, "text", text_size * text_scale * st.scale)
                want(len(out), fill, None, bool(self.model.rules.overprint_black and fill == k100))
            out.append(inst)
        return out, used_op

    def image(self, x) -> None:
        key = x.objgen
        if key in self.done:
            return
        self.done.add(key)
        cs = x.get("/ColorSpace")
        rgb = cs == "/DeviceRGB" or (isinstance(cs, pikepdf.Array) and len(cs) == 2 and cs[0] == "/ICCBased"
                                     and int(cs[1].get("/N", 0)) == 3)
        if not rgb or x.get("/ImageMask", False):
            return
        im = pikepdf.PdfImage(x).as_pil_image()
        cmyk = self.model.image(im)
        x.write(zlib.compress(cmyk.tobytes(), 6), filter=Name.FlateDecode)
        x.ColorSpace = Name.DeviceCMYK
        x.BitsPerComponent = 8
        for k in ("/DecodeParms", "/Decode"):
            if k in x:
                del x[k]


def to_cmyk(pdf: pikepdf.Pdf, model: InkModel) -> None:
    """Rewrite every page of ``pdf`` (and the forms and images it uses) in DeviceCMYK, in place."""
    rw = _Rewriter(pdf, model)
    for page in pdf.pages:
        rw.stream(page.obj)
