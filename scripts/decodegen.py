#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Instruction decoder generator.

Reads a description of 32-bit instruction encodings (a .decode file) and
writes C that matches a word against them and calls one hand-written
function per pattern with the pattern's operands already extracted into a
struct of named fields. The build runs it; the output is #included by the
file that defines those functions.

Input, one statement per line ('#' starts a comment, a trailing '\\'
continues a line):

  %name POS:LEN [POS:LEN ...] [!function=FN]
      A field: bits POS..POS+LEN-1 of the word; several parts are
      concatenated, the first one most significant. 'POS:sLEN' on the
      first part makes the value sign-extended. FN (int64_t FN(int64_t))
      transforms the extracted value.
  &name member ...
      An argument set: the struct (struct args_name) a pattern's function
      receives.
  @name BITS... [&set] [member=%field | member=CONST | %field] ...
      A format: bits and operands shared by several patterns. CONST is
      a number or the name of a C constant (an enum of the including file).
  NAME BITS... [@format] [&set] [member=%field | member=CONST | %field] ...
      A pattern: calls dec_NAME(struct a64_insn *, const struct args_X *)
      when the word matches; without an argument set, the pattern's own
      fields make one (struct args_NAME).
  { ... }
      A group whose patterns may overlap: they are tried in order, and a
      function that returns false passes the word on to the next one.

BITS are 32 characters in all, from bit 31 down: '0' and '1' must match,
'.' and '-' match anything, and NAME:LEN (NAME:sLEN signed) is a field of
the pattern at that place. Outside a group no two patterns may match the
same word. Errors name the file and line.
"""
import argparse
import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


class DecodeError(Exception):
    pass


class Field:
    def __init__(self, name, parts, signed, func, line):
        self.name, self.parts, self.signed = name, parts, signed
        self.func, self.line = func, line


class Item:
    """A pattern or a format (formats are patterns that are never matched)."""

    def __init__(self, name, line):
        self.name, self.line = name, line
        self.fixedmask = self.fixedval = self.usedmask = 0
        self.nbits = 0
        self.ops = {}  # member -> ('inline', pos, len, signed) | ('field', Field) | ('const', n)
        self.argset = None
        self.group = None


class Group:
    def __init__(self, line, parent):
        self.line, self.parent, self.members = line, parent, []

    @property
    def fixedmask(self):
        m = 0xFFFFFFFF
        for it in self.members:
            m &= it.fixedmask
        v0 = self.members[0].fixedval if self.members else 0
        for it in self.members:
            m &= ~(it.fixedval ^ v0)
        return m & 0xFFFFFFFF

    @property
    def fixedval(self):
        return self.members[0].fixedval & self.fixedmask if self.members else 0


class Parser:
    def __init__(self, path, text):
        self.path = path
        self.fields, self.argsets, self.formats = {}, {}, {}
        self.patterns = []
        self.top = Group(0, None)
        self.cur = self.top
        self.funcs = {}  # dec function name -> argset name
        self.transforms = []
        self.parse(text)

    def err(self, line, msg):
        raise DecodeError("%s:%d: error: %s" % (self.path, line, msg))

    def parse(self, text):
        buf, start = "", 0
        for n, raw in enumerate(text.split("\n"), 1):
            s = raw.split("#", 1)[0].rstrip()
            if not buf:
                start = n
            if s.endswith("\\"):
                buf += s[:-1] + " "
                continue
            buf += s
            if buf.strip():
                self.statement(start, buf.split())
            buf = ""
        if buf.strip():
            self.statement(start, buf.split())
        if self.cur is not self.top:
            self.err(self.cur.line, "group opened here is never closed")

    def statement(self, line, toks):
        head = toks[0]
        if head == "{":
            if len(toks) > 1:
                self.err(line, "'{' must stand alone on its line")
            g = Group(line, self.cur)
            self.cur.members.append(g)
            self.cur = g
        elif head == "}":
            if len(toks) > 1:
                self.err(line, "'}' must stand alone on its line")
            if self.cur is self.top:
                self.err(line, "'}' without an open group")
            if not self.cur.members:
                self.err(line, "empty group")
            self.cur = self.cur.parent
        elif head.startswith("%"):
            self.field(line, head[1:], toks[1:])
        elif head.startswith("&"):
            self.argset(line, head[1:], toks[1:])
        elif head.startswith("@"):
            name = self.name(line, head[1:], "format")
            if name in self.formats:
                self.err(line, "format @%s already defined at line %d"
                         % (name, self.formats[name].line))
            self.formats[name] = self.item(line, name, toks[1:], True)
        else:
            name = self.name(line, head, "pattern")
            it = self.item(line, name, toks[1:], False)
            it.group = self.cur
            self.cur.members.append(it)
            self.patterns.append(it)

    def name(self, line, s, what):
        if not re.fullmatch(IDENT, s):
            self.err(line, "bad %s name '%s'" % (what, s))
        return s

    def field(self, line, name, toks):
        self.name(line, name, "field")
        if name in self.fields:
            self.err(line, "field %%%s already defined at line %d"
                     % (name, self.fields[name].line))
        parts, func, signed, total = [], None, False, 0
        for t in toks:
            m = re.fullmatch(r"(\d+):(s?)(\d+)", t)
            if t.startswith("!function="):
                func = self.name(line, t[len("!function="):], "function")
                continue
            if not m:
                self.err(line, "field %%%s: bad part '%s' (want POS:LEN)" % (name, t))
            pos, sg, ln = int(m.group(1)), m.group(2) == "s", int(m.group(3))
            if ln < 1 or pos + ln > 32:
                self.err(line, "field %%%s: bits %d..%d out of range 0..31"
                         % (name, pos, pos + ln - 1))
            if sg and parts:
                self.err(line, "field %%%s: only the first part may be signed" % name)
            signed = signed or sg
            total += ln
            parts.append((pos, ln))
        if not parts:
            self.err(line, "field %%%s has no bits" % name)
        if total > 63:
            self.err(line, "field %%%s is %d bits wide (at most 63)" % (name, total))
        if func and func not in self.transforms:
            self.transforms.append(func)
        self.fields[name] = Field(name, parts, signed, func, line)

    def argset(self, line, name, toks):
        self.name(line, name, "argument set")
        if name in self.argsets:
            self.err(line, "argument set &%s already defined at line %d"
                     % (name, self.argsets[name][1]))
        members = [self.name(line, t, "member") for t in toks]
        if len(set(members)) != len(members):
            self.err(line, "argument set &%s names a member twice" % name)
        self.argsets[name] = (members, line)

    def item(self, line, name, toks, is_format):
        it = Item(name, line)
        fmt = None
        bitpos = 32
        for t in toks:
            if t.startswith("@"):
                if is_format:
                    self.err(line, "a format cannot use another format")
                fmt = self.formats.get(t[1:])
                if fmt is None:
                    self.err(line, "unknown format %s" % t)
            elif t.startswith("&"):
                if t[1:] not in self.argsets:
                    self.err(line, "unknown argument set %s" % t)
                it.argset = t[1:]
            elif t.startswith("%"):
                f = self.fields.get(t[1:])
                if f is None:
                    self.err(line, "unknown field %s" % t)
                it.ops[f.name] = ("field", f)
            elif "=" in t:
                mem, val = t.split("=", 1)
                self.name(line, mem, "member")
                if val.startswith("%"):
                    f = self.fields.get(val[1:])
                    if f is None:
                        self.err(line, "unknown field %s" % val)
                    it.ops[mem] = ("field", f)
                else:
                    try:
                        it.ops[mem] = ("const", int(val, 0))
                    except ValueError:
                        # a C constant of the including file (an enum)
                        if not re.fullmatch(IDENT, val):
                            self.err(line, "bad constant '%s' for %s" % (val, mem))
                        it.ops[mem] = ("const", val)
            elif re.fullmatch(r"[01.\-]+", t):
                for ch in t:
                    bitpos -= 1
                    if bitpos < 0:
                        break
                    if ch in "01":
                        it.fixedmask |= 1 << bitpos
                        it.fixedval |= int(ch) << bitpos
            else:
                m = re.fullmatch(r"(%s):(s?)(\d+)" % IDENT, t)
                if not m:
                    self.err(line, "cannot parse '%s'" % t)
                ln = int(m.group(3))
                if ln < 1:
                    self.err(line, "field %s has no bits" % m.group(1))
                bitpos -= ln
                if bitpos >= 0:
                    it.ops[m.group(1)] = ("inline", bitpos, ln, m.group(2) == "s")
        if bitpos != 0:
            self.err(line, "%s %s has %d bits, not 32"
                     % ("format" if is_format else "pattern", name, 32 - bitpos))
        if fmt:
            self.merge_format(it, fmt)
        if not is_format:
            self.check_args(it)
        return it

    def merge_format(self, it, fmt):
        clash = it.fixedmask & fmt.fixedmask & (it.fixedval ^ fmt.fixedval)
        if clash:
            self.err(it.line, "pattern %s fixes bit %d opposite to format @%s (line %d)"
                     % (it.name, clash.bit_length() - 1, fmt.name, fmt.line))
        it.fixedmask |= fmt.fixedmask
        it.fixedval |= fmt.fixedval
        ops = dict(fmt.ops)
        ops.update(it.ops)
        it.ops = ops
        if it.argset is None:
            it.argset = fmt.argset

    def check_args(self, it):
        if it.argset is not None:
            members = self.argsets[it.argset][0]
            for mem in members:
                if mem not in it.ops:
                    self.err(it.line, "pattern %s leaves member %s of &%s unset"
                             % (it.name, mem, it.argset))
            for mem in it.ops:
                if mem not in members:
                    self.err(it.line, "pattern %s sets %s, which &%s lacks"
                             % (it.name, mem, it.argset))
            sname = it.argset
        else:
            sname = it.name
            members = list(it.ops)
            prev = self.argsets.get(sname)
            if prev is not None and prev[0] != members:
                self.err(it.line, "pattern %s has other operands than its namesake at line %d"
                         % (it.name, prev[1]))
            self.argsets.setdefault(sname, (members, it.line))
        it.args = sname
        prev = self.funcs.get(it.name)
        if prev is not None and prev != sname:
            self.err(it.line, "pattern %s takes &%s here and &%s elsewhere"
                     % (it.name, sname, prev))
        self.funcs[it.name] = sname


def overlaps(a, b):
    common = a.fixedmask & b.fixedmask
    return (a.fixedval ^ b.fixedval) & common == 0


def label(it):
    if isinstance(it, Group):
        return "the group at line %d" % it.line
    return "pattern %s (line %d)" % (it.name, it.line)


def check_overlaps(p, group):
    """Members of the top level may not overlap; a group's members may
    (they are ordered), but each nested group is checked the same way."""
    ms = group.members
    for g in ms:
        if isinstance(g, Group):
            check_overlaps(p, g)
    if group is not p.top:
        return
    for i, a in enumerate(ms):
        for b in ms[i + 1:]:
            if overlaps(a, b):
                word = (a.fixedval | b.fixedval) & 0xFFFFFFFF
                p.err(b.line, "%s overlaps %s outside a group (both match 0x%08x)"
                      % (label(b), label(a), word))


def bit_runs(mask):
    """Contiguous runs (pos, len) of a mask, most significant first."""
    runs, pos = [], 31
    while pos >= 0:
        if mask >> pos & 1:
            end = pos
            while pos >= 0 and mask >> pos & 1:
                pos -= 1
            runs.append((pos + 1, end - pos))
        else:
            pos -= 1
    return runs


def key_expr(mask):
    runs, terms, shift = bit_runs(mask), [], 0
    for pos, ln in reversed(runs):
        t = "(w >> %d & 0x%x)" % (pos, (1 << ln) - 1) if pos else "(w & 0x%x)" % ((1 << ln) - 1)
        terms.append("%s << %d" % (t, shift) if shift else t)
        shift += ln
    return " | ".join(reversed(terms))


def key_value(mask, val):
    k = 0
    for pos, ln in bit_runs(mask):
        k = k << ln | (val >> pos & ((1 << ln) - 1))
    return k


def part_expr(pos, ln, signed):
    if signed:
        return "(int64_t)((int32_t)(w << %d) >> %d)" % (32 - pos - ln, 32 - ln)
    return "(int64_t)(w >> %d & 0x%xu)" % (pos, (1 << ln) - 1)


class Emitter:
    def __init__(self, p):
        self.p, self.out = p, []

    def w(self, ind, s):
        self.out.append("\t" * ind + s)

    def operands(self, it, ind):
        self.w(ind, "struct args_%s a;" % it.args)
        for mem in self.p.argsets[it.args][0]:
            op = it.ops[mem]
            if op[0] == "inline":
                e = part_expr(op[1], op[2], op[3])
            elif op[0] == "field":
                e = "fld_%s(w)" % op[1].name
            else:
                e = str(op[1])
            self.w(ind, "a.%s = %s;" % (mem, e))

    def leaf(self, it, known, ind):
        m = it.fixedmask & ~known
        if m:
            self.w(ind, "if ((w & 0x%08xu) == 0x%08xu) {" % (m, it.fixedval & m))
            ind += 1
        if isinstance(it, Group):
            self.ordered(it, known | it.fixedmask, ind)
        else:
            if it.args in self.used_args():
                self.operands(it, ind)
                self.w(ind, "if (dec_%s(d, &a))" % it.name)
            else:
                self.w(ind, "if (dec_%s(d, NULL))" % it.name)
            self.w(ind + 1, "return true;")
        if m:
            self.w(ind - 1, "}")

    def used_args(self):
        return {k for k, v in self.p.argsets.items() if v[0]}

    def ordered(self, g, known, ind):
        for it in g.members:
            self.w(ind, "{")
            self.leaf(it, known, ind + 1)
            self.w(ind, "}")

    def tree(self, items, known, ind):
        if len(items) == 1:
            self.leaf(items[0], known, ind)
            return
        common = 0xFFFFFFFF & ~known
        for it in items:
            common &= it.fixedmask
        if not common:
            for it in items:
                self.w(ind, "{")
                self.leaf(it, known, ind + 1)
                self.w(ind, "}")
            return
        parts = {}
        for it in items:
            parts.setdefault(key_value(common, it.fixedval), []).append(it)
        self.w(ind, "switch (%s) {" % key_expr(common))
        for k in sorted(parts):
            self.w(ind, "case 0x%x: {" % k)
            self.tree(parts[k], known | common, ind + 1)
            self.w(ind + 1, "break;")
            self.w(ind, "}")
        self.w(ind, "default:")
        self.w(ind + 1, "break;")
        self.w(ind, "}")

    def emit(self, src, func, export):
        p = self.p
        self.w(0, "/* Generated by scripts/decodegen.py from %s: do not edit. */" % src)
        for name, (members, _) in p.argsets.items():
            if members:
                self.w(0, "struct args_%s {" % name)
                for m in members:
                    self.w(1, "int64_t %s;" % m)
                self.w(0, "};")
            else:
                self.w(0, "struct args_%s;" % name)
        for fn in p.transforms:
            self.w(0, "static int64_t %s(int64_t v);" % fn)
        for name, args in p.funcs.items():
            self.w(0, "static bool dec_%s(struct a64_insn *d, const struct args_%s *a);"
                   % (name, args))
        for f in p.fields.values():
            self.w(0, "static inline int64_t fld_%s(uint32_t w)" % f.name)
            self.w(0, "{")
            (pos, ln), rest = f.parts[0], f.parts[1:]
            self.w(1, "int64_t v = %s;" % part_expr(pos, ln, f.signed))
            for pos, ln in rest:
                self.w(1, "v = (int64_t)((uint64_t)v << %d) | %s;" % (ln, part_expr(pos, ln, False)))
            self.w(1, "return %s;" % ("%s(v)" % f.func if f.func else "v"))
            self.w(0, "}")
        self.w(0, "%sbool %s(struct a64_insn *d, uint32_t w, uint64_t pc)"
               % ("" if export else "static ", func))
        self.w(0, "{")
        self.w(1, "(void)pc;")
        self.tree(p.top.members, 0, 1)
        self.w(1, "return false;")
        self.w(0, "}")
        return "\n".join(self.out) + "\n"


def generate(path, text, func, export=False):
    p = Parser(path, text)
    check_overlaps(p, p.top)
    return Emitter(p).emit(path, func, export)


def main():
    ap = argparse.ArgumentParser(description="generate a C decoder from a .decode file")
    ap.add_argument("input")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--function", default="decode",
                    help="name of the generated decode function")
    ap.add_argument("--extern", action="store_true",
                    help="give the decode function external linkage (the including "
                         "file's header declares it)")
    a = ap.parse_args()
    try:
        with open(a.input) as f:
            text = f.read()
        c = generate(a.input, text, a.function, a.extern)
    except DecodeError as e:
        print(e, file=sys.stderr)
        return 1
    except OSError as e:
        print("decodegen: %s" % e, file=sys.stderr)
        return 1
    with open(a.output + ".tmp", "w") as f:
        f.write(c)
    os.replace(a.output + ".tmp", a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
