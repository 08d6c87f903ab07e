"""ch06_tables.py: write the tables of tests/check_ch06.c from tests/pytorch/ch06_facts.md.

The loss cases of section b (b.1 - b.9: the input, the target, the options, the loss and the
input's gradient that PyTorch 1.13 gave) and the rows of section t.1 (softmax, log_softmax,
logsumexp and their gradients) become C initializers, so that every number check_ch06.c asserts
for them is PyTorch's, copied by a program rather than by hand. Run from the repository root:

  python3 tests/pytorch/ch06_tables.py           rewrite the block between the markers
  python3 tests/pytorch/ch06_tables.py --check   exit 1 if the block is not what FACTS gives

(regenerate ch06_facts.md first with /usr/bin/python3 tests/pytorch/ch06_facts.py).
"""
import math
import re
import sys

FACTS = "tests/pytorch/ch06_facts.md"
CHECK = sys.argv[-1] if sys.argv[-1].endswith('.c') else "tests/check_ch06.c"
BEGIN = "/* BEGIN TABLES: written by tests/pytorch/ch06_tables.py from ch06_facts.md; do not edit */"
END = "/* END TABLES */"
NAMES = {"nan": math.nan, "inf": math.inf, "dict": dict}
RED = {"none": "NONE", "mean": "MEAN", "sum": "SUM"}


def value(text):
    return eval(text, {"__builtins__": {}}, NAMES)  # FACTS prints Python literals (and nan, inf)


def flat(v):
    if isinstance(v, list):
        return [u for w in v for u in flat(w)]
    return [v]


def num(v):
    v = float(v)
    if math.isnan(v):
        return "NAN"
    if math.isinf(v):
        return "INFINITY" if v > 0 else "-INFINITY"
    s = repr(v)
    return s


def darray(vals):
    return "D(" + ", ".join(num(v) for v in vals) + ")" if vals else "NULL"


def shape(dims):
    return "{ %d, { %s } }" % (len(dims), ", ".join(str(d) for d in dims) or "0")


def wrap(head, parts, width=99, indent="      "):
    """head then the comma-separated parts, broken at commas, lines at most width wide."""
    lines, cur = [], head
    for i, p in enumerate(parts):
        piece = p + ("," if i < len(parts) - 1 else "")
        if len(cur) + 1 + len(piece) > width:
            lines.append(cur.rstrip())
            cur = indent + piece
        else:
            cur += ("" if cur.endswith(("{ ", "(")) or cur == indent else " ") + piece
    lines.append(cur)
    return lines


def comment(text, width=99):
    words, lines, cur = text.split(" "), [], "    /*"
    for w in words:
        if len(cur) + 1 + len(w) > width - 3:
            lines.append(cur)
            cur = "      "
        cur += " " + w
    lines.append(cur + " */")
    return lines


def field(name, vals, indent="      "):
    """`.name = D(v, ...),` wrapped between the numbers."""
    if not vals:
        return [f"{indent}.{name} = NULL,"]
    nums = [num(v) for v in vals]
    lines = wrap(f"{indent}.{name} = D(", nums, width=95, indent=indent + "    ")
    lines[-1] += "),"
    return lines


def entries(text, prefix):
    """(id, header line, body lines) of every **prefix...** entry."""
    out = []
    for m in re.finditer(r"^\*\*(%s[0-9.]*)\*\* (.*)$" % re.escape(prefix), text, re.M):
        start = m.end()
        nxt = re.search(r"^(\*\*|###|## )", text[start:], re.M)
        body = text[start:start + nxt.start()] if nxt else text[start:]
        out.append((m.group(1), m.group(2), [l for l in body.splitlines() if l.startswith("- ")]))
    return out


def loss_cases(text):
    cases = []
    for cid, head, body in entries(text, "b."):
        if not re.match(r"b\.[1-9]\.", cid):
            continue
        info = {}
        for line in body:
            m = re.match(r"- (input|target) \((\w+), shape \[([0-9, ]*)\]\) = `(.*?)`", line)
            if m:
                dims = [int(d) for d in m.group(3).split(",") if d.strip()]
                info[m.group(1)] = (m.group(2), dims, value(m.group(4)))
                continue
            m = re.match(r"- options: (.*)$", line)
            if m:
                info["options"] = {} if m.group(1) == "(defaults)" else value("dict(%s)" % m.group(1))
                continue
            m = re.match(r"- loss = `(.*?)` \(dtype (\w+), shape \[([0-9, ]*)\]", line)
            if m:
                info["loss"] = (value(m.group(1)), [int(d) for d in m.group(3).split(",") if d.strip()])
                continue
            m = re.match(r"- g = `(.*?)`", line)
            if m:
                info["g"] = value(m.group(1))
                continue
            m = re.match(r"- input.grad = `(.*?)`", line)
            if m:
                info["grad"] = value(m.group(1))
                continue
            if line.startswith("- ERROR"):
                info["error"] = True
        if info.get("error") or "grad" not in info:
            continue
        cases.append((cid, head, info))
    return cases


def c_loss_cases(text):
    out = ["static const loss_case loss_cases[] = {"]
    for cid, head, info in loss_cases(text):
        dt, xdims, xv = info["input"]
        tdt, tdims, tv = info["target"]
        opts = info["options"]
        seed = 0.5 if "g" in info else 1.0
        if "g" in info:  # FACTS's g is 0.5, 1.0, 1.5, ... = (k % 3 + 1) * 0.5
            g = flat(info["g"])
            assert all(abs(v - 0.5 * (1 + k % 3)) == 0 for k, v in enumerate(g)), cid
        desc = re.sub(r"\s+", " ", head.replace("`", ""))
        out += comment(f"{cid}: {desc}")
        out.append("    { .id = \"%s\", .op = %s, .dtype = %s, .shape = %s," % (
            cid, "OP_CE" if "cross_entropy" in head else "OP_NLL",
            "TC_FLOAT32" if dt == "float32" else "TC_FLOAT64", shape(xdims)))
        out += field("x", flat(xv))
        prob = tdt != "int64"
        line = "      .tshape = %s,%s" % (shape(tdims), " .prob = true," if prob else "")
        out.append(line)
        if prob:
            out += field("target", flat(tv))
        else:
            tl = flat(tv)
            out += field("target", [float(v) for v in tl])
        w = opts.get("weight")
        if w is not None:
            out.append(f"      .nweight = {len(w)},")
            out += field("weight", w)
        parts = [".reduction = %s" % RED[opts.get("reduction", "mean")],
                 ".ignore_index = %d" % opts.get("ignore_index", -100)]
        if opts.get("label_smoothing", 0.0):
            parts.append(".smoothing = %r" % opts["label_smoothing"])
        parts += [".seed = %r" % seed, ".lshape = %s" % shape(info["loss"][1])]
        lines = wrap("     ", parts)
        lines[-1] += ","
        out += lines
        out += field("loss", flat(info["loss"][0]))
        out += field("grad", flat(info["grad"]))
        out[-1] = out[-1][:-1] + " },"
    out.append("};")
    return out


def c_rows(text):
    rows = {"float32": [], "float64": []}
    for cid, head, body in entries(text, "t.1."):
        m = re.match(r"(.*), (float32|float64): x = `(.*)`", head)
        lab, dt, xv = m.group(1), m.group(2), value(m.group(3))
        vals = {}
        for line in body:
            m = re.match(r"- (\w+) = `(.*?)`; grad = `(.*?)`", line)
            vals[m.group(1)] = (flat(value(m.group(2))), flat(value(m.group(3))))
        lines = comment(f"{cid} ({dt}): {lab}") + ["    { .id = \"%s\"," % cid]
        lines += field("x", xv)
        for name in ("softmax", "log_softmax", "logsumexp"):
            lines += field(name, vals[name][0])
            lines += field(name + "_grad", vals[name][1])
        lines[-1] = lines[-1][:-1] + " },"
        rows[dt] += lines
    out = []
    for dt, suffix in (("float32", "f32"), ("float64", "f64")):
        out.append(f"static const softmax_row softmax_rows_{suffix}[] = {{")
        out += rows[dt]
        out.append("};")
        out.append("")
    return out[:-1]


def block(text):
    return "\n".join([BEGIN, ""] + c_rows(text) + [""] + c_loss_cases(text) + ["", END])


def main():
    text = open(FACTS).read()
    src = open(CHECK).read()
    i, j = src.find(BEGIN), src.find(END)
    if i < 0 or j < 0:
        sys.exit(f"{CHECK}: the markers are missing")
    new = src[:i] + block(text) + src[j + len(END):]
    if "--check" in sys.argv[1:]:
        if new != src:
            sys.exit(f"{CHECK}: the tables differ from {FACTS}; run python3 {sys.argv[0]}")
        return
    if new != src:
        open(CHECK, "w").write(new)


if __name__ == "__main__":
    main()
