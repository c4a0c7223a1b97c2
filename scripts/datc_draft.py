#!/usr/bin/env python3
"""Draft fixtures/datc/*.txt from the shared DATC files (one-off drafting aid).

Reads the DATC v3.1 HTML (orders, titles, result text), the jDip-format text
file (positions before and after) and datc.json (order outcomes). The output
is only a draft: the committed fixtures were checked case by case against the
DATC 3.1 text and corrected by hand (wrong units, missing dislodgements, the
results of supports and convoys, 6.H-6.J written anew), so running this again
does not reproduce them. Usage: scripts/datc_draft.py ../shared/datc OUTDIR
"""
import html, json, re, sys
from collections import defaultdict

SHARED, OUT = sys.argv[1], sys.argv[2]

NAMES = {}
for line in open(f"{SHARED}/../maps/standard.map"):
    if "=" in line and not line.startswith("#"):
        full, abbrs = line.split("=", 1)
        full = full.strip()
        ab = abbrs.split()[0]
        NAMES[full.lower()] = ab
        for a in abbrs.split():
            NAMES.setdefault(a.replace("+", " "), ab)
NAMES["st. petersburg"] = "stp"
NAMES["gulf of lyons"] = "lyo"
GODIP = {"mid": "mao", "nat": "nao", "nrg": "nwg", "gol": "lyo"}
POWERS = ["England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey"]


def loc(text):
    t = text.strip().lower().replace("(", "/").replace(")", "").replace(" /", "/")
    coast = None
    m = re.match(r"^(.*?)\s*/\s*(nc|sc|ec|wc|north coast|south coast|east coast)$", t)
    if m:
        t, coast = m.group(1).strip(), m.group(2)[0] + "c"
    ab = NAMES.get(t) or GODIP.get(t) or t
    ab = ab.split("/")[0]
    return ab.upper() + (("/" + coast.upper()) if coast else "")


# --- HTML ----------------------------------------------------------------
raw = open(f"{SHARED}/Diplomacy Adjudicator Test Cases.html", encoding="utf-8", errors="replace").read()
start = raw.find('<h3><a name="6">')
body = re.sub(r'<a name="(6\.[A-J]\.\d+)"><h4>(.*?)</h4></a>', r'<h4><a name="\1">\2</a></h4>', raw[start:])
parts = re.split(r'<h4><a name="(6\.[A-J]\.\d+)">(.*?)</a></h4>', body, flags=re.S)
HTML = {}
for i in range(1, len(parts), 3):
    cid, title, content = parts[i], parts[i + 1], parts[i + 2]
    content = content.split("<h3")[0]
    title = re.sub(r"^6\.[A-J]\.\d+\.?\s*TEST CASE,\s*", "", html.unescape(re.sub(r"\s+", " ", title)))
    items = []
    for m in re.finditer(r"<pre>(.*?)</pre>|<p>(.*?)</p>", content, flags=re.S):
        if m.group(1) is not None:
            items.append(("pre", html.unescape(m.group(1))))
        else:
            items.append(("p", html.unescape(re.sub(r"<.*?>", "", re.sub(r"\s+", " ", m.group(2))))))
    HTML[cid] = (title.strip(), items)

UNIT = r"(A|F)\s+(.+?)"


def conv_order(line):
    """HTML order line -> (canonical order, unit kind, unit loc) or None."""
    s = line.strip().rstrip(".")
    s = re.sub(r"\s+", " ", s)
    low = s.lower()
    if not s:
        return None
    m = re.match(r"^build (A|F) (.+)$", s, re.I)
    if m:
        return (f"BUILD {m.group(1).upper()} {loc(m.group(2))}", m.group(1).upper(), loc(m.group(2)))
    m = re.match(r"^(?:remove|disband) (A|F) (.+)$", s, re.I)
    if m:
        return (f"REMOVE {m.group(1).upper()} {loc(m.group(2))}", m.group(1).upper(), loc(m.group(2)))
    m = re.match(r"^(A|F) (.+?) (supports|convoys) (A|F) (.+?)(?: - (.+))?$", s, re.I)
    if m:
        k, l, verb, k2, l2, d = m.groups()
        v = "S" if verb.lower() == "supports" else "C"
        o = f"{k.upper()} {loc(l)} {v} {k2.upper()} {loc(l2)}"
        if d:
            o += f" - {loc(d)}"
        return (o, k.upper(), loc(l))
    m = re.match(r"^(A|F) (.+?) - (.+?)( via convoy)?$", s, re.I)
    if m:
        k, l, d, vc = m.groups()
        o = f"{k.upper()} {loc(l)} - {loc(d)}" + (" VIA CONVOY" if vc else "")
        return (o, k.upper(), loc(l))
    m = re.match(r"^(A|F) (.+?) (hold|holds|disband|disbands)$", s, re.I)
    if m:
        k, l, verb = m.groups()
        if verb.lower().startswith("disband"):
            return (f"{k.upper()} {loc(l)} D", k.upper(), loc(l))
        return (f"{k.upper()} {loc(l)} H", k.upper(), loc(l))
    m = re.match(r"^(A|F) (.+?)$", s, re.I)
    if m:
        return ("", m.group(1).upper(), loc(m.group(2)))
    return ("?? " + s, None, None)


def html_blocks(items):
    """Each <pre> as a list of (power, order-or-'' , kind, loc) or raw text lines."""
    out = []
    for kind, text in items:
        if kind != "pre":
            continue
        power = None
        block = []
        for line in text.splitlines():
            l = line.strip()
            if not l:
                continue
            m = re.match(r"^(\w+):\s*(.*)$", l) or re.match(r"^(\w+)()$", l)
            if m and m.group(1).capitalize() in POWERS:
                power = m.group(1).capitalize()
                if not m.group(2):
                    continue
                l = m.group(2)
            if power is None:
                block.append(("TEXT", l, None, None))
                continue
            o, k, lc = conv_order(l)
            block.append((power, o, k, lc))
        out.append(block)
    return out


# --- txt -----------------------------------------------------------------
TXT = {}
cur = None
blk = None
for line in open(f"{SHARED}/datc_v2.4_06.txt", encoding="utf-8", errors="replace"):
    line = line.split("#")[0].strip()
    if not line:
        continue
    if line.startswith("CASE "):
        name = line[5:].split()[0].rstrip(".")
        if name == "6.F.E":
            name = "6.F.5"
        if name in TXT:
            name = name + "#2"
        cur = TXT[name] = defaultdict(list)
        blk = None
        continue
    if cur is None:
        continue
    if line.startswith("PRESTATE_SETPHASE"):
        cur["phase"] = line[len("PRESTATE_SETPHASE"):].strip()
        continue
    if re.match(r"^[A-Z_]+$", line):
        blk = line
        if line == "POSTSTATE_SAME":
            cur["same"] = True
        continue
    cur[blk].append(line)


def unitline(s):
    m = re.match(r"^(\w+):?\s*(A|F)\s+(\S+)", s, re.I)
    if not m:
        raise SystemExit("bad unit line: " + repr(s))
    p = m.group(1).capitalize()
    if p == "Germnay":
        p = "Germany"
    return (p, m.group(2).upper(), loc(m.group(3)))


# --- json ----------------------------------------------------------------
JS = defaultdict(list)
for c in json.load(open(f"{SHARED}/datc.json"))["cases"]:
    cid = c["url"].split("#")[1]
    JS[cid].append(c)

ABR = {"ENG": "England", "FRA": "France", "GER": "Germany", "ITA": "Italy", "AUS": "Austria", "RUS": "Russia", "TUR": "Turkey"}


def jsorder(s):
    m = re.match(r"^(\w+): (A|F) (\S+) (.*)$", s)
    p, k, l, rest = m.groups()
    l = loc(l)
    return ABR[p], k, l, rest


def wrap(text, prefix="# "):
    words, lines, cur = text.split(), [], prefix
    for w in words:
        if len(cur) + len(w) > 90:
            lines.append(cur.rstrip())
            cur = prefix
        cur += w + " "
    if cur.strip() != prefix.strip():
        lines.append(cur.rstrip())
    return lines


def emit(cid):
    title, items = HTML[cid]
    out = [f"case {cid}  {title.capitalize()}"]
    for kind, text in items:
        if kind == "p":
            out += wrap(text, "#| ")
        else:
            for l in text.strip().splitlines():
                out.append("#> " + l.rstrip())
    blocks = html_blocks(items)
    t = TXT.get(cid)
    out.append(f"# txt phase: {t['phase'] if t else None}")
    js = JS.get(cid, [])
    for c in js:
        out.append("# json: " + json.dumps({k: v for k, v in c.items() if k not in ('name', 'url', 'description')}))
    pre = [unitline(u) for u in t["PRESTATE"]] if t else []
    post = [unitline(u) for u in t["POSTSTATE"]] if t and not t.get("same") else pre
    disl = [unitline(u) for u in t["POSTSTATE_DISLODGED"]] if t else []
    ph = {"Spring 1901, Movement": "S1901M", "Spring 1901, Retreat": "S1901R", "Fall 1901, Adjustment": "W1901A"}
    out.append("phase " + ph.get(t["phase"] if t and t.get("phase") else "", "S1901M"))
    if t and t.get("PRESTATE_SUPPLYCENTER_OWNERS"):
        own = defaultdict(list)
        for u in t["PRESTATE_SUPPLYCENTER_OWNERS"]:
            p, k, l = unitline(u)
            own[p].append(l)
        out.append("centers")
        for p, ls in own.items():
            out.append(f"  {p}: {' '.join(ls)}")
    out.append("units")
    units = list(pre)
    for b in blocks[:1]:
        for p, o, k, l in b:
            if p != "TEXT" and k and not o.startswith("BUILD") and (p, k, l) not in units and not any(u[2].split('/')[0] == l.split('/')[0] for u in units):
                units.append((p, k, l))
                out.append(f"# (from html)")
    for p, k, l in units:
        out.append(f"  {p}: {k} {l}")
    out.append("orders")
    postset = set(post)
    dislset = set(disl)
    for bi, b in enumerate(blocks):
        if bi > 0:
            out.append("# --- next pre block")
        for p, o, k, l in b:
            if p == "TEXT":
                out.append(f"# TEXT {o}")
                continue
            if not o:
                out.append(f"# (no order) {p}: {k} {l}")
                continue
            res = "?"
            if (p, k, l) in dislset:
                res = "dislodged"
            if " - " in o and " S " not in o and " C " not in o:
                dest = o.split(" - ")[1].split()[0]
                moved = any(u[0] == p and u[1] == k and u[2].split('/')[0] == dest.split('/')[0] for u in postset) and (p, k, l) not in postset
                res = "ok" if moved else ("FAILS, dislodged" if res == "dislodged" else "FAILS")
            elif o.endswith(" H"):
                res = res if res == "dislodged" else "ok"
            out.append(f"  {p}: {o:<34} => {res}")
    out.append("after")
    for p, k, l in post:
        out.append(f"  {p}: {k} {l}")
    if disl:
        out.append("dislodged after")
        for p, k, l in disl:
            out.append(f"  {p}: {k} {l}")
    if t and t.get("PRESTATE_DISLODGED"):
        out.append("# txt prestate_dislodged: " + ", ".join(t["PRESTATE_DISLODGED"]))
        out.append("# txt prestate_results: " + " | ".join(t["PRESTATE_RESULTS"]))
        out.append("# txt orders: " + " | ".join(t["ORDERS"]))
    out.append("end")
    out.append("")
    return out


import os
os.makedirs(OUT, exist_ok=True)
for sec in "ABCDEFGHIJ":
    ids = sorted([c for c in HTML if c.startswith(f"6.{sec}.")], key=lambda c: int(c.split(".")[2]))
    lines = []
    for cid in ids:
        lines += emit(cid)
    open(f"{OUT}/6{sec.lower()}.txt", "w").write("\n".join(lines) + "\n")
    print(sec, len(ids))


# --- second pass: refine the drafted results with a map-based legality check ----
TERR, ABUT = {}, {}
for line in open(f"{SHARED}/../maps/standard.map"):
    f = line.split()
    if len(f) > 2 and f[2] == "ABUTS":
        TERR[f[1].upper()] = f[0]
        ABUT[f[1].upper()] = f[3:]


def prov(l):
    return l.split("/")[0]


def army_adj(a, b):
    if TERR.get(prov(a)) == "WATER" or TERR.get(prov(b)) == "WATER":
        return False
    return any(prov(x.upper()) == prov(b) for x in ABUT.get(prov(a), []))


def fleet_adj(a, b):
    if TERR.get(prov(a)) == "LAND" or TERR.get(prov(b)) == "LAND":
        return False
    ns = [x for x in ABUT.get(a, []) if x == x.upper()]
    if "/" in b:
        return b in ns
    return any(prov(x) == b for x in ns)


def reach(kind, a, b):
    return army_adj(a, b) if kind == "A" else fleet_adj(a, b) or any(fleet_adj(a, f"{b}/{c}") for c in "NC SC EC".split())


def refine(path):
    lines = open(path).read().split("\n")
    out, case = [], []
    for line in lines:
        case.append(line)
        if line == "end":
            out += refine_case(case)
            case = []
    out += case
    open(path, "w").write("\n".join(out))


def refine_case(case):
    orders = []
    for i, l in enumerate(case):
        m = re.match(r"^  (\w+): (.*?)\s+=> (.*)$", l)
        if m:
            orders.append((i, m.group(1), m.group(2), m.group(3)))
    units = {}
    sec = None
    for l in case:
        if l in ("units", "orders", "after", "dislodged after"):
            sec = l
        m = re.match(r"^  (\w+): (A|F) (\S+)$", l)
        if m and sec == "units":
            units[prov(m.group(3))] = (m.group(1), m.group(2), m.group(3))
    moves = {}
    for i, p, o, r in orders:
        m = re.match(r"^(A|F) (\S+) - (\S+)", o)
        if m and " S " not in o and " C " not in o:
            moves[prov(m.group(2))] = (p, m.group(1), m.group(2), m.group(3), "VIA CONVOY" in o)
    convoys = [o for _, _, o, _ in orders if " C " in o]
    for i, p, o, r in orders:
        u = re.match(r"^(A|F) (\S+)", o)
        own = u and units.get(prov(u.group(2)))
        note = ""
        if u and (not own or own[0] != p or own[1] != u.group(1)):
            note = "void"
        elif " S " in o:
            m = re.match(r"^(A|F) (\S+) S (A|F) (\S+)(?: - (\S+))?", o)
            k, l, k2, l2, d = m.groups()
            target = prov(d) if d else prov(l2)
            mv = moves.get(prov(l2))
            if not reach(k, l, target):
                note = "void"
            elif d and (prov(l2) == prov(d) or not (mv and prov(mv[3]) == prov(d))):
                note = "void"
            elif not d and mv:
                note = "void"
            elif "dislodged" in r:
                note = "dislodged"
            else:
                attackers = [v for v in moves.values() if prov(v[3]) == prov(l) and v[0] != p and prov(v[2]) != target]
                legal = [v for v in attackers if reach(v[1], v[2], prov(l)) and not v[4]]
                note = "cut" if legal else ("CUT?" if attackers else "ok")
        elif " C " in o:
            m = re.match(r"^(A|F) (\S+) C (A|F) (\S+) - (\S+)", o)
            k, l, k2, l2, d = m.groups()
            mv = moves.get(prov(l2))
            if k != "F" or TERR.get(prov(l)) != "WATER" or not (mv and prov(mv[3]) == prov(d) and mv[1] == "A"):
                note = "void"
            elif "dislodged" in r:
                note = "dislodged"
            else:
                note = "ok?"
        elif " - " in o:
            m = re.match(r"^(A|F) (\S+) - (\S+)", o)
            k, l, d = m.groups()
            adj = army_adj(l, d) if k == "A" else fleet_adj(l, d)
            cv = [c for c in convoys if re.search(rf" C A {l} - {prov(d)}", c)]
            if r == "ok":
                note = "ok"
            elif k == "F" and not adj and not (d == prov(d) and reach("F", l, d)):
                note = "void"
            elif k == "A" and (prov(l) == prov(d) or TERR.get(prov(d)) == "WATER"):
                note = "void"
            elif k == "A" and not adj and not cv:
                note = "no convoy"
            elif k == "A" and ("VIA CONVOY" in o or not adj):
                note = "fails"
            else:
                note = "bounce"
            if "dislodged" in r:
                note += ", dislodged"
        else:
            note = r
        if "dislodged" in r and "dislodged" not in note:
            note += ", dislodged"
        case[i] = f"  {p}: {o:<32} => {note}"
    return case


for sec in "ABCDEFG":
    refine(f"{OUT}/6{sec.lower()}.txt")
